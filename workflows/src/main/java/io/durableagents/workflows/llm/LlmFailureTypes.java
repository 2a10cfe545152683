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

  /**
   * The call offers the model tools this worker does not have (never sent to the provider): a tool
   * registered on other workers only, or an MCP server's tool whose server this worker lacks.
   */
  public static final String UNKNOWN_TOOLS = "LlmUnknownTools";

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

  /** Retryable: the provider failed (HTTP 5xx, connection errors, a connection closed mid-answer). */
  public static final String TRANSIENT = "LlmTransient";

  /**
   * Retryable: the model server answered, but not with a chat completion (HTML or other non-JSON with
   * HTTP 200, no choices): typically a proxy's or a wrong server's page.
   */
  public static final String MALFORMED_RESPONSE = "LlmMalformedResponse";

  /**
   * Retryable: the model server sent no answer within {@code DURABLE_AGENTS_LLM_TIMEOUT} or what was left
   * of the retry budget ({@code DURABLE_AGENTS_LLM_RETRY_BUDGET}); the message names which.
   */
  public static final String TIMED_OUT = "LlmTimedOut";

  private LlmFailureTypes() {}
}
