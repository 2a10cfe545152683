package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The walkthrough {@code docs/writing-a-scenario.md} shows this example's code: every code block
 * captioned {@code From [`file`](path):} must be found verbatim in the file it names, so that the doc
 * stays true as the code changes. A line {@code ...} (or {@code // ...}, {@code <!-- ... -->}) inside a
 * block leaves code out: the parts around it must each be found, in that order.
 */
class WritingAScenarioDocTest {
  static final Path DOC = Path.of("..", "..", "docs", "writing-a-scenario.md");
  static final Pattern CAPTION = Pattern.compile("^From \\[`[^`]+`\\]\\(([^)]+)\\):\\s*$");

  record Snippet(int line, Path file, List<List<String>> parts) {}

  @Test
  void everySnippetIsFoundVerbatimInTheFileItNames() throws Exception {
    Assumptions.assumeTrue(Files.exists(DOC), "the walkthrough is at " + DOC.toAbsolutePath());
    List<Snippet> snippets = snippets(Files.readAllLines(DOC));
    assertTrue(snippets.size() >= 10, "the walkthrough shows the example's code: " + snippets.size() + " snippets");
    for (Snippet s : snippets) {
      assertTrue(Files.exists(s.file()), DOC + ":" + s.line() + " names " + s.file() + ", which does not exist");
      List<String> source = Files.readAllLines(s.file()).stream().map(String::stripTrailing).toList();
      int from = 0;
      for (List<String> part : s.parts()) {
        int at = indexOf(source, part, from);
        if (at < 0) {
          fail(DOC + ":" + s.line() + ": this part of the snippet is not in " + s.file() + " (after line "
              + from + "):\n" + String.join("\n", part));
        }
        from = at + part.size();
      }
    }
  }

  /** The captioned code blocks of the doc, each split at its elision lines. */
  static List<Snippet> snippets(List<String> doc) {
    List<Snippet> snippets = new ArrayList<>();
    for (int i = 0; i < doc.size(); i++) {
      Matcher caption = CAPTION.matcher(doc.get(i));
      if (!caption.matches()) {
        continue;
      }
      int open = i + 1;
      while (open < doc.size() && doc.get(open).isBlank()) {
        open++;
      }
      assertTrue(open < doc.size() && doc.get(open).startsWith("```"),
          DOC + ":" + (i + 1) + ": a caption must be followed by a code block");
      List<List<String>> parts = new ArrayList<>();
      List<String> part = new ArrayList<>();
      int j = open + 1;
      for (; j < doc.size() && !doc.get(j).startsWith("```"); j++) {
        String line = doc.get(j).stripTrailing();
        String t = line.strip();
        if (t.equals("...") || t.equals("// ...") || t.equals("<!-- ... -->")) {
          if (!part.isEmpty()) {
            parts.add(part);
          }
          part = new ArrayList<>();
        } else {
          part.add(line);
        }
      }
      if (!part.isEmpty()) {
        parts.add(part);
      }
      Path file = DOC.getParent().resolve(caption.group(1)).normalize();
      snippets.add(new Snippet(i + 1, file, parts));
      i = j;
    }
    return snippets;
  }

  private static int indexOf(List<String> source, List<String> part, int from) {
    for (int i = from; i + part.size() <= source.size(); i++) {
      if (source.subList(i, i + part.size()).equals(part)) {
        return i;
      }
    }
    return -1;
  }
}
