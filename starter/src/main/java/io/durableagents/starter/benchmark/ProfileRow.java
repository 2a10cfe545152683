package io.durableagents.starter.benchmark;

import java.util.Map;

/**
 * One measured run of the profile part: its server, worker configuration and shape, what it did (agent
 * steps, wall time), the CPU its worker and its server used, and that CPU by part.
 */
final class ProfileRow {
  final BenchmarkServer.Kind kind;
  final ProfileOptions.Worker worker;
  final int agents;
  final int perWorkflow;
  /** Why the run did not finish, or null. */
  String failed;
  long agentSteps;
  double wall;
  /** CPU (ms) of the whole run: the worker's JVM; the server (its JVM, and the Temporal CLI it started). */
  double workerCpuMs;
  double serverCpuMs;
  /** CPU (ms) of the Temporal CLI's process alone (the dev server), or -1. */
  double cliCpuMs = -1;
  JfrParts.Window window;
  Map<Long, ThreadCpu.Thread> workerThreads = Map.of();
  Map<Long, ThreadCpu.Thread> serverThreads = Map.of();
  /** CPU ms by part (whole run) of the worker and, from JFR, of the in-memory server. */
  Map<String, Double> workerParts = Map.of();
  Map<String, Double> serverParts = Map.of();
  /** Bytes allocated by part (JFR's allocation samples' weights) in the worker. */
  Map<String, Double> workerAllocated = Map.of();
  Map<String, Integer> workerDeciding = Map.of();
  Map<String, Integer> serverDeciding = Map.of();
  /** The dev server's CPU samples by part (perf), or null. */
  GoProfile.Result go;
  /** Why there is no Go profile, or null. */
  String noGoProfile;
  /** The dev server's persistence calls: operation to {ms, calls}; null in memory. */
  Map<String, double[]> persistence;
  /** Bytes of OTLP trace exports the sink received during the run. */
  long otlpBytes;
  String loadAverage;

  ProfileRow(BenchmarkServer.Kind kind, ProfileOptions.Worker worker, int agents, int perWorkflow) {
    this.kind = kind;
    this.worker = worker;
    this.agents = agents;
    this.perWorkflow = perWorkflow;
  }

  /** A column's heading: server, worker configuration, agents per workflow (and agents, if several). */
  String label(boolean withAgents) {
    return kind.label + " / " + worker.label + " / " + perWorkflow + (withAgents ? " / " + agents + " agents" : "");
  }

  /** {@code ms} of the whole run per agent step. */
  double perStep(double ms) {
    return agentSteps == 0 ? 0 : ms / agentSteps;
  }
}
