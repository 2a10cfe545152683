package io.durableagents.activities.llm;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a model reference ({@code rules}, {@code openai:gpt-4o-mini}, {@code ollama:llama3.2}, ...)
 * to a LangChain4j {@link ChatModel}, building at most one per reference.
 *
 * <p>A name registered with {@link Builder#register} wins over everything else: that is how the
 * offline {@code rules} policy and the scripted models of tests are plugged in. Any other reference
 * must be {@code <provider>:<model>} (see {@link ModelReference}); its client is built on first use
 * from {@link LlmSettings}, with
 *
 * <ul>
 *   <li>the provider client's own retries off ({@code maxRetries(0)}): Temporal owns retries;
 *   <li>the settings' time-out as connect and read time-out;
 *   <li>an HTTP client that keeps the {@code Retry-After} of error responses, so that the activity can
 *       tell Temporal how long to wait before the next attempt.
 * </ul>
 *
 * <p>{@code <reference>+<n>ms} (e.g. {@code rules+100ms}) is the referenced model with {@code n} ms
 * of added latency per call ({@link LatencyChatModel}), for benchmarks and rehearsals.
 *
 * <p>A reference this worker cannot serve (unknown form, unregistered name, a provider whose key is
 * missing) is a non-retryable {@link ApplicationFailure} of type {@link
 * LlmFailureTypes#PROVIDER_NOT_CONFIGURED} that names what is missing.
 *
 * <pre>{@code
 * ChatModelProvider models = ChatModelProvider.newBuilder()
 *     .settings(LlmSettings.fromEnvironment(System.getenv()))
 *     .register("rules", new RulesChatModel())
 *     .build();
 * ChatModel model = models.get("openai:gpt-4o-mini");
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

  /** A builder with default {@link LlmSettings} and no registered model. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** The settings provider clients are built from. */
  public LlmSettings settings() {
    return settings;
  }

  /**
   * The model for {@code reference}: a registered one, or a provider client built on first use and
   * reused afterwards.
   *
   * @throws ApplicationFailure non-retryable, of type {@link LlmFailureTypes#PROVIDER_NOT_CONFIGURED}:
   *     the reference is malformed, names no registered model, or names a provider whose settings are
   *     missing
   */
  public ChatModel get(String reference) {
    ChatModel named = registered.get(reference);
    if (named != null) {
      return named;
    }
    java.util.regex.Matcher delayed = LatencyChatModel.match(reference);
    if (delayed != null) {
      ChatModel base = get(delayed.group(1));
      return built.computeIfAbsent(reference.trim(), r -> new LatencyChatModel(base,
          java.time.Duration.ofMillis(Long.parseLong(delayed.group(2)))));
    }
    ModelReference ref;
    try {
      ref = ModelReference.parse(reference);
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
    }
    if (ref.isRegisteredName()) {
      ChatModel byTrimmedName = registered.get(ref.model());
      if (byTrimmedName != null) {
        return byTrimmedName;
      }
      throw ApplicationFailure.newNonRetryableFailure("no model named '" + ref.model()
              + "' is registered on this worker (registered: " + registered.keySet() + "); allowed: "
              + ModelReference.ALLOWED,
          LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
    }
    return built.computeIfAbsent(ref.toString(), r -> build(ref));
  }

  private ChatModel build(ModelReference ref) {
    try {
      switch (ref.provider()) {
        case ModelReference.OPENAI:
          if (settings.openAiApiKey() == null && settings.isOpenAiItself()) {
            throw notConfigured(ref, LlmSettings.OPENAI_API_KEY + " (or " + LlmSettings.OPENAI_BASE_URL
                + " pointing to another OpenAI-compatible server)");
          }
          return OpenAiChatModel.builder()
              .baseUrl(settings.openAiBaseUrl())
              // Without a key (a local server), no Authorization header is sent at all.
              .apiKey(settings.openAiApiKey())
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
          throw new IllegalStateException("ModelReference.parse let through provider " + ref.provider());
      }
    } catch (ApplicationFailure f) {
      throw f;
    } catch (RuntimeException e) {
      // A builder that rejects our settings cannot be fixed by a retry.
      throw ApplicationFailure.newNonRetryableFailure("cannot build a client for model " + ref + ": "
          + settings.redact(String.valueOf(e.getMessage())), LlmFailureTypes.PROVIDER_NOT_CONFIGURED);
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

    /** The settings that provider clients are built from (default: every default). */
    public Builder settings(LlmSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * Makes {@code model} available under {@code name} (e.g. {@code rules}); a registered name wins
     * over a provider reference of the same spelling.
     */
    public Builder register(String name, ChatModel model) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a registered model needs a name");
      }
      registered.put(name, Objects.requireNonNull(model, "model"));
      return this;
    }

    public ChatModelProvider build() {
      return new ChatModelProvider(this);
    }
  }
}
