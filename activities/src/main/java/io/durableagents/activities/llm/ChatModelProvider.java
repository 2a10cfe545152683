package io.durableagents.activities.llm;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a model reference ({@code rules}, {@code openai:gpt-4o-mini}, ...) to a LangChain4j {@link
 * ChatModel}, one per reference. Provider clients are built with their own retries off (Temporal
 * retries) and an HTTP client that keeps {@code Retry-After}.
 *
 * <pre>{@code
 * ChatModelProvider models = ChatModelProvider.newBuilder()
 *     .settings(LlmSettings.fromEnvironment(System.getenv()))
 *     .register("rules", new RulesChatModel())
 *     .build();
 * }</pre>
 */
public final class ChatModelProvider {
  private final LlmSettings settings;
  private final Map<String, ChatModel> registered;
  private final Map<String, ChatModel> built = new ConcurrentHashMap<>();

  private ChatModelProvider(Builder b) {
    this.settings = b.settings;
    this.registered = Map.copyOf(b.registered);
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /**
   * The model for {@code reference}.
   *
   * @throws ApplicationFailure non-retryable: an unknown reference, or a provider whose settings are
   *     missing ({@link LlmFailureTypes#PROVIDER_NOT_CONFIGURED})
   */
  public ChatModel get(String reference) {
    ChatModel named = registered.get(reference);
    if (named != null) {
      return named;
    }
    ModelReference ref;
    try {
      ref = ModelReference.parse(reference);
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
    }
    if (ref.provider() == null) {
      throw ApplicationFailure.newNonRetryableFailure("no model named '" + reference
          + "' is registered on this worker; known: " + registered.keySet() + ", or "
          + ModelReference.ALLOWED, LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
    }
    return built.computeIfAbsent(reference, r -> build(ref));
  }

  private ChatModel build(ModelReference ref) {
    switch (ref.provider()) {
      case ModelReference.OPENAI:
        if (settings.openAiApiKey() == null && settings.isOpenAiItself()) {
          throw notConfigured(ref, LlmSettings.OPENAI_API_KEY);
        }
        return OpenAiChatModel.builder()
            .baseUrl(settings.openAiBaseUrl())
            .apiKey(settings.openAiApiKey() == null ? "none" : settings.openAiApiKey())
            .modelName(ref.model())
            .timeout(settings.timeout())
            .maxRetries(0)
            .httpClientBuilder(new RetryAfterHttpClient.Builder())
            .build();
      case ModelReference.ANTHROPIC:
        if (settings.anthropicApiKey() == null) {
          throw notConfigured(ref, LlmSettings.ANTHROPIC_API_KEY);
        }
        return AnthropicChatModel.builder()
            .baseUrl(settings.anthropicBaseUrl())
            .apiKey(settings.anthropicApiKey())
            .modelName(ref.model())
            .timeout(settings.timeout())
            .maxRetries(0)
            .httpClientBuilder(new RetryAfterHttpClient.Builder())
            .build();
      case ModelReference.OLLAMA:
        return OllamaChatModel.builder()
            .baseUrl(settings.ollamaBaseUrl())
            .modelName(ref.model())
            .timeout(settings.timeout())
            .maxRetries(0)
            .httpClientBuilder(new RetryAfterHttpClient.Builder())
            .build();
      default:
        throw new IllegalStateException(ref.provider());
    }
  }

  private static ApplicationFailure notConfigured(ModelReference ref, String variable) {
    return ApplicationFailure.newNonRetryableFailure("model " + ref + " needs " + variable
        + " in the worker's environment", LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
  }

  /** Builds a {@link ChatModelProvider}. */
  public static final class Builder {
    private LlmSettings settings = LlmSettings.newBuilder().build();
    private final Map<String, ChatModel> registered = new LinkedHashMap<>();

    private Builder() {}

    public Builder settings(LlmSettings settings) {
      this.settings = settings;
      return this;
    }

    /** Makes {@code model} available under {@code name} (e.g. {@code rules}). */
    public Builder register(String name, ChatModel model) {
      registered.put(name, model);
      return this;
    }

    public ChatModelProvider build() {
      return new ChatModelProvider(this);
    }
  }
}
