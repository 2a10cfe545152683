package io.durableagents.workflows.agent.react;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the original ReAct text format, for models without native tool calls:
 *
 * <pre>{@code
 * Thought: I need the product first.
 * Action: calculator[{"expression": "17 * 23"}]
 * }</pre>
 *
 * <p>An answer is a thought followed by one {@code Action:} line. The line holds {@code none}, {@code
 * finish[answer]}, or one or more tool calls {@code tool[{json arguments}]} separated by {@code ;}.
 * Round brackets are read like square ones ({@code tool({...})}, the form CoT plans and the offline
 * rules model write). Everything after the action is dropped, from the first line that starts a new
 * {@code Observation} or {@code Thought}: a model that writes its own observation has made it up (the
 * "hallucinated observation" pitfall), and the made-up part never enters the conversation.
 *
 * <p>An answer without an {@code Action:} line is a plain answer. A line that cannot be read gives an
 * {@link Parsed#error()} worded for the model, such as {@code could not parse the action 'xyz':
 * expected tool[json arguments] or finish[answer]}, which goes back to it as the observation.
 *
 * <p>Pure and deterministic: it is called from workflow code.
 *
 * <pre>{@code
 * TextActionParser.Parsed turn = TextActionParser.parse(response.text());
 * if (turn.error() != null) { ... send turn.error() back as the observation ... }
 * }</pre>
 */
public final class TextActionParser {
  private static final String ACTION_LABEL = "action:";
  private static final String THOUGHT_LABEL = "thought:";
  private static final int MAX_QUOTED_CHARS = 200;

  private TextActionParser() {}

  /**
   * One action of the text format.
   *
   * @param name the tool's name, or {@link ReactPrompts#FINISH_TOOL}
   * @param arguments the tool's arguments (a JSON object); for finish, {@code {"answer": ...}}
   * @param text the action as the model wrote it
   */
  public record TextAction(String name, JsonNode arguments, String text) {
    /** True for {@code finish[answer]}. */
    public boolean isFinish() {
      return ReactPrompts.FINISH_TOOL.equals(name);
    }

    /** The answer of a finish action, else null. */
    public String answer() {
      JsonNode a = arguments == null ? null : arguments.get(ReactPrompts.FINISH_ARGUMENT);
      return isFinish() && a != null ? a.asText() : null;
    }
  }

  /**
   * One answer, read.
   *
   * @param thought the text before the {@code Action:} line, without its {@code Thought:} label; the
   *     whole answer when there is no action line
   * @param kept the answer up to the end of its action: what goes back into the conversation
   * @param actionText the text of the action line after {@code Action:}, or null when there is none
   * @param actions the actions read, in order; empty for a plain answer, {@code none} or an error
   * @param error why the action line could not be read, for the model, or null
   */
  public record Parsed(
      String thought, String kept, String actionText, List<TextAction> actions, String error) {
    public Parsed {
      actions = actions == null ? List.of() : List.copyOf(actions);
    }

    /** True when the answer names no action: it is the final answer. */
    public boolean isPlainAnswer() {
      return error == null && actions.isEmpty();
    }
  }

  /** Reads one answer of the model. Null reads as an empty plain answer. */
  public static Parsed parse(String text) {
    String all = text == null ? "" : text;
    String[] lines = all.split("\n", -1);
    int actionLine = -1;
    for (int i = 0; i < lines.length; i++) {
      if (startsWithLabel(lines[i], ACTION_LABEL)) {
        actionLine = i;
        break;
      }
    }
    if (actionLine < 0) {
      String thought = stripLabel(all.strip(), THOUGHT_LABEL);
      return new Parsed(thought, all.strip(), null, List.of(), null);
    }
    String thought = stripLabel(String.join("\n", List.of(lines).subList(0, actionLine)).strip(),
        THOUGHT_LABEL);
    // The action runs on until a line starts a new Observation or Thought (made up by the model).
    int end = actionLine + 1;
    while (end < lines.length && !startsWithLabel(lines[end], "observation")
        && !startsWithLabel(lines[end], THOUGHT_LABEL)) {
      end++;
    }
    String firstLine = lines[actionLine].strip();
    StringBuilder section = new StringBuilder(firstLine.substring(ACTION_LABEL.length()));
    for (int i = actionLine + 1; i < end; i++) {
      section.append('\n').append(lines[i]);
    }
    String actionText = section.toString().strip();
    String kept = String.join("\n", List.of(lines).subList(0, end)).strip();
    Reader reader = new Reader(actionText);
    List<TextAction> actions = new ArrayList<>();
    String error = reader.readAll(actions);
    if (error != null) {
      return new Parsed(thought, kept, actionText, List.of(), error);
    }
    return new Parsed(thought, kept, actionText, actions, null);
  }

