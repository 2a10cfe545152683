package io.durableagents.starter.approval;

import java.util.ArrayList;
import java.util.List;

/**
 * A table for the terminal: each column as wide as its widest cell (header included), two spaces between
 * columns, the last column as long as it is. Its lines line up whatever the cells hold, where {@code printf}
 * with fixed widths shifts every column after a cell that is too long.
 *
 * <pre>{@code
 * TextTable t = new TextTable("call", "tool", "arguments");
 * t.row("1", "calculator", "{\"expression\":\"17 * 23\"}");
 * t.lines().forEach(System.out::println);
 * }</pre>
 */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(header);
  }

  /** Adds a row of as many cells as the header has; a null cell prints as empty. */
  TextTable row(Object... cells) {
    if (cells.length != rows.get(0).length) {
      throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of "
          + rows.get(0).length + " columns");
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "" : String.valueOf(cells[i]).replace('\n', ' ');
    }
    rows.add(row);
    return this;
  }

  /** Whether it has rows besides the header. */
  boolean isEmpty() {
    return rows.size() == 1;
  }

  /** The header, then the rows, each without trailing spaces. */
  List<String> lines() {
    int columns = rows.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns - 1; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String[] row : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        sb.append(row[i]);
        if (i < columns - 1) {
          sb.append(" ".repeat(widths[i] - row[i].length() + 2));
        }
      }
      lines.add(sb.toString().stripTrailing());
    }
    return lines;
  }
}
