package io.durableagents.starter.benchmark;

/**
 * One measured run of the benchmark's scale part: its wall time and throughput, its LLM calls, the
 * worker's heap and threads, and the worker's and the server's CPU time per agent step.
 */
record ScaleRun(double wall, double agentStepsPerSecond, long llmCalls, long heapMb, long threads,
    double workerCpuMs, double serverCpuMs) {}
