package io.durableagents.activities.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns the exception of a model call into a typed Temporal failure: its type from LangChain4j's
 * exception classes (never from message text), retryable or not, with the provider's {@code Retry-After},
 * and a one-line message that names the exception, the HTTP status and the provider's own error message,
 * with keys masked and never the prompt.
 */
final class LlmFailures {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_DETAIL_CHARS = 300;

  private LlmFailures() {}

  /**
   * Key-like tokens in a provider's error text, such as OpenAI's masked {@code sk-proj-****abcd}
   * (OpenAI's and Anthropic's keys start with {@code sk-}); configured keys are masked as a whole.
   */
  private static final Pattern KEY_LIKE = Pattern.compile("\\bsk-[A-Za-z0-9_*\\-]{3,}");

  /**
   * Maps an exception of a model call to a Temporal failure, by LangChain4j's exception classes
   * (never by message text). An {@link ApplicationFailure} (a registered model may throw one) is kept.
   */
  static ApplicationFailure toFailure(RuntimeException e, LlmSettings settings) {
    if (e instanceof ApplicationFailure) {
      return (ApplicationFailure) e;
    }
    String message = describe(e, settings);
    if (e instanceof NonRetriableException) {
      // ContentFilteredException extends InvalidRequestException: test it first.
      String type = e instanceof AuthenticationException ? LlmFailureTypes.AUTHENTICATION
          : e instanceof ModelNotFoundException ? LlmFailureTypes.MODEL_NOT_FOUND
          : e instanceof ContentFilteredException ? LlmFailureTypes.CONTENT_FILTERED
          : e instanceof InvalidRequestException ? LlmFailureTypes.INVALID_REQUEST
          : LlmFailureTypes.NON_RETRIABLE;
      return ApplicationFailure.newBuilder().setMessage(message).setType(type).setNonRetryable(true).build();
    }
    if (e instanceof UnsupportedFeatureException) {
      // The provider cannot do what the request asks (a parameter, a message kind): no retry can help.
      return ApplicationFailure.newBuilder().setMessage(message)
          .setType(LlmFailureTypes.INVALID_REQUEST).setNonRetryable(true).build();
    }
    // RetriableException and its subclasses, I/O errors (connection refused or reset), and anything
    // else LangChain4j did not classify: retried by Temporal within the bounded retry policy.
    boolean answered = find(e, HttpException.class) == null;
    String type;
    if (e instanceof RateLimitException) {
      type = LlmFailureTypes.RATE_LIMITED;
    } else if (e instanceof dev.langchain4j.exception.TimeoutException) {
      type = LlmFailureTypes.TIMED_OUT;
    } else if (answered && (find(e, JsonProcessingException.class) != null
        || e instanceof dev.langchain4j.exception.InternalServerException)) {
      // HTTP 200 with a body that is not a chat completion (a proxy's HTML page, plain text; OpenAI's
      // client throws InternalServerException "no choices returned" without an HTTP error).
      type = LlmFailureTypes.MALFORMED_RESPONSE;
      message = "the model server's answer is not a chat completion: " + message;
    } else {
      type = LlmFailureTypes.TRANSIENT;
    }
    ApplicationFailure.Builder failure =
        ApplicationFailure.newBuilder().setMessage(message).setType(type).setNonRetryable(false);
    retryAfter(e).ifPresent(failure::setNextRetryDelay);
    return failure.build();
  }

  /** The provider's Retry-After, found on the {@link RetryAfterHttpException} in the cause chain. */
  static Optional<Duration> retryAfter(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetryAfterHttpException && ((RetryAfterHttpException) t).retryAfter() != null) {
        return Optional.of(((RetryAfterHttpException) t).retryAfter());
      }
    }
    return Optional.empty();
  }

  /**
   * A failure message without the prompt or a key: the exception's class, the HTTP status and the
   * provider's own error message (not the raw body); or, without an HTTP answer, the classes of the
   * causes and the first real message among them. Keys are masked and the detail is cut at {@value
   * #MAX_DETAIL_CHARS} characters.
   */
  static String describe(Throwable e, LlmSettings settings) {
    StringBuilder m = new StringBuilder(e.getClass().getSimpleName());
    HttpException http = find(e, HttpException.class);
    String detail;
    if (http != null) {
      m.append(" (HTTP ").append(http.statusCode()).append(')');
      detail = providerMessage(http.getMessage());
    } else {
      detail = causes(e);
    }
    if (detail != null && !detail.isBlank()) {
      // One line: a parser's message ends with its location on lines of their own, and a failure's
      // first line is what the command line prints, the note of how many attempts were made included.
      String clean = KEY_LIKE.matcher(settings.redact(detail)).replaceAll("***")
          .replaceAll("\\s*\\R\\s*", " ").strip();
      m.append(": ").append(clean.length() > MAX_DETAIL_CHARS
          ? clean.substring(0, MAX_DETAIL_CHARS) + "..." : clean);
    }
    return m.toString();
  }

  /**
   * The causes of {@code e} and the first message that says more than a class name, e.g. {@code
   * ConnectException <- ClosedChannelException} or {@code HttpTimeoutException: request timed out}.
   */
  private static String causes(Throwable e) {
    StringBuilder chain = new StringBuilder();
    String message = null;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t != e) {
        chain.append(chain.length() == 0 ? "" : " <- ").append(t.getClass().getSimpleName());
      }
      String m = t.getMessage();
      boolean onlyNamesTheCause = t.getCause() != null && t.getCause().toString().equals(m);
      if (message == null && m != null && !m.isBlank() && !onlyNamesTheCause) {
        message = m;
      }
    }
    return chain + (message == null ? "" : (chain.length() == 0 ? "" : ": ") + message);
  }

  /** The message in a provider's error body: OpenAI's and Anthropic's error.message, Ollama's error. */
  private static String providerMessage(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode json = MAPPER.readTree(body);
      JsonNode error = json.path("error");
      if (error.isTextual()) {
        return error.asText();
      }
      if (error.path("message").isTextual()) {
        return error.path("message").asText();
      }
      if (json.path("message").isTextual()) {
        return json.path("message").asText();
      }
      if (error.path("type").isTextual()) {
        return error.path("type").asText();
      }
    } catch (JsonProcessingException notJson) {
      // fall through: a plain-text body (e.g. a proxy's error page)
    }
    return firstLine(body);
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
