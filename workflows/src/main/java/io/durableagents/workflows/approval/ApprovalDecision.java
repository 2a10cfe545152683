package io.durableagents.workflows.approval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A person's decision on a waiting tool call: the argument of the {@code approve}, {@code deny} and
 * {@code edit} updates ({@link ToolApprovals}).
 *
 * @param callId the waiting call, as {@link ToolApproval#callId()} names it
 * @param arguments {@code edit}: the arguments the call runs with instead (a JSON object that fits the
 *     tool's schema); ignored otherwise
 * @param reason why (required by {@code deny}, which the model reads; optional otherwise)
 * @param reviewer who decided, for the record (optional)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalDecision(String callId, JsonNode arguments, String reason, String reviewer) {

  /** Approves {@code callId} as the model asked. */
  public static ApprovalDecision approve(String callId) {
    return new ApprovalDecision(callId, null, null, null);
  }

  /** Denies {@code callId}; the model reads {@code reason}. */
  public static ApprovalDecision deny(String callId, String reason) {
    return new ApprovalDecision(callId, null, reason, null);
  }

  /** Approves {@code callId} with {@code arguments} instead of the model's. */
  public static ApprovalDecision edit(String callId, JsonNode arguments) {
    return new ApprovalDecision(callId, arguments, null, null);
  }
}
