/**
 * {@code benchmark}: programs that print numbers (overhead, parallel calls, scale, forks, history cost,
 * recovery from killed workers and servers), with the servers, workers and machine readings they use.
 */
package io.durableagents.starter.benchmark;
