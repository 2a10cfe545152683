package io.durableagents.workflows.approval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool call that waits, or waited, for a person's decision, as the {@code approvals} query shows it.
 *
 * @param callId the call's id in its workflow ({@code 1}, {@code 2}, ...), what {@code approve <id>
 *     <call>} names
 * @param workflowId the workflow that runs the call (and takes the decision)
 * @param agentId the agent that asked for it
 * @param step the agent's step (a simulation step; the turn of an autonomous agent; 0 for a task)
 * @param tool the tool
 * @param toolCallId the model's own id of the call
 * @param arguments the model's arguments
 * @param waitingSince when it started waiting (ISO-8601, workflow time)
 * @param timeoutAt when its timeout decides it (ISO-8601), or null when it waits as long as it takes
 * @param onTimeout what the timeout decides ({@code approve}, {@code deny}), or null with no timeout
 * @param outcome null while it waits; how it was decided after
 * @param reason the reason given with the decision, or null
 * @param editedArguments the arguments it ran with instead of the model's ({@code edit}), or null
 * @param reviewer who decided, when they said
 * @param decidedAt when it was decided (ISO-8601), or null while it waits
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolApproval(String callId, String workflowId, String agentId, int step, String tool,
    String toolCallId, JsonNode arguments, String waitingSince, String timeoutAt, String onTimeout,
    ApprovalOutcome outcome, String reason, JsonNode editedArguments, String reviewer, String decidedAt) {

  /** Whether it still waits for a decision. */
  public boolean pending() {
    return outcome == null;
  }
}
