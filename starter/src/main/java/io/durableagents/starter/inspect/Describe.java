package io.durableagents.starter.inspect;

import com.google.protobuf.Timestamp;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Formatting shared by the list and describe commands. */
public final class Describe {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private Describe() {}

  public static String status(WorkflowExecutionStatus status) {
    return status.name().replace("WORKFLOW_EXECUTION_STATUS_", "").toLowerCase(Locale.ROOT);
  }

  public static String time(Timestamp t) {
    return TIME.format(Instant.ofEpochSecond(t.getSeconds(), t.getNanos())) + "Z";
  }
}
