package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.llm.ToolChoice;
import java.util.List;

/**
 * How an agent reasons: its strategy, model and tool settings. Immutable; build one with {@link
 * #newBuilder()}, where every default is set.
 *
 * <pre>{@code
 * AgentOptions options = AgentOptions.newBuilder()
 *     .setModel("openai:gpt-4o-mini")
 *     .setToolChoice(ToolChoice.REQUIRED)
 *     .setSelectedTools(List.of("move_one_step"))
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
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentOptions(
    Strategy strategy,
    String model,
    ToolChoice toolChoice,
    List<String> selectedTools,
    Double temperature,
    Integer maxCorrections) {

  /** The offline rule-based policy; it needs no network and no key. */
  public static final String DEFAULT_MODEL = "rules";

  public static final int DEFAULT_MAX_CORRECTIONS = 1;

  public AgentOptions {
    strategy = strategy == null ? Strategy.COT : strategy;
    model = model == null || model.isBlank() ? DEFAULT_MODEL : model;
    toolChoice = toolChoice == null ? ToolChoice.AUTO : toolChoice;
    selectedTools = selectedTools == null ? null : List.copyOf(selectedTools);
    maxCorrections = maxCorrections == null ? DEFAULT_MAX_CORRECTIONS : maxCorrections;
    if (maxCorrections < 0) {
      throw new IllegalArgumentException("maxCorrections must be >= 0, was " + maxCorrections);
    }
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
        .setMaxCorrections(maxCorrections);
  }

  /** Builds {@link AgentOptions}. */
  public static final class Builder {
    private Strategy strategy;
    private String model;
    private ToolChoice toolChoice;
    private List<String> selectedTools;
    private Double temperature;
    private Integer maxCorrections;

    private Builder() {}

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

    public AgentOptions build() {
      return new AgentOptions(
          strategy, model, toolChoice, selectedTools, temperature, maxCorrections);
    }
  }
}
