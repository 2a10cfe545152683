package io.durableagents.workflows.approval;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import java.util.List;

/**
 * The updates and the query by which people decide tool calls that wait for approval. Every workflow
 * that runs tools answers them ({@code AgentTask}, {@code AgentStep}, {@code AgentGroupStep}, {@code
 * AutonomousAgent}): the decision goes to the workflow that runs the call, whose validators refuse, before
 * anything reaches its history, an unknown call id, a call decided already, a {@code deny} without a
 * reason, and {@code edit} arguments that do not fit the tool's schema. From a client, with an untyped
 * stub:
 *
 * <pre>{@code
 * WorkflowStub run = client.newUntypedWorkflowStub("agent-7");
 * List<ToolApproval> waiting = run.query(ToolApprovals.QUERY, List.class);
 * run.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
 * run.update(ToolApprovals.DENY, ApprovalResult.class, ApprovalDecision.deny("2", "not this account"));
 * }</pre>
 */
public interface ToolApprovals {
  /** The query's name. */
  String QUERY = "approvals";
  /** The update that approves a call as the model asked. */
  String APPROVE = "approve";
  /** The update that denies a call, with a reason the model reads. */
  String DENY = "deny";
  /** The update that approves a call with other arguments. */
  String EDIT = "edit";

  /** Every call that waited for approval in this workflow, waiting or decided, in order. */
  @QueryMethod(name = QUERY)
  List<ToolApproval> approvals();

  @UpdateMethod(name = APPROVE)
  ApprovalResult approve(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = APPROVE)
  void validateApprove(ApprovalDecision decision);

  @UpdateMethod(name = DENY)
  ApprovalResult deny(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = DENY)
  void validateDeny(ApprovalDecision decision);

  @UpdateMethod(name = EDIT)
  ApprovalResult edit(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = EDIT)
  void validateEdit(ApprovalDecision decision);
}
