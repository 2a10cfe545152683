package io.durableagents.activities.llm;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;

/**
 * An HTTP error response that remembers the provider's {@code Retry-After}. LangChain4j maps it by
 * status code like any {@link HttpException} and keeps it as the cause, so the LLM activity can find
 * the delay and hand it to Temporal as the next retry's delay.
 */
public final class RetryAfterHttpException extends HttpException {
  private final Duration retryAfter;

  public RetryAfterHttpException(int statusCode, String body, Duration retryAfter) {
    super(statusCode, body);
    this.retryAfter = retryAfter;
  }

  /** The delay the provider asked for, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
