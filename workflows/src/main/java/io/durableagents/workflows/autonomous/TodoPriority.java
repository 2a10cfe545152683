package io.durableagents.workflows.autonomous;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How urgent a todo item is: {@code critical > high > medium > low}. */
public enum TodoPriority {
  CRITICAL,
  HIGH,
  MEDIUM,
  LOW;

  /**
   * Parses a priority case-insensitively; null or blank is {@link #MEDIUM}.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static TodoPriority parse(String value) {
    if (value == null || value.isBlank()) {
      return MEDIUM;
    }
    for (TodoPriority p : values()) {
      if (p.label().equals(value.strip().toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException("priority '" + value + "' is not one of: " + allowed());
  }

  /** The allowed names, lower case, comma separated. */
  public static String allowed() {
    return Arrays.stream(values()).map(TodoPriority::label).collect(Collectors.joining(", "));
  }

  /** The name as the agent writes it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
