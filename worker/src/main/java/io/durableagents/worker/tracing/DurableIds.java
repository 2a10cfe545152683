package io.durableagents.worker.tracing;

import io.opentelemetry.sdk.trace.IdGenerator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Span and trace ids derived from Temporal's ids (a workflow id and its first run id, a simulation
 * step), the same in every worker and every replay, and the SDK's {@link IdGenerator} that hands
 * them to a span being built. A workflow's span is built when it ends, possibly on another worker than
 * the one where it began, while its children (agent steps, LLM and tool calls) already named it as
 * their parent: both sides compute the same id. Spans of activities get random ids, as usual.
 */
final class DurableIds implements IdGenerator {
  private static final IdGenerator RANDOM = IdGenerator.random();
  private static final ThreadLocal<String[]> NEXT = new ThreadLocal<>();

  /** The trace id of a trace that starts at {@code parts} (hex, 32 digits). */
  static String traceId(String... parts) {
    return hex(digest("trace", parts), 16);
  }

  /** The span id of the span that {@code parts} name (hex, 16 digits). */
  static String spanId(String... parts) {
    return hex(digest("span", parts), 8);
  }

  /** Runs {@code build} with these ids given to the span it starts; a null trace id keeps the SDK's. */
  static <T> T with(String traceId, String spanId, java.util.function.Supplier<T> build) {
    NEXT.set(new String[] {traceId, spanId});
    try {
      return build.get();
    } finally {
      NEXT.remove();
    }
  }

  @Override
  public String generateSpanId() {
    String[] next = NEXT.get();
    return next != null && next[1] != null ? next[1] : RANDOM.generateSpanId();
  }

  @Override
  public String generateTraceId() {
    String[] next = NEXT.get();
    return next != null && next[0] != null ? next[0] : RANDOM.generateTraceId();
  }

  private static byte[] digest(String kind, String... parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(kind.getBytes(StandardCharsets.UTF_8));
      for (String part : parts) {
        sha.update((byte) 0);
        sha.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
      }
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static String hex(byte[] bytes, int length) {
    StringBuilder sb = new StringBuilder(length * 2);
    boolean zero = true;
    for (int i = 0; i < length; i++) {
      zero &= bytes[i] == 0;
      sb.append(Character.forDigit((bytes[i] >> 4) & 0xf, 16)).append(Character.forDigit(bytes[i] & 0xf, 16));
    }
    // an all-zero id is invalid in OpenTelemetry
    return zero ? sb.substring(0, sb.length() - 1) + "1" : sb.toString();
  }
}
