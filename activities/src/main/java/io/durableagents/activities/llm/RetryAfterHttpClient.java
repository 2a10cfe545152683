package io.durableagents.activities.llm;

import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * LangChain4j's HTTP client contract over the JDK's client, that keeps the {@code Retry-After} header
 * of an error response.
 *
 * <p>LangChain4j's own {@code JdkHttpClient} (1.19) turns an error response into an {@code
 * HttpException} that holds only the status code and the body: the headers are gone before any
 * decorator of LangChain4j's {@link HttpClient} could see them. So this client sends blocking requests
 * itself, as {@code JdkHttpClient} does (same request mapping, same time-out; a time-out becomes
 * LangChain4j's {@link TimeoutException}, an I/O error a {@link RuntimeException} around it), and
 * throws a {@link RetryAfterHttpException} for a non-2xx answer. LangChain4j's {@code ExceptionMapper}
 * maps it by status code like any {@code HttpException} and keeps it as the root cause, where {@code
 * LlmActivitiesImpl} finds the delay. Streaming and multipart requests, which our activities do not
 * make, go to LangChain4j's {@code JdkHttpClient} unchanged.
 */
final class RetryAfterHttpClient implements HttpClient {
  private final java.net.http.HttpClient client;
  private final Duration readTimeout;
  private final HttpClient langchain4jClient;

  private RetryAfterHttpClient(Duration connectTimeout, Duration readTimeout) {
    java.net.http.HttpClient.Builder b = java.net.http.HttpClient.newBuilder();
    if (connectTimeout != null) {
      b.connectTimeout(connectTimeout);
    }
    this.client = b.build();
    this.readTimeout = readTimeout;
    this.langchain4jClient =
        new JdkHttpClientBuilder().connectTimeout(connectTimeout).readTimeout(readTimeout).build();
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
      return langchain4jClient.execute(request);
    }
    HttpResponse<byte[]> response;
    try {
      response = client.send(toJdkRequest(request), HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      throw new TimeoutException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RuntimeException(e);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
    int status = response.statusCode();
    if (status < 200 || status >= 300) {
      throw new RetryAfterHttpException(status, new String(response.body(), StandardCharsets.UTF_8),
          retryAfter(response.headers().firstValue("Retry-After").orElse(null)));
    }
    return SuccessfulHttpResponse.builder()
        .statusCode(status)
        .headers(response.headers().map())
        .body(response.body())
        .build();
  }

  private java.net.http.HttpRequest toJdkRequest(HttpRequest request) {
    java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
    request.headers().forEach((name, values) -> {
      if (values != null) {
        values.forEach(value -> b.header(name, value));
      }
    });
    b.method(request.method().name(), request.body() == null
        ? java.net.http.HttpRequest.BodyPublishers.noBody()
        : java.net.http.HttpRequest.BodyPublishers.ofString(request.body()));
    if (readTimeout != null) {
      b.timeout(readTimeout);
    }
    return b.build();
  }

  /**
   * Reads a {@code Retry-After} value: delay-seconds or an HTTP date (RFC 9110, section 10.2.3).
   *
   * @return the delay, or null when the value is absent, unreadable, or not in the future
   */
  static Duration retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    Duration delay;
    if (v.matches("\\d{1,9}(\\.\\d+)?")) {
      delay = Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    } else {
      try {
        delay = Duration.between(ZonedDateTime.now(),
            ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
    return delay.isNegative() || delay.isZero() ? null : delay;
  }

  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    langchain4jClient.execute(request, parser, listener);
  }

  /** The builder that LangChain4j's model builders take ({@code .httpClientBuilder(...)}). */
  static final class Builder implements HttpClientBuilder {
    private Duration connectTimeout;
    private Duration readTimeout;

    @Override
    public Duration connectTimeout() {
      return connectTimeout;
    }

    @Override
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    @Override
    public Duration readTimeout() {
      return readTimeout;
    }

    @Override
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = timeout;
      return this;
    }

    @Override
    public HttpClient build() {
      return new RetryAfterHttpClient(connectTimeout, readTimeout);
    }
  }
}
