package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.durableagents.api.WorldAction;
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
 * @param forcedFinish why the step was ended by force (ReAct's iteration bound, a repeated action, the
 *     token budget), or null when it ended on its own
 * @param planMade true when the step made a new plan (a ReWOO planner call)
 * @param planStepReused true when the step ran a step of a plan made earlier, with no LLM call
 * @param replans how many times the step planned again (a failed step, an invalidated plan)
 * @param warnings what the models said the run's owner should know, such as the offline {@code rules}
 *     model having no policy for the agent's role (empty when none; omitted from JSON then)
 * @param failure why the step failed for good (its failure's type and message: a rejected plan, an LLM
 *     call that exhausted its retries); the agent then took no action. Null (omitted) when it did not fail
 *
 * <p>In JSON a reasoning equal to the plan's text is written once, in the plan ({@link
 * AgentStepResultJson}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonSerialize(using = AgentStepResultJson.Serializer.class)
@JsonDeserialize(using = AgentStepResultJson.Deserializer.class)
public record AgentStepResult(
    String agentId,
    int step,
    String reasoning,
    List<WorldAction> actions,
    List<ToolOutcome> toolOutcomes,
    Plan plan,
    TokenUsage usage,
    int llmCalls,
    int toolCalls,
    String forcedFinish,
    boolean planMade,
    boolean planStepReused,
    int replans,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
    @JsonInclude(JsonInclude.Include.NON_NULL) String failure) {

  public AgentStepResult {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    actions = actions == null ? List.of() : List.copyOf(actions);
    toolOutcomes = toolOutcomes == null ? List.of() : List.copyOf(toolOutcomes);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }

  /** A result that did not fail. */
  public AgentStepResult(String agentId, int step, String reasoning, List<WorldAction> actions,
      List<ToolOutcome> toolOutcomes, Plan plan, TokenUsage usage, int llmCalls, int toolCalls,
      String forcedFinish, boolean planMade, boolean planStepReused, int replans, List<String> warnings) {
    this(agentId, step, reasoning, actions, toolOutcomes, plan, usage, llmCalls, toolCalls,
        forcedFinish, planMade, planStepReused, replans, warnings, null);
  }

  /**
   * The result of a step that failed for good: no action, the held plan kept ({@code plan}), and why.
   */
  public static AgentStepResult failed(String agentId, int step, Plan plan, String failure) {
    return failed(agentId, step, plan, failure, TokenUsage.ZERO, 0, 0);
  }

  /**
   * The result of a step that failed for good after it made {@code llmCalls} LLM calls that completed
   * (paid for, with {@code usage}) and started {@code toolCalls} tool calls: they count in the run's
   * totals like those of any other step.
   */
  public static AgentStepResult failed(String agentId, int step, Plan plan, String failure, TokenUsage usage,
      int llmCalls, int toolCalls) {
    return new AgentStepResult(agentId, step, "the step failed: " + failure, List.of(), List.of(), plan,
        usage, llmCalls, toolCalls, null, false, false, 0, null, failure);
  }

  /** True when the step failed for good (see {@link #failure()}). */
  public boolean failedForGood() {
    return failure != null;
  }

  /** The result as the strategies build it, with no warnings. */
  public AgentStepResult(String agentId, int step, String reasoning, List<WorldAction> actions,
      List<ToolOutcome> toolOutcomes, Plan plan, TokenUsage usage, int llmCalls, int toolCalls,
      String forcedFinish, boolean planMade, boolean planStepReused, int replans) {
    this(agentId, step, reasoning, actions, toolOutcomes, plan, usage, llmCalls, toolCalls,
        forcedFinish, planMade, planStepReused, replans, null);
  }

  /** This result with {@code warnings}. */
  public AgentStepResult withWarnings(List<String> warnings) {
    return new AgentStepResult(agentId, step, reasoning, actions, toolOutcomes, plan, usage, llmCalls,
        toolCalls, forcedFinish, planMade, planStepReused, replans, warnings, failure);
  }

  /** A result that was not forced and involved no ReWOO plan. */
  public AgentStepResult(String agentId, int step, String reasoning, List<WorldAction> actions,
      List<ToolOutcome> toolOutcomes, Plan plan, TokenUsage usage, int llmCalls, int toolCalls) {
    this(agentId, step, reasoning, actions, toolOutcomes, plan, usage, llmCalls, toolCalls, null,
        false, false, 0);
  }
}
