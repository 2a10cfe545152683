package io.durableagents.activities.rules;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the offline {@code rules} model needs from a request's messages, by the lines the strategies'
 * prompts write: the agent's observation, a ReWOO planner's plan length, CoT's {@code Action:} line, a
 * single task's text and the tools' results so far.
 */
final class RulesPrompts {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RulesPrompts() {}

  /**
   * An observation read from a prompt's {@link CotPrompts} lines, with the agent's scenario and role
   * (null when the prompt names none).
   */
  record Observed(String scenario, String role, int step, Map<String, Object> self,
      Map<String, Map<String, Object>> local) {}

  /** The observation in the prompt, or null when there is none (a single task). */
  static Observed observe(List<ChatMessage> messages) throws Exception {
    Integer step = null;
    String scenario = null;
    String role = null;
    Map<String, Object> self = null;
    Map<String, Map<String, Object>> local = Map.of();
    for (ChatMessage m : messages) {
      for (String line : text(m).split("\n")) {
        if (line.startsWith(CotPrompts.SCENARIO_PREFIX) && line.contains(CotPrompts.ROLE_SEPARATOR)) {
          String rest = line.substring(CotPrompts.SCENARIO_PREFIX.length());
          int at = rest.indexOf(CotPrompts.ROLE_SEPARATOR);
          scenario = rest.substring(0, at).strip();
          role = rest.substring(at + CotPrompts.ROLE_SEPARATOR.length()).strip();
        } else if (line.startsWith(CotPrompts.STEP_PREFIX)) {
          String rest = line.substring(CotPrompts.STEP_PREFIX.length());
          step = Integer.parseInt(rest.substring(0, rest.indexOf(')')));
        } else if (line.startsWith(CotPrompts.SELF_STATE_PREFIX)) {
          self = MAPPER.readValue(line.substring(CotPrompts.SELF_STATE_PREFIX.length()),
              new TypeReference<LinkedHashMap<String, Object>>() {});
        } else if (line.startsWith(CotPrompts.LOCAL_STATE_PREFIX)) {
          local = MAPPER.readValue(line.substring(CotPrompts.LOCAL_STATE_PREFIX.length()),
              new TypeReference<LinkedHashMap<String, Map<String, Object>>>() {});
        }
      }
    }
    if (self == null || step == null) {
      return null;
    }
    if (role == null && self.get("role") != null) {
      role = String.valueOf(self.get("role"));
    }
    return new Observed(scenario, role, step, self, local);
  }

  /** {@code n} from the planner's "Plan length: at most n steps" line; 1 when there is none. */
  static int planLength(List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      for (String line : text(m).split("\n")) {
        if (line.startsWith(ReWooPrompts.PLAN_LENGTH_PREFIX)) {
          Matcher n = Pattern.compile("\\d+").matcher(line.substring(ReWooPrompts.PLAN_LENGTH_PREFIX.length()));
          if (n.find()) {
            return Math.max(1, Integer.parseInt(n.group()));
          }
        }
      }
    }
    return 1;
  }

  static String firstUserText(List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      if (m instanceof UserMessage) {
        return text(m);
      }
    }
    return null;
  }

  /** The tools' answers so far: tool-result turns, and a ReWOO solver's step results ({@code - p1-E1 calculator: 391}). */
  static List<String> toolResults(List<ChatMessage> messages) {
    List<String> results = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m instanceof ToolExecutionResultMessage) {
        results.add(((ToolExecutionResultMessage) m).text());
      } else if (m instanceof UserMessage && text(m).contains(ReWooPrompts.STEP_RESULTS_HEADER)) {
        // A ReWOO solver's prompt: "- <id> <tool>: <output>" after the header.
        String after = text(m).substring(text(m).indexOf(ReWooPrompts.STEP_RESULTS_HEADER));
        for (String line : after.split("\n")) {
          int colon = line.indexOf(": ");
          if (line.startsWith("- ") && colon > 0 && !line.startsWith("- none (")) {
            results.add(line.substring(colon + 2));
          }
        }
      }
    }
    return results;
  }

  static String actionLine(List<ChatMessage> messages) {
    String actionLine = null;
    for (ChatMessage m : messages) {
      for (String line : text(m).split("\n")) {
        if (line.startsWith(CotPrompts.ACTION_PREFIX)) {
          actionLine = line.substring(CotPrompts.ACTION_PREFIX.length());
        }
      }
    }
    return actionLine;
  }

  static String text(ChatMessage m) {
    if (m instanceof SystemMessage) {
      return ((SystemMessage) m).text();
    }
    if (m instanceof UserMessage && ((UserMessage) m).hasSingleText()) {
      return ((UserMessage) m).singleText();
    }
    if (m instanceof AiMessage && ((AiMessage) m).text() != null) {
      return ((AiMessage) m).text();
    }
    return "";
  }
}
