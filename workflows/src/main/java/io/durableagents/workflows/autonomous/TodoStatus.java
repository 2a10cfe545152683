package io.durableagents.workflows.autonomous;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where a todo item stands. {@link #COMPLETED}, {@link #FAILED} and {@link #SKIPPED} are terminal: an
 * item that depends on a terminal item may start, and a list whose items are all terminal is done.
 */
public enum TodoStatus {
  PENDING("[ ]"),
  IN_PROGRESS("[>]"),
  COMPLETED("[x]"),
  FAILED("[!]"),
  SKIPPED("[-]");

  private final String icon;

  TodoStatus(String icon) {
    this.icon = icon;
  }

  /** True for completed, failed and skipped. */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == SKIPPED;
  }

  /** The list's icon: {@code [ ]}, {@code [>]}, {@code [x]}, {@code [!]}, {@code [-]}. */
  public String icon() {
    return icon;
  }

  /**
   * Parses a status case-insensitively ({@code in-progress} and {@code in progress} too).
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static TodoStatus parse(String value) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT).replace('-', '_')
        .replace(' ', '_');
    for (TodoStatus s : values()) {
      if (s.label().equals(v)) {
        return s;
      }
    }
    throw new IllegalArgumentException("status '" + value + "' is not one of: " + allowed());
  }

  /** The allowed names, lower case, comma separated. */
  public static String allowed() {
    return Arrays.stream(values()).map(TodoStatus::label).collect(Collectors.joining(", "));
  }

  /** The name as the agent writes it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
