package io.durableagents.starter.local;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the child JVMs this program starts (the worker and the in-memory Temporal server of {@code demo},
 * {@code simulate} on the embedded defaults and {@code agent}) are tuned, from {@value #VARIABLE}.
 *
 * <p>{@link #START_UP}, the default, runs them on HotSpot's first compiler only and the serial collector
 * ({@code -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}): a JVM that lives minutes and runs much diverse code
 * (gRPC, protobuf, the SDK, the scenarios) spends much of its CPU in its first minute compiling the same
 * code again with C2 and running G1's concurrent threads, which on a laptop's few cores is CPU taken from
 * the run itself. {@link #PEAK} leaves the JVM's own defaults (C1 then C2, G1 on two cores or more): more
 * CPU at first, 15-25% more agent steps per second once warm, for long runs at no model latency. Measured
 * in BENCHMARKS.md ("The child JVMs tuned for their first minute").
 */
public enum ChildJvmTuning {
  /** C1 only and the serial collector: the least CPU in a JVM's first minutes (the default). */
  START_UP("start-up", List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")),
  /** The JVM's own defaults: C1 then C2 and the collector it picks. */
  PEAK("peak", List.of());

  /** The environment variable: {@code start-up} (the default) or {@code peak}. */
  public static final String VARIABLE = "DURABLE_AGENTS_CHILD_JVM_TUNING";

  private final String value;
  private final List<String> jvmOptions;

  ChildJvmTuning(String value, List<String> jvmOptions) {
    this.value = value;
    this.jvmOptions = jvmOptions;
  }

  /** Its value of {@value #VARIABLE}. */
  public String value() {
    return value;
  }

  /** The JVM options it adds to a child's command line (before {@link ChildProcesses#CHILD_JVM_OPTIONS}). */
  public List<String> jvmOptions() {
    return jvmOptions;
  }

  /**
   * The tuning {@code env} sets, {@link #START_UP} when unset or blank.
   *
   * @throws IllegalArgumentException naming the variable and what it takes, for any other value
   */
  public static ChildJvmTuning fromEnvironment(Map<String, String> env) {
    String raw = env.get(VARIABLE);
    if (raw == null || raw.isBlank()) {
      return START_UP;
    }
    String v = raw.trim().toLowerCase(Locale.ROOT);
    for (ChildJvmTuning t : values()) {
      if (t.value.equals(v)) {
        return t;
      }
    }
    throw new IllegalArgumentException(VARIABLE + " must be start-up or peak, was '" + raw + "'");
  }
}
