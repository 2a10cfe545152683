package io.durableagents.worker.codec;

import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.temporal.api.common.v1.Payloads;
import io.temporal.payload.codec.PayloadCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * A codec endpoint for the Temporal UI (and {@code temporal} CLI): {@code POST /decode} and {@code POST
 * /encode} with Temporal's JSON form of {@code Payloads}. Point the UI's "Codec Server" setting at it
 * to read encrypted payloads. With a token set, only requests that carry {@code Authorization: Bearer
 * <token>} are answered (enable "Pass the user access token" in the UI, or put it in front of your
 * own auth proxy); CORS allows the UI's origin.
 */
public final class CodecServer implements AutoCloseable {
  private final HttpServer server;

  public CodecServer(String host, int port, PayloadCodec codec, String uiOrigin, String token) {
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + host + ":" + port, e);
    }
    server.createContext("/", exchange -> {
      try {
        exchange.getResponseHeaders().set("Access-Control-Allow-Origin", uiOrigin);
        exchange.getResponseHeaders().set("Access-Control-Allow-Methods", "POST, OPTIONS");
        exchange.getResponseHeaders().set("Access-Control-Allow-Headers",
            "Content-Type, X-Namespace, Authorization");
        exchange.getResponseHeaders().set("Access-Control-Allow-Credentials", "true");
        if ("OPTIONS".equals(exchange.getRequestMethod())) {
          send(exchange, 200, "");
          return;
        }
        String path = exchange.getRequestURI().getPath();
        if (!"POST".equals(exchange.getRequestMethod()) || !(path.endsWith("/decode") || path.endsWith("/encode"))) {
          send(exchange, 404, "POST /decode or /encode\n");
          return;
        }
        if (token != null && !authorized(token, exchange.getRequestHeaders().getFirst("Authorization"))) {
          send(exchange, 401, "unauthorized\n");
          return;
        }
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Payloads.Builder in = Payloads.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(body, in);
        List<io.temporal.api.common.v1.Payload> result = path.endsWith("/decode")
            ? codec.decode(in.getPayloadsList()) : codec.encode(in.getPayloadsList());
        send(exchange, 200, JsonFormat.printer().print(Payloads.newBuilder().addAllPayloads(result).build()));
      } catch (RuntimeException | IOException e) {
        send(exchange, 400, "cannot " + exchange.getRequestURI().getPath() + ": " + e.getMessage() + "\n");
      }
    });
    server.start();
  }

  /** Whether {@code header} is {@code Bearer <token>}, compared in constant time. */
  static boolean authorized(String token, String header) {
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    byte[] given = (header == null ? "" : header).getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(expected, given);
  }

  /**
   * Whether {@code host} is this machine only (localhost, 127.x, ::1): a codec server there decrypts
   * for local callers only.
   */
  public static boolean isLoopback(String host) {
    String h = host.replace("[", "").replace("]", "").trim();
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      return java.net.InetAddress.getByName(h).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
    exchange.close();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
