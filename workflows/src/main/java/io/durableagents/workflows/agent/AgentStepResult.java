package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.List;

/**
 * The output of one agent step.
 *
 * @param agentId the agent
 * @param step the simulation step
 * @param reasoning the reasoning text the model produced
 * @param actions the world actions it chose, for the simulation to apply
 * @param toolOutcomes external tool outputs and rejected calls
 * @param plan the plan state after this step
 * @param usage tokens used by this step's LLM calls
 * @param llmCalls how many LLM calls the step made
 * @param toolCalls how many external tool activities it ran
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentStepResult(
    String agentId,
    int step,
    String reasoning,
    List<WorldAction> actions,
    List<ToolOutcome> toolOutcomes,
    Plan plan,
    TokenUsage usage,
    int llmCalls,
    int toolCalls) {

  public AgentStepResult {
    actions = actions == null ? List.of() : List.copyOf(actions);
    toolOutcomes = toolOutcomes == null ? List.of() : List.copyOf(toolOutcomes);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }
}
