package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.approval.ToolApproval;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Lists the tool calls that wait for a person's decision under a workflow id (the {@code approvals} query). */
@Command(name = "approvals",
    description = {"List the tool calls that wait for approval in a run: an agent task, an autonomous agent "
        + "(with its running sub-agents) or a simulation (its running agent steps).",
        "Each line names the call as approve and deny take it, the tool, the agent, the step, how long it "
            + "has waited, its timeout and the model's arguments."})
final class ApprovalsCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "WORKFLOW_ID", description = "The run's workflow id; "
      + "without one, every running workflow whose AwaitingApproval search attribute is true.")
  String workflowId;

  @Option(names = "--all", description = "Also list the calls decided already, with their outcome.")
  boolean all;

  @Option(names = "--json", description = "Print the calls as JSON.")
  boolean json;

  @Override
  public Integer call() {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      if (workflowId == null) {
        return everywhere(client, service, connection);
      }
      List<ApprovalTargets.Named> calls;
      try {
        calls = ApprovalTargets.list(client, workflowId, all);
      } catch (RuntimeException e) {
        if (String.valueOf(SimulationControl.rootMessage(e)).contains("DEADLINE_EXCEEDED")) {
          throw new CommandFailure(Failures.UNAVAILABLE, "no worker answered the approvals query of '" + workflowId
              + "' on " + connection.address(), "A worker answers queries, even for a run that has ended: start one "
              + "('worker').");
        }
        throw Failures.about("'" + workflowId + "' on " + connection.address(), e);
      }
      if (json) {
        System.out.println(SimulationControl.json(calls));
        return 0;
      }
      if (calls.isEmpty()) {
        System.out.println(all ? "No tool call of '" + workflowId + "' has waited for approval."
            : "No tool call of '" + workflowId + "' waits for approval.");
        return 0;
      }
      System.out.printf("%-28s %-16s %-14s %-5s %-22s %-24s %s%n", "call", "tool", "agent", "step", "waiting",
          all ? "outcome" : "on timeout", "arguments");
      Instant now = Instant.now();
      for (ApprovalTargets.Named n : calls) {
        ToolApproval a = n.approval();
        String waited = Instant.parse(a.waitingSince()).toString().replaceFirst("\\.\\d+Z$", "Z");
        if (a.pending()) {
          waited = format(Duration.between(Instant.parse(a.waitingSince()), now));
        }
        String timeout = a.timeoutAt() == null ? "none" : a.onTimeout() + " at " + a.timeoutAt();
        String last = a.pending() ? timeout : a.outcome().label() + (a.reason() == null ? "" : ": " + a.reason());
        System.out.printf("%-28s %-16s %-14s %-5d %-22s %-24s %s%n", n.name(), a.tool(), a.agentId(), a.step(),
            waited, last, a.editedArguments() != null ? a.editedArguments() + " (edited)" : a.arguments());
      }
      if (!all) {
        System.out.println();
        System.out.println("approve " + workflowId + " <call> [--args JSON]  |  deny " + workflowId
            + " <call> --reason TEXT");
      }
      return 0;
    } finally {
      service.shutdown();
    }
  }

  /** Every running workflow marked {@code AwaitingApproval = true}, and its waiting calls. */
  private int everywhere(WorkflowClient client, WorkflowServiceStubs service, TemporalConnection connection) {
    List<String> marked;
    try {
      marked = ApprovalTargets.awaiting(service, connection.namespace());
    } catch (RuntimeException e) {
      throw Failures.about("the runs awaiting approval on " + connection.address(), e);
    }
    int shown = 0;
    for (String id : marked) {
      List<ApprovalTargets.Named> calls;
      try {
        calls = ApprovalTargets.list(client, id, false);
      } catch (RuntimeException ended) {
        continue; // decided or ended since the listing
      }
      for (ApprovalTargets.Named n : calls) {
        ToolApproval a = n.approval();
        if (shown++ == 0) {
          System.out.printf("%-44s %-6s %-16s %-14s %-22s %s%n", "workflow", "call", "tool", "agent", "waiting",
              "arguments");
        }
        System.out.printf("%-44s %-6s %-16s %-14s %-22s %s%n", id, n.name(), a.tool(), a.agentId(),
            format(Duration.between(Instant.parse(a.waitingSince()), Instant.now())), a.arguments());
      }
    }
    if (shown == 0) {
      System.out.println("No running workflow has AwaitingApproval = true (it is set where the namespace has it "
          + "registered; 'approvals <id>' asks a run directly).");
    }
    return 0;
  }

  private static String format(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return (s / 60) + " min " + (s % 60) + " s";
    }
    return (s / 3600) + " h " + (s % 3600 / 60) + " min";
  }
}
