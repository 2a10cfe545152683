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
  private static volatile Map<String, String> fromCommandLine = Map.of();

  private Environment() {}

  /**
   * The variables in force: the test's while one runs a command in-process, else the process's; with
   * what the command's line set ({@link #withCommandLine}) over them.
   */
  public static Map<String, String> variables() {
    Map<String, String> g = given;
    Map<String, String> base = g != null ? g : System.getenv();
    Map<String, String> set = fromCommandLine;
    if (set.isEmpty()) {
      return base;
    }
    Map<String, String> all = new HashMap<>(base);
    all.putAll(set);
    return Map.copyOf(all);
  }

  /** The variables in force ({@link #variables()}) with {@code extra} over them: a child's environment. */
  public static Map<String, String> variablesWith(Map<String, String> extra) {
    Map<String, String> all = new HashMap<>(variables());
    all.putAll(extra);
    return all;
  }

  /** One variable, or null. */
  public static String get(String name) {
    return variables().get(name);
  }

  /**
   * Runs {@code work} with {@code settings} over the variables: what a command's options stand for
   * ({@code --address} for {@code TEMPORAL_ADDRESS}, {@link TemporalOptions}).
   */
  static <T> T withCommandLine(Map<String, String> settings, Callable<T> work) throws Exception {
    Map<String, String> before = fromCommandLine;
    fromCommandLine = Map.copyOf(settings);
    try {
      return work.call();
    } finally {
      fromCommandLine = before;
    }
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
