/**
 * Temporal and workers on this machine: {@code demo}, {@code dev-server}, {@code worker} and {@code
 * codec-server}, and the child processes (the embedded Temporal, workers) that they and the benchmark start.
 */
package io.durableagents.starter.local;
