package io.durableagents.workflows.approval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What an {@code approve}, {@code deny} or {@code edit} update answers: the decision as recorded. The
 * call itself runs (or not) after the update returns.
 *
 * @param callId the call decided
 * @param tool its tool
 * @param outcome the decision
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApprovalResult(String callId, String tool, ApprovalOutcome outcome) {}
