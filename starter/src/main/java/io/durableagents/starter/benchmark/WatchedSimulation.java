package io.durableagents.starter.benchmark;

import io.durableagents.starter.run.FailingWorkflowTask;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import java.util.concurrent.TimeUnit;

/**
 * A scale-part simulation run and waited for, but never forever: it is given up (and terminated) when its
 * workflow task keeps failing, its worker has exited, it has run past {@code --time-limit}, or no event has
 * been added to its history for 10 minutes.
 */
final class WatchedSimulation {
  private final BenchmarkCommand bench;

  WatchedSimulation(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** A scale-part run that did not finish: its workflow task kept failing, or its worker died. */
  static final class StuckRun extends Exception {
    /** Agent steps done when a run was given up at its time limit, else -1. */
    final long agentStepsDone;

    StuckRun(String message, long agentStepsDone) {
      super(message);
      this.agentStepsDone = agentStepsDone;
    }
  }

  /**
   * Runs a simulation and waits for it, but never forever: it gives up (terminating the run) when the
   * run's workflow task keeps failing, the worker has exited, or no agent step has ended for 10 minutes.
   */
  SimulationResult run(SimulationInput input, String id, BenchmarkWorker worker) throws StuckRun {
    io.temporal.client.WorkflowStub stub = bench.startSimulation(input, id);
    long lastProgress = System.nanoTime();
    long lastEvents = -1;
    long giveUpAt = bench.timeLimitMinutes == null ? Long.MAX_VALUE
        : System.nanoTime() + TimeUnit.MINUTES.toNanos(bench.timeLimitMinutes);
    for (int wait = 1; ; wait++) {
      try {
        try {
          return stub.getResult(5, TimeUnit.SECONDS, SimulationResult.class);
        } catch (io.temporal.client.WorkflowServiceException e) {
          // The real server answers a long poll of a workflow whose lock its children's starts and
          // completions hold with RESOURCE_EXHAUSTED "Workflow is busy"; the SDK retries it until the
          // poll's 5 s run out and then throws it: a wait like any other.
          if (!(e.getCause() instanceof io.grpc.StatusRuntimeException s)
              || s.getStatus().getCode() != io.grpc.Status.Code.RESOURCE_EXHAUSTED) {
            throw e;
          }
          throw new java.util.concurrent.TimeoutException(e.getCause().getMessage());
        }
      } catch (java.util.concurrent.TimeoutException e) {
        String reason = null;
        long done = -1;
        // every 30 s (reading the history costs the server CPU that the row measures)
        java.util.Optional<FailingWorkflowTask> failing = wait % 6 == 0
            ? FailingWorkflowTask.of(bench.service, "default", id) : java.util.Optional.empty();
        if (failing.isPresent()) {
          reason = failing.get().describe();
        } else if (System.nanoTime() > giveUpAt) {
          done = PartialRun.agentStepsDone(bench.client, id, input.agentsPerWorkflow());
          reason = "not finished within its time limit of " + bench.timeLimitMinutes + " minutes: " + done
              + " agent steps done by then";
        } else if (!worker.alive()) {
          reason = "the worker exited; see " + worker.log();
        } else {
          long events = stub.describe().getHistoryLength();
          if (events != lastEvents) {
            lastEvents = events;
            lastProgress = System.nanoTime();
          } else if (System.nanoTime() - lastProgress > TimeUnit.MINUTES.toNanos(10)) {
            reason = "no progress for 10 minutes";
          }
        }
        if (reason != null) {
          try {
            stub.terminate("benchmark: " + reason);
          } catch (RuntimeException ignored) {
            // it ended meanwhile
          }
          throw new StuckRun(reason, done);
        }
      }
    }
  }
}
