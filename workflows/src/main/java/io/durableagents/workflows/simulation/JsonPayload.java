package io.durableagents.workflows.simulation;

import com.google.protobuf.ByteString;
import io.durableagents.api.Json;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.RawValue;

/**
 * A child workflow's input written to JSON once, by the workflow: the simulation needs its size before
 * starting it (to keep each workflow task within its budget, and to report the bytes agent steps carry),
 * and handing the SDK the written payload ({@link RawValue}: passed through as it is, a codec still
 * applied) spares writing every input a second time. The payload is what Temporal's default JSON
 * converter writes ({@code json/plain}), so the child reads it as any input.
 */
final class JsonPayload {
  private static final ByteString JSON_PLAIN = ByteString.copyFromUtf8("json/plain");

  private JsonPayload() {}

  /** {@code value} as a {@code json/plain} payload. */
  static RawValue of(Object value) {
    return ofJson(Json.writeBytes(value));
  }

  /** {@code json}, JSON already written, as a {@code json/plain} payload. */
  static RawValue ofJson(byte[] json) {
    return new RawValue(Payload.newBuilder().putMetadata("encoding", JSON_PLAIN)
        .setData(ByteString.copyFrom(json)).build());
  }

  /** The bytes of the payload's JSON (what {@link TaskBudget#sizeOf} gives for the value). */
  static long size(RawValue payload) {
    return payload.getPayload().getData().size();
  }
}
