package io.durableagents.activities.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a spec's text as YAML. A document that is not YAML fails in one line naming the file, the line
 * and column of the problem and what the parser expected there ({@code agent.yaml:3:7: not valid YAML:
 * mapping values are not allowed here}), instead of the parser's own message of eight lines with the
 * offending line drawn twice.
 */
final class SpecYaml {
  private static final YAMLMapper YAML = new YAMLMapper();

  private SpecYaml() {}

  /**
   * The document in {@code text}, read from {@code source} (a file name, or {@code (document)}).
   *
   * @throws AgentSpecException naming {@code source}, the line and column, and the problem
   */
  static JsonNode read(String text, String source) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw notYaml(source, e);
    }
  }

  private static AgentSpecException notYaml(String source, IOException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
        Mark at = marked.getProblemMark();
        Mark context = marked.getContextMark();
        String while_ = marked.getContext() == null || context == null ? ""
            : " (" + oneLine(marked.getContext()) + " at line " + (context.getLine() + 1) + ", column "
                + (context.getColumn() + 1) + ")";
        return new AgentSpecException(source + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1),
            "not valid YAML: " + oneLine(marked.getProblem()) + while_);
      }
    }
    if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null) {
      return new AgentSpecException(source + ":" + j.getLocation().getLineNr() + ":" + j.getLocation().getColumnNr(),
          "not valid YAML: " + oneLine(j.getOriginalMessage()));
    }
    return new AgentSpecException(source, "not valid YAML: " + oneLine(e.getMessage()));
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
