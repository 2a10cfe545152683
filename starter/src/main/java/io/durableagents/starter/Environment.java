package io.durableagents.starter;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The environment variables the commands read ({@code TEMPORAL_ADDRESS}, {@code DURABLE_AGENTS_*}, ...):
 * the process's own, or, while a command runs in the same JVM as a test ({@link #with}), the ones that
 * test gave it. Commands read variables only through here, so that a test can run most of the command
 * line in-process instead of starting a JVM per command.
 */
public final class Environment {
  private static volatile Map<String, String> given;

  private Environment() {}

  /** The variables in force: the test's while one runs a command in-process, else the process's. */
  public static Map<String, String> variables() {
    Map<String, String> g = given;
    return g != null ? g : System.getenv();
  }

  /** One variable, or null. */
  public static String get(String name) {
    return variables().get(name);
  }

  /**
   * Runs {@code work} with the process's variables overlaid by {@code overlay}; a null value in the
   * overlay removes the variable. Calls do not nest and run one at a time.
   */
  public static synchronized <T> T with(Map<String, String> overlay, Callable<T> work) throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    overlay.forEach((k, v) -> {
      if (v == null) {
        env.remove(k);
      } else {
        env.put(k, v);
      }
    });
    given = Map.copyOf(env);
    try {
      return work.call();
    } finally {
      given = null;
    }
  }
}