  private static boolean startsWithLabel(String line, String label) {
    String t = line.stripLeading();
    return t.regionMatches(true, 0, label, 0, label.length());
  }

  private static String stripLabel(String text, String label) {
    return startsWithLabel(text, label) ? text.stripLeading().substring(label.length()).strip() : text;
  }

  /** The error message for an action line that cannot be read. */
  static String couldNotParse(String actionText, String detail) {
    String quoted = actionText.length() > MAX_QUOTED_CHARS
        ? actionText.substring(0, MAX_QUOTED_CHARS) + "..." : actionText;
    return "could not parse the action '" + quoted + "': "
        + (detail == null ? "" : detail + "; ")
        + "expected tool[json arguments] or " + ReactPrompts.FINISH_TOOL + "[answer]";
  }

  /** Reads the actions of one action line, left to right. */
  private static final class Reader {
    private final String s;
    private int pos;

    Reader(String s) {
      this.s = s;
    }

    /** Adds every action to {@code out}; returns an error message, or null. */
    String readAll(List<TextAction> out) {
      if (s.isEmpty()) {
        return couldNotParse(s, "the action is empty");
      }
      if (s.toLowerCase(Locale.ROOT).equals("none")) {
        return null;
      }
      while (true) {
        skipSeparators();
        if (pos >= s.length()) {
          return null;
        }
        int start = pos;
        String name = readName();
        if (name.isEmpty()) {
          return couldNotParse(s, null);
        }
        skipSpaces();
        if (pos >= s.length() || (s.charAt(pos) != '[' && s.charAt(pos) != '(')) {
          return couldNotParse(s, null);
        }
        char close = s.charAt(pos) == '[' ? ']' : ')';
        if (name.equalsIgnoreCase(ReactPrompts.FINISH_TOOL)) {
          // The answer is free text that may hold brackets itself: it runs to the last closing one.
          int last = s.lastIndexOf(close);
          if (last <= pos) {
            return couldNotParse(s, "missing '" + close + "'");
          }
          String content = s.substring(pos + 1, last).strip();
          out.add(new TextAction(ReactPrompts.FINISH_TOOL, finishArguments(content),
              s.substring(start, last + 1)));
          return null;
        }
        int contentEnd = matchingClose(pos, close);
        if (contentEnd < 0) {
          return couldNotParse(s, "missing '" + close + "'");
        }
        String content = s.substring(pos + 1, contentEnd).strip();
        JsonNode args = content.isEmpty() ? Json.object() : Json.tryParse(content);
        if (args == null || !args.isObject()) {
          return couldNotParse(s, "the arguments of " + name + " are not a JSON object");
        }
        pos = contentEnd + 1;
        out.add(new TextAction(name, args, s.substring(start, pos)));
      }
    }

    private void skipSeparators() {
      while (pos < s.length()
          && (Character.isWhitespace(s.charAt(pos)) || s.charAt(pos) == ';' || s.charAt(pos) == ',')) {
        pos++;
      }
    }

    private void skipSpaces() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    private String readName() {
      int start = pos;
      while (pos < s.length()) {
        char c = s.charAt(pos);
        boolean ok = Character.isLetter(c) || c == '_'
            || (pos > start && (Character.isDigit(c) || c == '-' || c == '.'));
        if (!ok) {
          break;
        }
        pos++;
      }
      return s.substring(start, pos);
    }

    /** The index of the bracket that closes the one at {@code open}, skipping JSON strings. */
    private int matchingClose(int open, char close) {
      int depth = 0;
      boolean inString = false;
      for (int i = open; i < s.length(); i++) {
        char c = s.charAt(i);
        if (inString) {
          if (c == '\\') {
            i++;
          } else if (c == '"') {
            inString = false;
          }
        } else if (c == '"') {
          inString = true;
        } else if (c == '[' || c == '(' || c == '{') {
          depth++;
        } else if (c == ']' || c == ')' || c == '}') {
          depth--;
          if (depth == 0) {
            return c == close ? i : -1;
          }
        }
      }
      return -1;
    }
  }

  /** {@code finish[answer]}; {@code finish[{"answer": ...}]} and {@code finish["..."]} read the same. */
  private static JsonNode finishArguments(String content) {
    JsonNode json = content.startsWith("{") || content.startsWith("\"") ? Json.tryParse(content) : null;
    String answer = content;
    if (json != null && json.isObject() && json.hasNonNull(ReactPrompts.FINISH_ARGUMENT)) {
      answer = json.get(ReactPrompts.FINISH_ARGUMENT).asText();
    } else if (json != null && json.isTextual()) {
      answer = json.asText();
    }
    return Json.object().put(ReactPrompts.FINISH_ARGUMENT, answer);
  }
}
