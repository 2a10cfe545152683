package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's shapes that every part prints: a part's heading and paragraph, and a Markdown table. */
class BenchmarkReportTest {
  @Test
  void aPartPrintsItsHeadingItsParagraphAndItsTableEachFollowedByABlankLine() {
    String printed = printed(bench -> {
      bench.section("5. History size", "Epstein, 12 agents.");
      bench.table("| strategy | events per agent step |", "| --- | ---: |",
          List.of("| cot | 9.0 |", "| rewoo | 7.5 |"));
      bench.paragraph("The same runs:");
      bench.tableHeader("| measure | value |", "| --- | ---: |");
    });

    assertEquals("""
        ## 5. History size

        Epstein, 12 agents.

        | strategy | events per agent step |
        | --- | ---: |
        | cot | 9.0 |
        | rewoo | 7.5 |

        The same runs:

        | measure | value |
        | --- | ---: |
        """, printed);
  }

  private static String printed(java.util.function.Consumer<BenchmarkCommand> report) {
    PrintStream old = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      report.accept(new BenchmarkCommand());
    } finally {
      System.setOut(old);
    }
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}
