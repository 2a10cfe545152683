package io.durableagents.starter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * picocli's help, wrapped at spaces only. picocli wraps with the JDK's line {@code BreakIterator}, which
 * breaks after a '.' or a ':' inside a word: {@code ~/.} at the end of one line and {@code
 * local/share/durable-agents} on the next, {@code TEMPORAL_ADDRESS=127.0.0.1:} and {@code PORT}, {@code
 * e.} and {@code g.}; a path, an address or a command given in the help must stay whole to be read or
 * copied. Here a line breaks only at a space; a word longer than a line is left to picocli.
 *
 * <pre>{@code
 * commandLine.setHelpFactory(WordWrappedHelp::new);
 * }</pre>
 */
final class WordWrappedHelp extends Help {
  WordWrappedHelp(CommandSpec spec, ColorScheme colorScheme) {
    super(spec, colorScheme);
  }

  @Override
  public Layout createDefaultLayout() {
    return rewrapped(super.createDefaultLayout());
  }

  @Override
  public Layout createDefaultLayout(List<picocli.CommandLine.Model.OptionSpec> options,
      List<picocli.CommandLine.Model.PositionalParamSpec> positionals, ColorScheme colorScheme) {
    return rewrapped(super.createDefaultLayout(options, positionals, colorScheme));
  }

  private Layout rewrapped(Layout layout) {
    return new Layout(layout.colorScheme(), like(layout.textTable()), layout.optionRenderer(),
        layout.parameterRenderer());
  }

  /** The table of the command list. */
  @Override
  public TextTable createTextTable(Map<?, ?> map) {
    return like(super.createTextTable(map));
  }

  /** The description under the usage line, wrapped as picocli's {@code Help.join} does, at spaces. */
  @Override
  public String description(Object... params) {
    String[] lines = commandSpec().usageMessage().description();
    if (lines == null || lines.length == 0) {
      return "";
    }
    TextTable table = new SpacesOnly(colorScheme(), new Column(commandSpec().usageMessage().width(), 0,
        Column.Overflow.WRAP));
    table.indentWrappedLines = 0;
    for (String line : lines) {
      for (Text part : colorScheme().text(String.format(line, params)).splitLines()) {
        table.addRowValues(part);
      }
    }
    return table.toString();
  }

  private TextTable like(TextTable table) {
    TextTable copy = new SpacesOnly(colorScheme(), table.columns());
    copy.indentWrappedLines = table.indentWrappedLines;
    copy.setAdjustLineBreaksForWideCJKCharacters(table.isAdjustLineBreaksForWideCJKCharacters());
    return copy;
  }

  /** A text table whose wrapping columns break lines at spaces. */
  static final class SpacesOnly extends TextTable {
    private final ColorScheme colorScheme;

    SpacesOnly(ColorScheme colorScheme, Column... columns) {
      super(colorScheme, columns);
      this.colorScheme = colorScheme;
    }

    @Override
    public Cell putValue(int row, int col, Text value) {
      Column column = columns()[col];
      if (column.overflow != Column.Overflow.WRAP || value == null || value.plainString().isEmpty()) {
        return super.putValue(row, col, value);
      }
      // one less than the column, as picocli leaves the last place of a line free
      int room = column.width - column.indent - 1;
      List<int[]> lines = lines(value.plainString(), room, room - indentWrappedLines);
      Cell cell = null;
      for (int i = 0; i < lines.size(); i++) {
        if (i > 0) {
          addEmptyRow();
          row = rowCount() - 1;
        }
        Text line = value.substring(lines.get(i)[0], lines.get(i)[1]);
        if (i > 0 && indentWrappedLines > 0) {
          line = colorScheme.text(" ".repeat(indentWrappedLines)).concat(line);
        }
        cell = super.putValue(row, col, line); // a word longer than a line is picocli's to cut
        row = cell.row;
      }
      return cell;
    }

    /** The lines of {@code text}, as [start, end) pairs, broken at spaces: {@code first} wide, then {@code next}. */
    static List<int[]> lines(String text, int first, int next) {
      List<int[]> lines = new ArrayList<>();
      int start = 0;
      while (start < text.length()) {
        int room = lines.isEmpty() ? first : next;
        if (text.length() - start <= room) {
          lines.add(new int[] {start, text.length()});
          break;
        }
        int end = text.lastIndexOf(' ', start + room);
        if (end <= start) { // one word longer than the line: up to its end
          end = text.indexOf(' ', start);
          if (end < 0) {
            end = text.length();
          }
        }
        lines.add(new int[] {start, end});
        start = end;
        while (start < text.length() && text.charAt(start) == ' ') {
          start++;
        }
      }
      return lines;
    }
  }
}
