package io.durableagents.activities.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * LangChain4j's HTTP client contract over the JDK's client, that keeps the {@code Retry-After} header
 * of error responses (LangChain4j's own client drops every header of an error). Streaming calls go to
 * LangChain4j's JDK client unchanged.
 */
final class RetryAfterHttpClient implements HttpClient {
  private final java.net.http.HttpClient client;
  private final Duration readTimeout;
  private final HttpClient streaming;

  private RetryAfterHttpClient(Duration connectTimeout, Duration readTimeout) {
    java.net.http.HttpClient.Builder b = java.net.http.HttpClient.newBuilder();
    if (connectTimeout != null) {
      b.connectTimeout(connectTimeout);
    }
    this.client = b.build();
    this.readTimeout = readTimeout;
    this.streaming = new JdkHttpClientBuilder().connectTimeout(connectTimeout).readTimeout(readTimeout).build();
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
    for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
      for (String v : h.getValue()) {
        b.header(h.getKey(), v);
      }
    }
    String body = request.body();
    b.method(request.method().name(), body == null
        ? java.net.http.HttpRequest.BodyPublishers.noBody()
        : java.net.http.HttpRequest.BodyPublishers.ofString(body));
    if (readTimeout != null) {
      b.timeout(readTimeout);
    }
    HttpResponse<String> response;
    try {
      response = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the model", e);
    }
    int status = response.statusCode();
    if (status < 200 || status >= 300) {
      throw new RetryAfterHttpException(status, response.body(),
          retryAfter(response.headers().firstValue("Retry-After").orElse(null)));
    }
    return SuccessfulHttpResponse.builder().statusCode(status)
        .headers(response.headers().map()).body(response.body()).build();
  }

  /** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Duration.ofMillis((long) (Double.parseDouble(value.trim()) * 1000));
    } catch (NumberFormatException notSeconds) {
      try {
        Duration d = Duration.between(ZonedDateTime.now(),
            ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
        return d.isNegative() ? Duration.ZERO : d;
      } catch (RuntimeException notADate) {
        return null;
      }
    }
  }

  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    streaming.execute(request, parser, listener);
  }

  /** The builder LangChain4j's model builders take. */
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
