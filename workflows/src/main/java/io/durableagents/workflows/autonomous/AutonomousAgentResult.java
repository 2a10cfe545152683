package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.List;

/**
 * What an autonomous run produced.
 *
 * @param answer the final answer (the last turn's, a {@code finish_task} summary, or, when a guardrail
 *     ended the run, what was said last)
 * @param pattern the reasoning pattern that ran
 * @param status how the agent ended: {@code completed} (it answered, or every todo item became
 *     terminal), {@code blocked} or {@code failed} (its {@code finish_task} said so), or {@code
 *     stopped} when a guardrail ended the run
 * @param endedBy the guardrail that ended the run, or null
 * @param endedReason what the guardrail saw, or null
 * @param iterations the agent's LLM turns (the forced final answer not counted)
 * @param todos the todo list at the end
 * @param thoughts the think tool's chain at the end
 * @param verdicts the reflexion judge's verdicts, one per judged round
 * @param reflectionRounds the reflection rounds that ran
 * @param subAgents every sub-agent spawned, in order
 * @param usage the tokens of this run's own LLM calls
 * @param totalUsage this run's tokens with every sub-agent's, rolled up
 * @param llmCalls this run's own LLM calls
 * @param toolCalls this run's own tool activities (a call denied on approval ran none)
 * @param deniedToolCalls this run's own tool calls that waited for approval and did not run (denied by a
 *     person or a timeout, or cancelled while waiting); omitted from JSON when 0
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AutonomousAgentResult(String answer, String pattern, String status, Guardrail endedBy,
    String endedReason, int iterations, List<TodoItem> todos, List<String> thoughts,
    List<JudgeVerdict> verdicts, int reflectionRounds, List<SubAgentReport> subAgents,
    TokenUsage usage, TokenUsage totalUsage, int llmCalls, int toolCalls,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int deniedToolCalls) {
  public AutonomousAgentResult {
    todos = todos == null ? List.of() : List.copyOf(todos);
    thoughts = thoughts == null ? List.of() : List.copyOf(thoughts);
    verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
    subAgents = subAgents == null ? List.of() : List.copyOf(subAgents);
    usage = usage == null ? TokenUsage.ZERO : usage;
    totalUsage = totalUsage == null ? TokenUsage.ZERO : totalUsage;
  }
}
