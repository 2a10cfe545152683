package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.rewoo.ReWooStepResult;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.List;

/**
 * What an agent made of a task.
 *
 * @param answer the final answer
 * @param strategy the strategy that produced it ({@code cot}, {@code react}, {@code rewoo})
 * @param forcedFinish why the run was ended by force (the iteration bound, a repeated action, the token
 *     budget), or null when the agent finished on its own
 * @param turns the Thought/Action/Observation turns, in order (ReAct and CoT)
 * @param plan the last plan (ReWOO), or null
 * @param stepResults the result of every plan step that ran or was skipped, in plan order (ReWOO)
 * @param replans how many times the planner was called again (ReWOO)
 * @param usage tokens used by the run's LLM calls
 * @param llmCalls how many LLM calls it made
 * @param toolCalls how many tool activities it ran (a call denied on approval ran none)
 * @param warnings what the models said the run's owner should know (an empty or cut answer, a rules
 *     model with no policy for the role); empty when none, omitted from JSON then
 * @param answerProblem null when the answer is complete; {@link #EMPTY} when the final answer is empty,
 *     {@link #CUT} when it was cut at an output limit (the model's or the worker's). A caller treats
 *     either as a failed task (the command line exits non-zero)
 * @param deniedToolCalls how many tool calls waited for approval and did not run (denied by a person or
 *     a timeout, or cancelled while waiting); not among {@code toolCalls}; omitted from JSON when 0
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentTaskResult(
    String answer,
    String strategy,
    String forcedFinish,
    List<AgentTurn> turns,
    Plan plan,
    List<ReWooStepResult> stepResults,
    int replans,
    TokenUsage usage,
    int llmCalls,
    int toolCalls,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
    @JsonInclude(JsonInclude.Include.NON_NULL) String answerProblem,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int deniedToolCalls) {
  /** {@link #answerProblem()}: the final answer is empty. */
  public static final String EMPTY = "empty";
  /** {@link #answerProblem()}: the final answer was cut at an output limit. */
  public static final String CUT = "cut";

  public AgentTaskResult {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    turns = turns == null ? List.of() : List.copyOf(turns);
    stepResults = stepResults == null ? List.of() : List.copyOf(stepResults);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }

  /** A result as the strategies build it: no warnings, the answer not checked yet. */
  public AgentTaskResult(String answer, String strategy, String forcedFinish, List<AgentTurn> turns,
      Plan plan, List<ReWooStepResult> stepResults, int replans, TokenUsage usage, int llmCalls,
      int toolCalls) {
    this(answer, strategy, forcedFinish, turns, plan, stepResults, replans, usage, llmCalls, toolCalls,
        null, null, 0);
  }

  /** This result with {@code warnings} and {@code answerProblem}. */
  public AgentTaskResult withOutcome(List<String> warnings, String answerProblem) {
    return new AgentTaskResult(answer, strategy, forcedFinish, turns, plan, stepResults, replans, usage,
        llmCalls, toolCalls, warnings, answerProblem, deniedToolCalls);
  }

  /** This result with {@code deniedToolCalls}. */
  public AgentTaskResult withDeniedToolCalls(int deniedToolCalls) {
    return new AgentTaskResult(answer, strategy, forcedFinish, turns, plan, stepResults, replans, usage,
        llmCalls, toolCalls, warnings, answerProblem, deniedToolCalls);
  }

  /** True when the answer is complete (not empty, not cut). */
  public boolean answered() {
    return answerProblem == null;
  }

  /** True when the run was ended by force rather than by the agent. */
  public boolean forced() {
    return forcedFinish != null;
  }

  /**
   * One turn of an agent: what it thought, the tool calls it made and what it observed.
   *
   * @param iteration 1, 2, ...
   * @param thought the model's text for the turn (may be null)
   * @param outcomes the tool calls of the turn and their observations (outputs or errors)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record AgentTurn(int iteration, String thought, List<ToolOutcome> outcomes) {
    public AgentTurn {
      outcomes = outcomes == null ? List.of() : List.copyOf(outcomes);
    }
  }
}
