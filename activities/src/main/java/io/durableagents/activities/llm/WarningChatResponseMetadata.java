package io.durableagents.activities.llm;

import dev.langchain4j.model.chat.response.ChatResponseMetadata;
import java.util.List;

/**
 * Response metadata with warnings for the run's owner: a model (such as the offline {@code rules}
 * model) attaches it to say something the run's result should carry, such as "no rule policy for role
 * 'trader'". The LLM activity copies the warnings into {@code LlmResponse.warnings}; simulations gather
 * them, each once, into {@code SimulationResult.warnings}. Warnings are short, hold no prompt and no
 * secret, and are the same for the same request (they land in history).
 *
 * <pre>{@code
 * ChatResponse.builder().aiMessage(answer)
 *     .metadata(WarningChatResponseMetadata.builder().modelName("mine")
 *         .warnings(List.of("no rule for role 'trader'")).build())
 *     .build();
 * }</pre>
 */
public final class WarningChatResponseMetadata extends ChatResponseMetadata {
  private final List<String> warnings;

  private WarningChatResponseMetadata(Builder builder) {
    super(builder);
    this.warnings = builder.warnings == null ? List.of() : List.copyOf(builder.warnings);
  }

  /** The warnings, in order. */
  public List<String> warnings() {
    return warnings;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The warnings of {@code metadata}, or none when it has none. */
  public static List<String> of(ChatResponseMetadata metadata) {
    return metadata instanceof WarningChatResponseMetadata
        ? ((WarningChatResponseMetadata) metadata).warnings() : List.of();
  }

  /** Builds a {@link WarningChatResponseMetadata}. */
  public static final class Builder extends ChatResponseMetadata.Builder<Builder> {
    private List<String> warnings;

    /** The warnings to attach. */
    public Builder warnings(List<String> warnings) {
      this.warnings = warnings;
      return this;
    }

    @Override
    public WarningChatResponseMetadata build() {
      return new WarningChatResponseMetadata(this);
    }
  }
}
