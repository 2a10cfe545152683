package io.durableagents.starter.run;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a run that goes on from a recorded state came from, kept in its memo ({@code origin}) and its
 * {@code ForkedFrom} search attribute: {@code describe} shows it, and the UI finds every fork of a run
 * with {@code ForkedFrom = "<id>"}.
 *
 * @param kind {@code fork} (read from the history) or {@code checkpoint} (a file)
 * @param simulationId the simulation it came from
 * @param step the step after which it goes on
 * @param file the checkpoint file (null for a fork)
 */
public record Origin(String kind, String simulationId, int step, String file) {
  public static final String MEMO_KEY = "origin";

  Map<String, Object> memo() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind);
    m.put("simulation", simulationId);
    m.put("step", step);
    if (file != null) {
      m.put("file", file);
    }
    return m;
  }

  /** {@code fork of sim-1 after step 6}. */
  public static String describe(Map<?, ?> memo) {
    Object file = memo.get("file");
    return memo.get("kind") + " of " + memo.get("simulation") + " after step " + memo.get("step")
        + (file == null ? "" : " (" + file + ")");
  }
}
