package io.durableagents.worker.tracing;

import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.interceptors.Header;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trace context that rides in Temporal headers, which history keeps with the command that
 * carries them: so a workflow replayed on another worker reads the same parent as the first time.
 *
 * <ul>
 *   <li>{@value #PARENT} on a child workflow or an activity: the span it belongs under ({@code trace},
 *       {@code span}, {@code sampled}), and the {@code simulation}, {@code agent} and {@code step} it
 *       works for.
 *   <li>{@value #CHAIN} on a run started by continue-as-new: the workflow's own span ({@code trace},
 *       {@code span}, {@code parent}, {@code start} in epoch millis, {@code runs} before it), which the
 *       last run ends.
 * </ul>
 *
 * Only ids and names: never a prompt, an argument or a key.
 */
final class TraceHeaders {
  static final String PARENT = "durable-agents-trace";
  static final String CHAIN = "durable-agents-trace-chain";

  private TraceHeaders() {}

  /** The values under {@code key}, or null when the header has none (or not ours). */
  @SuppressWarnings("unchecked")
  static Map<String, String> read(Header header, String key) {
    if (header == null) {
      return null;
    }
    Payload payload = header.getValues().get(key);
    if (payload == null) {
      return null;
    }
    try {
      Map<String, String> values =
          DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, Map.class, Map.class);
      return values == null || values.get("trace") == null || values.get("span") == null ? null : values;
    } catch (RuntimeException e) {
      return null;
    }
  }

  static void write(Header header, String key, Map<String, String> values) {
    Map<String, String> clean = new LinkedHashMap<>();
    values.forEach((k, v) -> {
      if (v != null) {
        clean.put(k, v);
      }
    });
    header.getValues().put(key, DefaultDataConverter.STANDARD_INSTANCE.toPayload(clean).orElseThrow());
  }
}
