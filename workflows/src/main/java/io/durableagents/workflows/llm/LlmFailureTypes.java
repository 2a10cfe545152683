package io.durableagents.workflows.llm;

/**
 * The types of non-retryable failures an LLM call ends with. They are the {@code type} of the
 * {@code ApplicationFailure} that the activity throws, so a workflow (or a person reading the history)
 * can tell them apart without reading message text.
 */
public final class LlmFailureTypes {
  /** The provider rejected the credentials (HTTP 401/403). */
  public static final String AUTHENTICATION = "LlmAuthenticationFailed";

  /** The provider rejected the request as malformed (HTTP 400 and the like). */
  public static final String INVALID_REQUEST = "LlmInvalidRequest";

  /** The provider does not know the model (HTTP 404). */
  public static final String MODEL_NOT_FOUND = "LlmModelNotFound";

  /** The provider refused the content. */
  public static final String CONTENT_FILTERED = "LlmContentFiltered";

  /** The model reference names a provider this worker has no configuration for. */
  public static final String PROVIDER_NOT_CONFIGURED = "LlmProviderNotConfigured";

  /** Any other error that LangChain4j classes as non-retriable. */
  public static final String NON_RETRIABLE = "LlmNonRetriable";

  /** Retryable: the provider asked us to slow down (HTTP 429). */
  public static final String RATE_LIMITED = "LlmRateLimited";

  /** Retryable: the provider failed or timed out (HTTP 5xx, time-outs, connection errors). */
  public static final String TRANSIENT = "LlmTransient";

  private LlmFailureTypes() {}
}
