package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.approval.ApprovalOptions;
import java.util.List;

/**
 * An autonomous agent as its YAML spec describes it, parsed and validated by the starter's loader
 * ({@code AgentSpecLoader} in the activities module) and passed to {@link AutonomousAgentWorkflow} as
 * its input: no file path (sub-agents' role files are read by the loader and inlined) and no secret
 * (the model is a reference such as {@code openai:gpt-4o-mini}; keys stay with the worker).
 *
 * <pre>{@code
 * AgentSpec spec = new AgentSpec("planner", null, "You plan carefully.", "rules", null,
 *     new AgentSpec.Think(true, 50), new AgentSpec.Todo(30), null, List.of("calculator"),
 *     AgentSpec.Reasoning.of(ReasoningPattern.TODO_DRIVEN), AgentSpec.Guardrails.DEFAULTS);
 * }</pre>
 *
 * @param name the agent's name ({@code metadata.name})
 * @param description what it is for, or null
 * @param role its role, the start of its system prompt
 * @param model the model reference ({@code rules}, {@code openai:gpt-4o-mini}, ...)
 * @param temperature the sampling temperature, or null for the provider's default
 * @param think the think tool, or null when the agent has none
 * @param todo the todo tool, or null when the agent has none
 * @param spawn the spawn tool, or null when the agent has none
 * @param tools its external tools, by name ({@code calculator}, {@code read_file})
 * @param reasoning the pattern (auto-detection already applied) and its settings
 * @param guardrails the limits of a run
 * @param approval the tools whose calls wait for a person's decision ({@code requires_approval}), the
 *     {@code approval_timeout} and its default decision; null: none
 * @param maxOutputTokens the maximum output length in tokens of the agent's turns ({@code
 *     spec.model.max_output_tokens}, 0: send none); null (omitted): the worker's {@code
 *     DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS}, else the default of the kind of call
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentSpec(String name, String description, String role, String model, Double temperature,
    Think think, Todo todo, Spawn spawn, List<String> tools, Reasoning reasoning,
    Guardrails guardrails, ApprovalOptions approval,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxOutputTokens) {

  /** A spec with no maximum output length of its own. */
  public AgentSpec(String name, String description, String role, String model, Double temperature,
      Think think, Todo todo, Spawn spawn, List<String> tools, Reasoning reasoning, Guardrails guardrails,
      ApprovalOptions approval) {
    this(name, description, role, model, temperature, think, todo, spawn, tools, reasoning, guardrails, approval,
        null);
  }

  /** A spec without approvals. */
  public AgentSpec(String name, String description, String role, String model, Double temperature,
      Think think, Todo todo, Spawn spawn, List<String> tools, Reasoning reasoning, Guardrails guardrails) {
    this(name, description, role, model, temperature, think, todo, spawn, tools, reasoning, guardrails, null);
  }

  /** This spec with {@code approval}. */
  public AgentSpec withApproval(ApprovalOptions approval) {
    return new AgentSpec(name, description, role, model, temperature, think, todo, spawn, tools, reasoning,
        guardrails, approval, maxOutputTokens);
  }

  /** This spec with {@code model} (a model reference). */
  public AgentSpec withModel(String model) {
    return new AgentSpec(name, description, role, model, temperature, think, todo, spawn, tools, reasoning,
        guardrails, approval, maxOutputTokens);
  }

  /** This spec with {@code spawn}. */
  public AgentSpec withSpawn(Spawn spawn) {
    return new AgentSpec(name, description, role, model, temperature, think, todo, spawn, tools, reasoning,
        guardrails, approval, maxOutputTokens);
  }

  /** This spec with the maximum output length of its turns ({@code null}: the worker decides). */
  public AgentSpec withMaxOutputTokens(Integer maxOutputTokens) {
    return new AgentSpec(name, description, role, model, temperature, think, todo, spawn, tools, reasoning,
        guardrails, approval, maxOutputTokens);
  }

  public AgentSpec {
    tools = tools == null ? List.of() : List.copyOf(tools);
    reasoning = reasoning == null ? Reasoning.of(ReasoningPattern.REACT) : reasoning;
    guardrails = guardrails == null ? Guardrails.DEFAULTS : guardrails;
    model = model == null || model.isBlank() ? "rules" : model;
  }

  /**
   * The think tool.
   *
   * @param critique nudge a self-critique every 5th thought
   * @param maxThoughts the ring buffer's capacity (1-200, default 50)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Think(boolean critique, int maxThoughts) {
    public static final int DEFAULT_MAX_THOUGHTS = 50;
  }

  /**
   * The todo tool.
   *
   * @param maxItems the most items the list holds (1-100, default 30)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Todo(int maxItems) {}

  /**
   * The spawn tool: sub-agents run as child workflows.
   *
   * @param maxConcurrent the most sub-agents running at once (1-16, default 4)
   * @param maxDepth the deepest nesting of spawns, counted from the root run (default 3)
   * @param timeoutSeconds each sub-agent's wall-clock limit (default 300)
   * @param agents the sub-agents it may spawn
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Spawn(int maxConcurrent, int maxDepth, int timeoutSeconds, List<SubAgent> agents) {
    public static final int DEFAULT_MAX_CONCURRENT = 4;
    public static final int DEFAULT_MAX_DEPTH = 3;
    public static final int DEFAULT_TIMEOUT_SECONDS = 300;

    public Spawn {
      agents = agents == null ? List.of() : List.copyOf(agents);
    }
  }

  /**
   * A sub-agent the spawn tool may start.
   *
   * @param name the name the agent spawns it by
   * @param description what it is good at, shown to the agent
   * @param spec its own spec (read from its role file by the loader)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SubAgent(String name, String description, AgentSpec spec) {}

  /**
   * A reflexion dimension: a round's focus.
   *
   * @param name e.g. {@code correctness}
   * @param prompt what the round checks
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Dimension(String name, String prompt) {}

  /**
   * The reasoning pattern and its settings.
   *
   * @param pattern the pattern, auto-detection applied
   * @param autoPlan prepend "create a todo list" to the first turn
   * @param reflectionRounds reflexion: the critique rounds after completion (0-3)
   * @param dimensions reflexion: the dimension of each round (default correctness, completeness,
   *     clarity)
   * @param successCriteria reflexion: what the LLM judge checks each round; empty: no judge
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Reasoning(ReasoningPattern pattern, boolean autoPlan, int reflectionRounds,
      List<Dimension> dimensions, List<String> successCriteria) {
    /** The default dimensions, as InitRunner's. */
    public static final List<Dimension> DEFAULT_DIMENSIONS = List.of(
        new Dimension("correctness", "Check for factual errors, logical flaws, or incorrect assumptions."),
        new Dimension("completeness", "Are there missing sections, gaps in coverage, or unanswered questions?"),
        new Dimension("clarity", "Is the structure logical and easy to follow? Is the language clear?"));

    public Reasoning {
      pattern = pattern == null ? ReasoningPattern.REACT : pattern;
      dimensions = dimensions == null || dimensions.isEmpty() ? DEFAULT_DIMENSIONS : List.copyOf(dimensions);
      successCriteria = successCriteria == null ? List.of() : List.copyOf(successCriteria);
    }

    /** The pattern with every other setting at its default. */
    public static Reasoning of(ReasoningPattern pattern) {
      return new Reasoning(pattern, false, 0, null, null);
    }
  }

  /**
   * The limits of one run; each ends it cleanly, with what was done so far.
   *
   * @param maxIterations the most LLM turns of the agent over the whole run (default 10); a run that
   *     reaches it gets one more call, with tools off, for its final answer
   * @param tokenBudget the most tokens (input plus output, sub-agents included), or null for none
   * @param timeoutSeconds the wall-clock limit of the run, or null for none
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Guardrails(int maxIterations, Long tokenBudget, Integer timeoutSeconds) {
    public static final int DEFAULT_MAX_ITERATIONS = 10;
    public static final Guardrails DEFAULTS = new Guardrails(DEFAULT_MAX_ITERATIONS, null, null);
  }
}
