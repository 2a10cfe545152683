package io.durableagents.activities.payload;

import io.durableagents.workflows.PayloadFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Keeps model answers and tool outputs small enough for history. Temporal rejects payloads over 2 MB
 * and warns from 512 KB; an activity whose result is too large would fail on every retry. Over the
 * limit, an output is either cut (head kept, with a marker saying how much was cut) or rejected at once
 * with a non-retryable {@link PayloadFailureTypes#PAYLOAD_TOO_LARGE} failure.
 */
public final class PayloadGuard {
  /** What to do with an output over the limit. */
  public enum Mode {
    TRUNCATE,
    FAIL;

    /**
     * Parses {@code truncate} or {@code fail}.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Mode parse(String variable, String value) {
      try {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(variable + "='" + value + "' is not one of: truncate, fail");
      }
    }
  }

  /** 256 KiB: half of Temporal's warning threshold, leaving room for the rest of the payload. */
  public static final int DEFAULT_MAX_BYTES = 256 * 1024;

  private final int maxBytes;
  private final Mode mode;

  public PayloadGuard(int maxBytes, Mode mode) {
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("the output limit must be at least 1024 bytes, was " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.mode = mode;
  }

  /** The default guard: cut outputs over {@link #DEFAULT_MAX_BYTES}. */
  public static PayloadGuard defaults() {
    return new PayloadGuard(DEFAULT_MAX_BYTES, Mode.TRUNCATE);
  }

  public int maxBytes() {
    return maxBytes;
  }

  public Mode mode() {
    return mode;
  }

  /** True when {@code value} is over the limit and this guard cuts it (rather than rejecting it). */
  public boolean wouldCut(String value) {
    return mode == Mode.TRUNCATE && value != null
        && value.length() * 3L > maxBytes && value.getBytes(StandardCharsets.UTF_8).length > maxBytes;
  }

  /**
   * {@code value} if it fits, else cut or rejected.
   *
   * @param what what the value is, for the marker and the failure ("llm answer", "tool read_file")
   */
  public String check(String what, String value) {
    if (value == null) {
      return null;
    }
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= maxBytes) {
      return value;
    }
    if (mode == Mode.FAIL) {
      throw ApplicationFailure.newNonRetryableFailure(what + " is " + bytes.length
          + " bytes, over the limit of " + maxBytes + " (DURABLE_AGENTS_MAX_OUTPUT_BYTES)",
          PayloadFailureTypes.PAYLOAD_TOO_LARGE);
    }
    String marker = "\n[cut by Durable Agents: " + what + " was " + bytes.length + " bytes, limit "
        + maxBytes + "]";
    int keep = maxBytes - marker.getBytes(StandardCharsets.UTF_8).length;
    String head = new String(bytes, 0, keep, StandardCharsets.UTF_8);
    // a multi-byte character cut in half decodes to U+FFFD: drop it
    if (head.endsWith("\uFFFD")) {
      head = head.substring(0, head.length() - 1);
    }
    return head + marker;
  }
}
