package io.durableagents.starter;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.PrintStream;
import java.util.List;
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
                + ", " + strategies(input) + " with "
                + input.agentOptions().model())
            .build());
    WorkflowExecution execution = WorkflowClient.start(sim::run, input);
    return execution.getWorkflowId();
  }

  /** The strategies of a run: {@code rewoo}, or per role {@code citizen=rewoo, cop=cot}. */
  static String strategies(SimulationInput input) {
    if (input.roleOptions().isEmpty()) {
      return input.agentOptions().strategy().label();
    }
    java.util.TreeMap<String, String> byRole = new java.util.TreeMap<>();
    input.roleOptions().forEach((role, o) -> byRole.put(role, o.strategy().label()));
    StringBuilder sb = new StringBuilder();
    byRole.forEach((role, s) -> sb.append(sb.length() == 0 ? "" : ", ").append(role).append('=').append(s));
    return sb.toString();
  }

  /** Follows a run until it ends, printing each step's counts; returns its result. */
  SimulationResult follow(String workflowId) throws InterruptedException {
    WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
    CompletableFuture<SimulationResult> result = stub.getResultAsync(SimulationResult.class);
    SimulationWorkflow typed = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    int printed = 0;
    int totalSteps = -1;
    boolean header = false;
    while (true) {
      SimulationResult done = null;
      List<StepCounts> steps;
      try {
        done = result.get(500, TimeUnit.MILLISECONDS);
        steps = done.perStep();
      } catch (TimeoutException e) {
        try {
          if (totalSteps < 0) {
            totalSteps = typed.progress().totalSteps();
          }
          steps = typed.stepsAfter(printed);
        } catch (RuntimeException queryFailed) {
          continue; // no worker has answered yet
        }
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
      }
      int total = done != null ? done.steps() : totalSteps;
      for (StepCounts s : steps) {
        if (s.step() <= printed) {
          continue;
        }
        if (!header) {
          printHeader(s.counts());
          header = true;
        }
        printStep(s, total);
        printed = s.step();
      }
      if (done != null) {
        return done;
      }
    }
  }

  private void printHeader(Map<String, Integer> counts) {
    StringBuilder sb = new StringBuilder(String.format("%-9s", "step"));
    for (String key : counts.keySet()) {
      sb.append(String.format("%" + columnWidth(key) + "s", key));
    }
    sb.append(String.format("%12s%12s", "llm calls", "tokens"));
    out.println(sb);
  }

  /** A count's column: 8 wide, or its name's length + 2 for longer names ({@code sales_seller-0}). */
  private static int columnWidth(String name) {
    return Math.max(8, name.length() + 2);
  }

  private void printStep(StepCounts s, int total) {
    StringBuilder sb = new StringBuilder(String.format("%-9s", total > 0 ? s.step() + "/" + total : s.step()));
    for (Map.Entry<String, Integer> v : s.counts().entrySet()) {
      sb.append(String.format("%" + columnWidth(v.getKey()) + "d", v.getValue()));
    }
    if (s.llmCalls() != null) {
      sb.append(String.format("%12d%12d", s.llmCalls(), s.tokens()));
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
    if (r.planCounts().plansMade() > 0 || r.planCounts().forcedFinishes() > 0) {
      out.printf("Plans: %d made, %d agent steps served from a plan with no LLM call, %d re-plans, "
          + "%d forced finishes%n", r.planCounts().plansMade(), r.planCounts().planStepsReused(),
          r.planCounts().replans(), r.planCounts().forcedFinishes());
    }
  }
}
