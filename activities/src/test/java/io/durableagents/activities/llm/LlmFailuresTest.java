package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RateLimitException;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A model call's exception as a typed failure whose message has no key and no raw body. */
class LlmFailuresTest {
  private static final LlmSettings SETTINGS = LlmSettings.newBuilder().build();

  @Test
  void aRateLimitIsRetryableAfterTheProvidersRetryAfterAndAnAuthenticationFailureIsNot() {
    ApplicationFailure limited = LlmFailures.toFailure(new RateLimitException(
        new RetryAfterHttpException(429, "{\"error\":{\"message\":\"slow down\"}}", Duration.ofSeconds(7))),
        SETTINGS);
    assertEquals(LlmFailureTypes.RATE_LIMITED, limited.getType());
    assertFalse(limited.isNonRetryable());
    assertEquals(Duration.ofSeconds(7), limited.getNextRetryDelay());
    assertEquals("RateLimitException (HTTP 429): slow down", limited.getOriginalMessage());

    ApplicationFailure denied = LlmFailures.toFailure(new AuthenticationException(
        new HttpException(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-proj-****abcd\"}}")),
        SETTINGS);
    assertEquals(LlmFailureTypes.AUTHENTICATION, denied.getType());
    assertTrue(denied.isNonRetryable());
    assertEquals("AuthenticationException (HTTP 401): Incorrect API key provided: ***", denied.getOriginalMessage());
  }

  @Test
  void withoutAnHttpAnswerTheMessageNamesTheCausesAndItsFirstRealMessageOnOneLine() {
    RuntimeException e = new UncheckedIOException(new IOException(new ConnectException("Connection\nrefused")));
    ApplicationFailure f = LlmFailures.toFailure(e, SETTINGS);
    assertEquals(LlmFailureTypes.TRANSIENT, f.getType());
    assertEquals("UncheckedIOException: IOException <- ConnectException: Connection refused", f.getOriginalMessage());
  }

  @Test
  void aPlainTextBodyGivesItsFirstLineAndAnApplicationFailureIsKept() {
    assertEquals("HttpException (HTTP 502): Bad gateway",
        LlmFailures.describe(new HttpException(502, "Bad gateway\n<html>...</html>"), SETTINGS));
    ApplicationFailure own = ApplicationFailure.newFailure("mine", "MyType");
    assertEquals(own, LlmFailures.toFailure(own, SETTINGS));
  }
}
