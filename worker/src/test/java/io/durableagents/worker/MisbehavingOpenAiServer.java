package io.durableagents.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * A local OpenAI-compatible server ({@code POST /v1/chat/completions}) that answers in OpenAI's wire
 * format or misbehaves in one chosen way, and records when each request arrived. Built on the JDK's
 * {@link HttpServer}, so that a misbehaviour below HTTP (a connection closed mid-body) is ours to make.
 */
final class MisbehavingOpenAiServer implements AutoCloseable {
  /** What every request gets. */
  enum Behaviour {
    /** A normal text answer. */
    OK,
    /** {@code content: null}, finish reason stop. */
    EMPTY_CONTENT,
    /** A text answer with finish reason {@code length}. */
    CUT_AT_LENGTH,
    /** HTTP 200 with an HTML page. */
    HTML_200,
    /** HTTP 200, JSON content type, a body that is not JSON. */
    NOT_JSON_BODY,
    /** HTTP 200 with a JSON body that has no choices. */
    NO_CHOICES,
    /** Headers and part of the body, then the connection is closed. */
    CLOSED_MID_BODY,
    /** No answer at all (the client times out). */
    NO_ANSWER,
    /** HTTP 401, quoting the key. */
    UNAUTHORIZED,
    /** HTTP 404 model not found. */
    MODEL_NOT_FOUND,
    /** HTTP 400 maximum context length. */
    CONTEXT_TOO_LONG,
    /** HTTP 429 with Retry-After: 1, every time. */
    RATE_LIMITED
  }

  static final String KEY = "sk-test-secret-0123456789";

  private final HttpServer server;
  private volatile Behaviour behaviour;
  private final List<Long> arrivals = new ArrayList<>();
  private final List<String> bodies = new ArrayList<>();

  MisbehavingOpenAiServer(Behaviour behaviour) throws IOException {
    this.behaviour = behaviour;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/chat/completions", this::handle);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  /** The value for OPENAI_BASE_URL. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  void behave(Behaviour b) {
    behaviour = b;
  }

  /** When each request arrived (System.nanoTime), oldest first. */
  synchronized List<Long> arrivals() {
    return List.copyOf(arrivals);
  }

  /** The JSON bodies of the requests, oldest first. */
  synchronized List<String> bodies() {
    return List.copyOf(bodies);
  }

  int requests() {
    return arrivals().size();
  }

  private void handle(HttpExchange exchange) throws IOException {
    synchronized (this) {
      arrivals.add(System.nanoTime());
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    synchronized (this) {
      bodies.add(body);
    }
    switch (behaviour) {
      case OK -> json(exchange, 200, completion("{\"role\":\"assistant\",\"content\":\"Fine.\"}", "stop"));
      case EMPTY_CONTENT -> json(exchange, 200, completion("{\"role\":\"assistant\",\"content\":null}", "stop"));
      case CUT_AT_LENGTH -> json(exchange, 200,
          completion("{\"role\":\"assistant\",\"content\":\"The answer is a long sto\"}", "length"));
      case HTML_200 -> send(exchange, 200, "text/html", "<html><body>Welcome to nginx!</body></html>");
      case NOT_JSON_BODY -> send(exchange, 200, "application/json", "upstream connect error or disconnect/reset");
      case NO_CHOICES -> json(exchange, 200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}");
      case CLOSED_MID_BODY -> {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 1000);
        OutputStream out = exchange.getResponseBody();
        out.write("{\"id\":\"chatcmpl-1\",\"choi".getBytes(StandardCharsets.UTF_8));
        out.flush();
        exchange.getHttpContext().getServer();
        exchange.close();
      }
      case NO_ANSWER -> {
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        exchange.close();
      }
      case UNAUTHORIZED -> json(exchange, 401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY
          + ".\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
      case MODEL_NOT_FOUND -> json(exchange, 404, "{\"error\":{\"message\":\"The model `gpt-nope` does not exist"
          + " or you do not have access to it.\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}");
      case CONTEXT_TOO_LONG -> json(exchange, 400, "{\"error\":{\"message\":\"This model's maximum context length"
          + " is 128000 tokens. However, your messages resulted in 130000 tokens.\","
          + "\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}");
      case RATE_LIMITED -> {
        exchange.getResponseHeaders().add("Retry-After", "1");
        json(exchange, 429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}");
      }
      default -> throw new IllegalStateException("unhandled " + behaviour);
    }
  }

  static String completion(String message, String finishReason) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test\","
        + "\"choices\":[{\"index\":0,\"message\":" + message + ",\"finish_reason\":\"" + finishReason + "\"}],"
        + "\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":10,\"total_tokens\":60}}";
  }

  private static void json(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, "application/json", body);
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
