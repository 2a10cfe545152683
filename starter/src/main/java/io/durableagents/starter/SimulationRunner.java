package io.durableagents.starter;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.PrintStream;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Starts a simulation and follows it: a line per completed step, then the result. */
final class SimulationRunner {
  private final WorkflowClient client;
  private final PrintStream out;

  SimulationRunner(WorkflowClient client, PrintStream out) {
    this.client = client;
    this.out = out;
  }

  /** A workflow id for a new run: {@code sim-<scenario>-<seed>-<random>}. */
  static String newId(SimulationInput input) {
    return "sim-" + input.scenario() + "-" + input.seed() + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Starts the run and returns its workflow id. */
  String start(SimulationInput input, String workflowId) {
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.AGENTS)
            .setWorkflowId(workflowId)
            .setStaticSummary(input.scenario() + ", " + input.steps() + " steps, seed " + input.seed()
                + ", " + input.agentOptions().strategy().name().toLowerCase() + " with "
                + input.agentOptions().model())
            .build());
    WorkflowExecution execution = WorkflowClient.start(sim::run, input);
    return execution.getWorkflowId();
  }

  /** Follows a run until it ends, printing each step's counts; returns its result. */
  SimulationResult follow(String workflowId) throws InterruptedException {
    WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
    CompletableFuture<SimulationResult> result = stub.getResultAsync(SimulationResult.class);
    SimulationWorkflow typed = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    int printed = 0;
    boolean header = false;
    while (true) {
      try {
        SimulationResult r = result.get(500, TimeUnit.MILLISECONDS);
        if (!header) {
          printHeader(r.finalCounts());
        }
        for (StepCounts s : r.perStep()) {
          if (s.step() > printed) {
            boolean last = s.step() == r.steps();
            printStep(s.step(), r.steps(), s.counts(), last ? r.llmCalls() : -1,
                last ? r.usage().total() : -1);
          }
        }
        return r;
      } catch (TimeoutException e) {
        SimulationProgress p;
        try {
          p = typed.progress();
        } catch (RuntimeException queryFailed) {
          continue; // no worker has answered yet
        }
        if (p.step() > printed && p.counts() != null && !p.counts().isEmpty()) {
          if (!header) {
            printHeader(p.counts());
            header = true;
          }
          printStep(p.step(), p.totalSteps(), p.counts(), p.llmCalls(), p.usage().total());
          printed = p.step();
        }
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
      }
    }
  }

  private void printHeader(Map<String, Integer> counts) {
    StringBuilder sb = new StringBuilder(String.format("%-9s", "step"));
    for (String key : counts.keySet()) {
      sb.append(String.format("%8s", key));
    }
    sb.append(String.format("%12s%12s", "llm calls", "tokens"));
    out.println(sb);
  }

  private void printStep(int step, int total, Map<String, Integer> counts, long llmCalls, long tokens) {
    StringBuilder sb = new StringBuilder(String.format("%-9s", step + "/" + total));
    for (Integer v : counts.values()) {
      sb.append(String.format("%8d", v));
    }
    if (llmCalls >= 0) {
      sb.append(String.format("%12d%12d", llmCalls, tokens));
    }
    out.println(sb);
    out.flush();
  }

  /** Prints a finished run's summary. */
  void printSummary(SimulationResult r) {
    out.println();
    out.println("Finished " + r.simulationId() + ": " + r.steps() + " steps, seed " + r.seed());
    out.println("Final counts: " + r.finalCounts());
    double perStep = r.agentSteps() == 0 ? 0 : (double) r.llmCalls() / r.agentSteps();
    double tokensPerStep = r.agentSteps() == 0 ? 0 : (double) r.usage().total() / r.agentSteps();
    out.printf("Agent steps: %d, LLM calls: %d (%.2f per agent step), tool calls: %d%n",
        r.agentSteps(), r.llmCalls(), perStep, r.toolCalls());
    out.printf("Tokens: %d in, %d out (%.0f per agent step)%n",
        r.usage().input(), r.usage().output(), tokensPerStep);
  }
}
