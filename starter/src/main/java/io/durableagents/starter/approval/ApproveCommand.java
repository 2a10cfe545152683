package io.durableagents.starter.approval;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ToolApprovals;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Approves a tool call that waits, as the model asked or with other arguments (the {@code approve}/{@code edit} updates). */
@Command(name = "approve",
    description = {"Approve a tool call that waits for approval: it runs, with the model's arguments or, with "
        + "--args, with yours (the model reads that they were changed).",
        "A call decided already, an unknown call or arguments that do not fit the tool's schema are refused "
            + "before anything is recorded. 'approvals <id>' lists the calls."})
public final class ApproveCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The run's workflow id (a simulation's too).")
  String workflowId;

  @Parameters(index = "1", paramLabel = "CALL", description = "The call, as 'approvals' names it (e.g. 1, or "
      + "agent-citizen-3/step-5/1 in a simulation).")
  String call;

  @Option(names = "--args", paramLabel = "JSON", description = "Run the call with these arguments instead "
      + "(a JSON object that fits the tool's schema): the edit update.")
  String args;

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why, kept with the decision (the model reads it with --args).")
  String reason;

  @Option(names = "--by", paramLabel = "NAME", description = "Who decides, kept with the decision (default: $USER).")
  String reviewer = Environment.get("USER");

  @Override
  public Integer call() {
    if (args == null) {
      return ApprovalDecisions.send("approve", workflowId, call, ToolApprovals.APPROVE,
          new ApprovalDecision(call, null, reason, reviewer));
    }
    JsonNode arguments = Json.tryParse(args);
    if (arguments == null || !arguments.isObject()) {
      throw CommandFailure.usage("--args is not a JSON object: " + args,
          "Give the arguments as the tool takes them, e.g. --args '{\"account\":\"DE-1\",\"amount\":100}'.");
    }
    return ApprovalDecisions.send("approve", workflowId, call, ToolApprovals.EDIT,
        new ApprovalDecision(call, arguments, reason, reviewer));
  }
}
