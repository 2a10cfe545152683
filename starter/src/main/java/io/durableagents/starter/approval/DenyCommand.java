package io.durableagents.starter.approval;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ToolApprovals;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Denies a tool call that waits for approval (the {@code deny} update): it does not run, and the model reads why. */
@Command(name = "deny",
    description = {"Deny a tool call that waits for approval: it does not run, and the model reads your reason "
        + "as the call's observation.",
        "A call decided already or an unknown call is refused before anything is recorded. "
            + "'approvals <id>' lists the calls."})
public final class DenyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The run's workflow id (a simulation's too).")
  String workflowId;

  @Parameters(index = "1", paramLabel = "CALL", description = "The call, as 'approvals' names it.")
  String call;

  @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why: the model reads it.")
  String reason;

  @Option(names = "--by", paramLabel = "NAME", description = "Who decides, kept with the decision (default: $USER).")
  String reviewer = Environment.get("USER");

  @Override
  public Integer call() {
    if (reason.isBlank()) {
      throw CommandFailure.usage("--reason is empty", "Say why: the model reads it and may try something else.");
    }
    return ApprovalDecisions.send("deny", workflowId, call, ToolApprovals.DENY,
        new ApprovalDecision(call, null, reason, reviewer));
  }
}
