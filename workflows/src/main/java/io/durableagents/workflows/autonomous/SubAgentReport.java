package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.List;

/**
 * A sub-agent as its parent saw it: spawned, then completed, failed, timed out or cancelled.
 *
 * @param taskId the parent's id for it ({@code task-1}); its child workflow id is the parent's id
 *     followed by {@code /task-1}
 * @param agent the sub-agent's name in the spec
 * @param prompt what it was asked
 * @param status running, completed, failed, timeout or cancelled
 * @param answer its answer, or why it failed
 * @param usage the tokens of its own LLM calls
 * @param totalUsage its tokens with those of its own sub-agents, rolled up
 * @param subAgents its own sub-agents
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SubAgentReport(String taskId, String agent, String prompt, String status, String answer,
    TokenUsage usage, TokenUsage totalUsage, List<SubAgentReport> subAgents) {
  public SubAgentReport {
    usage = usage == null ? TokenUsage.ZERO : usage;
    totalUsage = totalUsage == null ? TokenUsage.ZERO : totalUsage;
    subAgents = subAgents == null ? List.of() : List.copyOf(subAgents);
  }
}
