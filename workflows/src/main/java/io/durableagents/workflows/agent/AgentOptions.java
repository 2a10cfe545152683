package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.api.Observation;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.llm.ToolChoice;
import java.util.List;

/**
 * How an agent reasons: its strategy, model, tool settings and the bounds of its strategy. Immutable;
 * build one with {@link #newBuilder()}, where every default is set (the {@code DEFAULT_*} constants).
 *
 * <pre>{@code
 * AgentOptions options = AgentOptions.newBuilder()
 *     .setStrategy(Strategy.REWOO)
 *     .setModel("openai:gpt-4o-mini")
 *     .setTtl(3)
 *     .build();
 * }</pre>
 *
 * @param strategy the reasoning strategy (default {@link Strategy#COT})
 * @param model the model reference (default {@link #DEFAULT_MODEL}, the offline rule-based policy)
 * @param toolChoice the execution pass's tool choice (default {@link ToolChoice#AUTO}, as Mesa-LLM)
 * @param selectedTools Mesa-LLM's {@code selected_tools}: null means all of the agent's tools, an empty
 *     list means none, names mean only those; a name the agent does not have is an error
 * @param temperature sampling temperature, or null for the provider's default
 * @param maxCorrections how many times the agent may correct tool calls that were rejected (unknown
 *     tool, arguments that don't fit the schema) within one step (default 1)
 * @param maxIterations ReAct: the most Thought/Action/Observation turns before a forced finish (default
 *     {@value #DEFAULT_MAX_ITERATIONS})
 * @param actionFormat ReAct: native function calling (default) or the textual {@code Action:
 *     tool[args]} format
 * @param tokenBudget the most tokens (input plus output) one run may use; the loop ends with a forced
 *     finish when the next call would exceed it. Null: no budget
 * @param maxObservationChars ReAct: an observation longer than this is compressed (head and tail kept,
 *     size noted) before it enters the conversation (default {@value #DEFAULT_MAX_OBSERVATION_CHARS})
 * @param repeatLimit ReAct: the same tool with the same arguments called this many times in a row forces
 *     a finish (default {@value #DEFAULT_REPEAT_LIMIT})
 * @param maxPlanSteps ReWOO: the most steps a plan may have (default {@value #DEFAULT_MAX_PLAN_STEPS})
 * @param replanOnFailure ReWOO: how many times the planner is called again, with the results so far,
 *     when a step failed (default {@value #DEFAULT_REPLAN_ON_FAILURE}; 0 never re-plans)
 * @param ttl ReWOO in simulations: how many simulation steps a plan stays valid; one planned step runs
 *     per simulation step, with no LLM call (default {@value #DEFAULT_TTL})
 * @param onAgentFailure in simulations: what an agent step that fails for good (a rejected plan, an LLM
 *     call that exhausted its retries) does to the run: {@link AgentFailureMode#SKIP} (the default; null
 *     means it, so that old histories read the same) records the step as failed, the agent takes no
 *     action and the run goes on; {@link AgentFailureMode#STOP} ends the run with the failure. The
 *     simulation's {@code agentOptions} decide, not a role's
 * @param approval which tools' calls wait for a person's decision, and for how long ({@link
 *     ApprovalOptions}); null: none but those registered with {@code requiresApproval} on the worker
 * @param maxOutputTokens the maximum output length in tokens of every LLM call the agent's strategy
 *     makes (0: send none); null (the default, left out of JSON): the worker's {@code
 *     DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS} for the model, else the default of the kind of call (a
 *     ReWOO plan, a ReAct turn ...; the table in docs/configuration.md)
 *
 * <p>In JSON (every agent step's input carries its options) a setting at its default is left out, and
 * reads back as the default: {@code {"strategy":"COT","model":"rules"}} is the default CoT agent.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentOptions(
    Strategy strategy,
    String model,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.ToolChoiceAuto.class)
    ToolChoice toolChoice,
    List<String> selectedTools,
    Double temperature,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.MaxCorrections.class)
    Integer maxCorrections,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.MaxIterations.class)
    Integer maxIterations,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.FunctionCalling.class)
    ActionFormat actionFormat,
    Long tokenBudget,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.MaxObservationChars.class)
    Integer maxObservationChars,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.RepeatLimit.class)
    Integer repeatLimit,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.MaxPlanSteps.class)
    Integer maxPlanSteps,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.ReplanOnFailure.class)
    Integer replanOnFailure,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AgentOptionsDefaults.Ttl.class)
    Integer ttl,
    AgentFailureMode onAgentFailure,
    ApprovalOptions approval,
    Integer maxOutputTokens) {

  /** The offline rule-based policy; it needs no network and no key. */
  public static final String DEFAULT_MODEL = "rules";

  public static final int DEFAULT_MAX_CORRECTIONS = 1;
  public static final int DEFAULT_MAX_ITERATIONS = 10;
  public static final int DEFAULT_MAX_OBSERVATION_CHARS = 4000;
  public static final int DEFAULT_REPEAT_LIMIT = 3;
  public static final int DEFAULT_MAX_PLAN_STEPS = 8;
  public static final int DEFAULT_REPLAN_ON_FAILURE = 1;
  public static final int DEFAULT_TTL = 1;

  public AgentOptions {
    strategy = strategy == null ? Strategy.COT : strategy;
    model = model == null || model.isBlank() ? DEFAULT_MODEL : model;
    toolChoice = toolChoice == null ? ToolChoice.AUTO : toolChoice;
    selectedTools = selectedTools == null ? null : List.copyOf(selectedTools);
    maxCorrections = atLeast("maxCorrections", maxCorrections, DEFAULT_MAX_CORRECTIONS, 0);
    maxIterations = atLeast("maxIterations", maxIterations, DEFAULT_MAX_ITERATIONS, 1);
    actionFormat = actionFormat == null ? ActionFormat.FUNCTION_CALLING : actionFormat;
    if (tokenBudget != null && tokenBudget < 1) {
      throw new IllegalArgumentException("tokenBudget must be >= 1 (or unset), was " + tokenBudget);
    }
    maxObservationChars =
        atLeast("maxObservationChars", maxObservationChars, DEFAULT_MAX_OBSERVATION_CHARS, 100);
    repeatLimit = atLeast("repeatLimit", repeatLimit, DEFAULT_REPEAT_LIMIT, 2);
    maxPlanSteps = atLeast("maxPlanSteps", maxPlanSteps, DEFAULT_MAX_PLAN_STEPS, 1);
    replanOnFailure = atLeast("replanOnFailure", replanOnFailure, DEFAULT_REPLAN_ON_FAILURE, 0);
    ttl = atLeast("ttl", ttl, DEFAULT_TTL, 1);
    if (maxOutputTokens != null && maxOutputTokens < 0) {
      throw new IllegalArgumentException("maxOutputTokens must be >= 0 (0: none sent), was " + maxOutputTokens);
    }
  }

  /** The options as they were before a maximum output length could be set. */
  public AgentOptions(Strategy strategy, String model, ToolChoice toolChoice, List<String> selectedTools,
      Double temperature, Integer maxCorrections, Integer maxIterations, ActionFormat actionFormat,
      Long tokenBudget, Integer maxObservationChars, Integer repeatLimit, Integer maxPlanSteps,
      Integer replanOnFailure, Integer ttl, AgentFailureMode onAgentFailure, ApprovalOptions approval) {
    this(strategy, model, toolChoice, selectedTools, temperature, maxCorrections, maxIterations, actionFormat,
        tokenBudget, maxObservationChars, repeatLimit, maxPlanSteps, replanOnFailure, ttl, onAgentFailure, approval,
        null);
  }

  /** The options as they were before approvals: no tool waits by them. */
  public AgentOptions(Strategy strategy, String model, ToolChoice toolChoice, List<String> selectedTools,
      Double temperature, Integer maxCorrections, Integer maxIterations, ActionFormat actionFormat,
      Long tokenBudget, Integer maxObservationChars, Integer repeatLimit, Integer maxPlanSteps,
      Integer replanOnFailure, Integer ttl, AgentFailureMode onAgentFailure) {
    this(strategy, model, toolChoice, selectedTools, temperature, maxCorrections, maxIterations, actionFormat,
        tokenBudget, maxObservationChars, repeatLimit, maxPlanSteps, replanOnFailure, ttl, onAgentFailure, null);
  }

  /** {@link #onAgentFailure()}, or its default {@link AgentFailureMode#SKIP} when unset. */
  public AgentFailureMode agentFailureMode() {
    return onAgentFailure == null ? AgentFailureMode.SKIP : onAgentFailure;
  }

  private static int atLeast(String name, Integer value, int defaultValue, int min) {
    int v = value == null ? defaultValue : value;
    if (v < min) {
      throw new IllegalArgumentException(name + " must be >= " + min + ", was " + v);
    }
    return v;
  }

  /** Options with every default. */
  public static AgentOptions defaults() {
    return newBuilder().build();
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder toBuilder() {
    return new Builder()
        .setStrategy(strategy)
        .setModel(model)
        .setToolChoice(toolChoice)
        .setSelectedTools(selectedTools)
        .setTemperature(temperature)
        .setMaxCorrections(maxCorrections)
        .setMaxIterations(maxIterations)
        .setActionFormat(actionFormat)
        .setTokenBudget(tokenBudget)
        .setMaxObservationChars(maxObservationChars)
        .setRepeatLimit(repeatLimit)
        .setMaxPlanSteps(maxPlanSteps)
        .setReplanOnFailure(replanOnFailure)
        .setTtl(ttl)
        .setOnAgentFailure(onAgentFailure)
        .setApproval(approval)
        .setMaxOutputTokens(maxOutputTokens);
  }

  /** Builds {@link AgentOptions}; unset values take the defaults. */
  public static final class Builder {
    private Strategy strategy;
    private String model;
    private ToolChoice toolChoice;
    private List<String> selectedTools;
    private Double temperature;
    private Integer maxCorrections;
    private Integer maxIterations;
    private ActionFormat actionFormat;
    private Long tokenBudget;
    private Integer maxObservationChars;
    private Integer repeatLimit;
    private Integer maxPlanSteps;
    private Integer replanOnFailure;
    private Integer ttl;
    private AgentFailureMode onAgentFailure;
    private ApprovalOptions approval;
    private Integer maxOutputTokens;

    private Builder() {}

    /**
     * The maximum output length in tokens of every LLM call (0: none sent); null (default): the
     * worker's setting for the model, else the default of the kind of call.
     */
    public Builder setMaxOutputTokens(Integer maxOutputTokens) {
      this.maxOutputTokens = maxOutputTokens;
      return this;
    }

    /** Which tools' calls wait for a person's decision (default: none by these options). */
    public Builder setApproval(ApprovalOptions approval) {
      this.approval = approval;
      return this;
    }

    /** In simulations: skip (default) or stop on an agent step that fails for good. */
    public Builder setOnAgentFailure(AgentFailureMode onAgentFailure) {
      this.onAgentFailure = onAgentFailure;
      return this;
    }

    public Builder setStrategy(Strategy strategy) {
      this.strategy = strategy;
      return this;
    }

    public Builder setModel(String model) {
      this.model = model;
      return this;
    }

    public Builder setToolChoice(ToolChoice toolChoice) {
      this.toolChoice = toolChoice;
      return this;
    }

    public Builder setSelectedTools(List<String> selectedTools) {
      this.selectedTools = selectedTools;
      return this;
    }

    public Builder setTemperature(Double temperature) {
      this.temperature = temperature;
      return this;
    }

    public Builder setMaxCorrections(Integer maxCorrections) {
      this.maxCorrections = maxCorrections;
      return this;
    }

    public Builder setMaxIterations(Integer maxIterations) {
      this.maxIterations = maxIterations;
      return this;
    }

    public Builder setActionFormat(ActionFormat actionFormat) {
      this.actionFormat = actionFormat;
      return this;
    }

    public Builder setTokenBudget(Long tokenBudget) {
      this.tokenBudget = tokenBudget;
      return this;
    }

    public Builder setMaxObservationChars(Integer maxObservationChars) {
      this.maxObservationChars = maxObservationChars;
      return this;
    }

    public Builder setRepeatLimit(Integer repeatLimit) {
      this.repeatLimit = repeatLimit;
      return this;
    }

    public Builder setMaxPlanSteps(Integer maxPlanSteps) {
      this.maxPlanSteps = maxPlanSteps;
      return this;
    }

    public Builder setReplanOnFailure(Integer replanOnFailure) {
      this.replanOnFailure = replanOnFailure;
      return this;
    }

    public Builder setTtl(Integer ttl) {
      this.ttl = ttl;
      return this;
    }

    public AgentOptions build() {
      return new AgentOptions(strategy, model, toolChoice, selectedTools, temperature,
          maxCorrections, maxIterations, actionFormat, tokenBudget, maxObservationChars,
          repeatLimit, maxPlanSteps, replanOnFailure, ttl, onAgentFailure, approval, maxOutputTokens);
    }
  }
}
