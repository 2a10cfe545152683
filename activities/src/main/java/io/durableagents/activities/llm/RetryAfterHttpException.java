package io.durableagents.activities.llm;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;

/**
 * An HTTP error response that remembers the provider's {@code Retry-After}. LangChain4j's {@code
 * ExceptionMapper} maps the root cause of a failed call by status code when it is an {@link
 * HttpException} (429 to {@code RateLimitException}, 5xx to {@code InternalServerException}, ...) and
 * keeps it as the cause of what it throws; so this exception has no cause of its own, and the LLM
 * activity finds it in the cause chain and hands the delay to Temporal as the next retry's delay.
 */
public final class RetryAfterHttpException extends HttpException {
  private final Duration retryAfter;

  /**
   * @param statusCode the response's status code
   * @param body the response's body
   * @param retryAfter the delay the provider asked for, or null
   */
  public RetryAfterHttpException(int statusCode, String body, Duration retryAfter) {
    super(statusCode, body);
    this.retryAfter = retryAfter;
  }

  /** The delay the provider asked for, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
