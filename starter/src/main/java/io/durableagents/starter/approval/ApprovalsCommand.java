package io.durableagents.starter.approval;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.TemporalCheck;
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
public final class ApprovalsCommand implements Callable<Integer> {
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
      table(calls, all, Instant.now()).forEach(System.out::println);
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
    TextTable table = new TextTable("workflow", "call", "tool", "agent", "waiting", "arguments");
    Instant now = Instant.now();
    for (String id : marked) {
      List<ApprovalTargets.Named> calls;
      try {
        calls = ApprovalTargets.list(client, id, false);
      } catch (RuntimeException ended) {
        continue; // decided or ended since the listing
      }
      for (ApprovalTargets.Named n : calls) {
        ToolApproval a = n.approval();
        table.row(id, n.name(), a.tool(), a.agentId(), format(Duration.between(Instant.parse(a.waitingSince()), now)),
            a.arguments());
      }
    }
    table.lines().forEach(System.out::println);
    if (table.isEmpty()) {
      System.out.println("No running workflow has AwaitingApproval = true (it is set where the namespace has it "
          + "registered; 'approvals <id>' asks a run directly).");
    }
    return 0;
  }

  /**
   * The lines of the calls of one workflow: waiting ones with how long they have waited and what their
   * timeout will decide; with {@code all}, decided ones too, with how long they waited and their outcome.
   * The arguments come last, the columns before them as wide as their widest cell.
   */
  static List<String> table(List<ApprovalTargets.Named> calls, boolean all, Instant now) {
    TextTable table = new TextTable("call", "tool", "agent", "step", all ? "waited" : "waiting",
        all ? "outcome" : "on timeout", "arguments");
    for (ApprovalTargets.Named n : calls) {
      ToolApproval a = n.approval();
      Instant since = Instant.parse(a.waitingSince());
      Instant until = a.pending() || a.decidedAt() == null ? now : Instant.parse(a.decidedAt());
      String timeout = a.timeoutAt() == null ? "none" : a.onTimeout() + " at " + a.timeoutAt();
      String outcome;
      if (!a.pending()) {
        outcome = a.outcome().label() + (a.reason() == null ? "" : ": " + a.reason());
      } else if (!all) {
        outcome = timeout;
      } else {
        outcome = a.timeoutAt() == null ? "waiting" : "waiting (then " + timeout + ")";
      }
      table.row(n.name(), a.tool(), a.agentId(), a.step(), format(Duration.between(since, until)), outcome,
          a.editedArguments() != null ? a.editedArguments() + " (edited)" : a.arguments());
    }
    return table.lines();
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
