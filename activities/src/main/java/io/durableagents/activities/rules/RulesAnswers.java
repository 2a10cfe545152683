package io.durableagents.activities.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import io.durableagents.api.RuleDecision;
import io.durableagents.workflows.agent.cot.CotPrompts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the offline {@code rules} model's answers in each strategy's format: CoT's thoughts and {@code
 * Action:} line, the tool calls of that line or of a decision, a ReWOO plan's JSON array; a decided tool
 * the agent was not offered is left out and named in a warning.
 */
final class RulesAnswers {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RulesAnswers() {}

  private static final Pattern CALL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\((\\{.*?\\})?\\)");

  /** Says that the policy chose a tool the agent was not offered, so it was skipped. */
  static void notOffered(RulesPrompts.Observed o, String tool, List<String> warnings) {
    String w = "rules model: the rule policy of scenario '" + o.scenario() + "' chose '" + tool
        + "' for role '" + o.role() + "', which was not offered to it (the role's tools or its "
        + "selected tools leave it out); it was skipped";
    if (!warnings.contains(w)) {
      warnings.add(w);
    }
  }

  /** A ReWOO plan as a JSON array of {@code {"id","tool","args"}}, leaving out tools not offered. */
  static String planJson(List<RuleDecision.Action> actions, List<String> offered) {
    return planJson(null, actions, offered, new ArrayList<>());
  }

  /** As above; a planned tool that was not offered is left out and named in {@code warnings}. */
  static String planJson(RulesPrompts.Observed o, List<RuleDecision.Action> actions, List<String> offered,
      List<String> warnings) {
    ArrayNode plan = MAPPER.createArrayNode();
    for (RuleDecision.Action a : actions) {
      if (o != null && !offered.isEmpty() && !offered.contains(a.tool())) {
        notOffered(o, a.tool(), warnings);
      }
      if (offered.isEmpty() || offered.contains(a.tool())) {
        String id = "E" + (plan.size() + 1);
        plan.addObject().put("id", id).put("tool", a.tool()).set("args", a.arguments());
      }
    }
    return plan.toString();
  }

  /** Tool calls for {@code actions} among the offered tools, with {@code text} as the thought. */
  static AiMessage callTools(String text, List<RuleDecision.Action> actions, List<String> offered) {
    return callTools(text, actions, offered, null, new ArrayList<>());
  }

  /** As above; a decided tool that was not offered is skipped and named in {@code warnings}. */
  static AiMessage callTools(String text, List<RuleDecision.Action> actions, List<String> offered,
      RulesPrompts.Observed o, List<String> warnings) {
    List<ToolExecutionRequest> calls = new ArrayList<>();
    for (RuleDecision.Action a : actions) {
      if (o != null && !offered.contains(a.tool())) {
        notOffered(o, a.tool(), warnings);
      }
      if (offered.contains(a.tool())) {
        calls.add(ToolExecutionRequest.builder().id("rules-" + (calls.size() + 1)).name(a.tool())
            .arguments(a.arguments().toString()).build());
      }
    }
    return calls.isEmpty() ? AiMessage.from(text + "\nNothing to do this step.") : AiMessage.from(text, calls);
  }

  static String format(RuleDecision d) {
    StringBuilder sb = new StringBuilder(RulesChatModel.DISCLAIMER).append('\n');
    for (int i = 0; i < d.thoughts().size(); i++) {
      sb.append("Thought ").append(i + 1).append(": ").append(d.thoughts().get(i)).append('\n');
    }
    List<String> calls = new ArrayList<>();
    for (RuleDecision.Action a : d.actions()) {
      calls.add(a.tool() + "(" + a.arguments() + ")");
    }
    sb.append(CotPrompts.ACTION_PREFIX).append(calls.isEmpty() ? "none" : String.join("; ", calls));
    return sb.toString();
  }

  static AiMessage act(List<ChatMessage> messages, List<ToolSpecification> tools) {
    Set<String> offered = new HashSet<>();
    for (ToolSpecification t : tools) {
      offered.add(t.name());
    }
    String actionLine = RulesPrompts.actionLine(messages);
    List<ToolExecutionRequest> calls = new ArrayList<>();
    if (actionLine != null) {
      Matcher m = CALL.matcher(actionLine);
      while (m.find()) {
        if (offered.contains(m.group(1))) {
          calls.add(ToolExecutionRequest.builder()
              .id("rules-" + (calls.size() + 1))
              .name(m.group(1))
              .arguments(m.group(2) == null ? "{}" : m.group(2))
              .build());
        }
      }
    }
    if (calls.isEmpty()) {
      return AiMessage.from(RulesChatModel.DISCLAIMER + " The plan calls for no action I was offered a tool for.");
    }
    return AiMessage.from(RulesChatModel.DISCLAIMER, calls);
  }
}
