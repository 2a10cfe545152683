package io.durableagents.activities.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.durableagents.workflows.autonomous.AutonomousPrompts;
import io.durableagents.workflows.autonomous.ControlTools;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline {@code rules} model's play of the autonomous agent's protocol, so that the example specs
 * run end to end without an LLM. It is not an LLM: it only plans arithmetic.
 *
 * <ul>
 *   <li>the judge ({@link AutonomousPrompts#JUDGE_MARKER}): every criterion passes, the reason saying
 *       that this is a rule-based policy, not an LLM (the answer itself must be bare JSON);
 *   <li>a reflection round: the previous answer again, through {@code finish};
 *   <li>with {@code spawn_agent} offered: one sub-agent per arithmetic expression of the task (the
 *       first sub-agent of the system prompt); when {@code max_concurrent} refuses some, {@code
 *       await_any} and spawn those again; then {@code await_tasks} on all, then {@code finish} with
 *       their answers;
 *   <li>with the todo tools offered: {@code think}, then {@code batch_add_todos} with one item per
 *       expression and a last item that depends on them all, {@code finalize_plan} when it is offered
 *       and the plan is not final, then per item {@code get_next_todo}, {@code calculator} when the item
 *       has an expression, and {@code update_todo} to completed with the result; when every item is
 *       done, {@code finish} with the results.
 * </ul>
 *
 * <p>Its answers depend only on the conversation, so a retried call gets the same answer.
 */
final class AutonomousRulePolicy {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern NEXT = Pattern.compile("Next: \\[ \\] (t\\d+) \\(\\w+\\) (.*)");
  private static final Pattern SPAWNED = Pattern.compile("Spawned (task-\\d+)");
  private static final Pattern SUB_AGENT = Pattern.compile("^- ([\\w.-]+)(?::|$)", Pattern.MULTILINE);

  private AutonomousRulePolicy() {}

  /** The answer, or null when the request is not part of the autonomous protocol. */
  static AiMessage answer(List<ChatMessage> messages, List<String> offered) {
    String lastUser = lastUserText(messages);
    if (lastUser != null && lastUser.startsWith(AutonomousPrompts.JUDGE_MARKER)) {
      return judge(lastUser);
    }
    boolean todo = offered.contains(ControlTools.BATCH_ADD_TODOS);
    boolean spawn = offered.contains(ControlTools.SPAWN_AGENT);
    if (!todo && !spawn) {
      return null;
    }
    List<ToolExecutionResultMessage> results = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m instanceof ToolExecutionResultMessage r) {
        results.add(r);
      }
    }
    ToolExecutionResultMessage last = results.isEmpty() ? null : results.get(results.size() - 1);
    boolean lastIsResult = !messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage;
    if (lastUser != null && lastUser.startsWith(AutonomousPrompts.REFLECTION_PREFIX) && !lastIsResult) {
      return finish("Reviewed (" + lastUser.substring(0, lastUser.indexOf(':')) + "): the answer stands.\n"
          + lastFinishAnswer(messages));
    }
    String task = task(messages);
    List<String> expressions = TaskRulePolicy.expressions(task);
    if (spawn) {
      return spawnPlay(messages, results, expressions);
    }
    if (!has(results, ControlTools.BATCH_ADD_TODOS)) {
      List<ToolExecutionRequest> calls = new ArrayList<>();
      if (offered.contains(ControlTools.THINK)) {
        calls.add(call(calls, ControlTools.THINK, MAPPER.createObjectNode().put("thought",
            "The task has " + expressions.size() + " calculation(s); I plan one item each, then the answer.")));
      }
      ObjectNode args = MAPPER.createObjectNode();
      ArrayNode items = args.putArray("items");
      ArrayNode all = MAPPER.createArrayNode();
      for (int i = 0; i < expressions.size(); i++) {
        items.addObject().put("description", "Compute " + expressions.get(i)).put("priority", "high");
        all.add(String.valueOf(i));
      }
      ObjectNode answer = items.addObject().put("description", "Write the answer").put("priority", "medium");
      answer.set("depends_on", all);
      calls.add(call(calls, ControlTools.BATCH_ADD_TODOS, args));
      return AiMessage.from(RulesChatModel.DISCLAIMER + "\nThought: plan first.", calls);
    }
    if (offered.contains(ControlTools.FINALIZE_PLAN) && !has(results, ControlTools.FINALIZE_PLAN)) {
      return single(ControlTools.FINALIZE_PLAN, MAPPER.createObjectNode());
    }
    if (last != null && lastIsResult) {
      String text = last.text() == null ? "" : last.text();
      if (ControlTools.GET_NEXT_TODO.equals(last.toolName())) {
        Matcher next = NEXT.matcher(text);
        if (next.find()) {
          List<String> expr = TaskRulePolicy.expressions(next.group(2));
          if (!expr.isEmpty() && offered.contains(TaskRulePolicy.CALCULATOR)) {
            return single(TaskRulePolicy.CALCULATOR, MAPPER.createObjectNode().put("expression", expr.get(0)));
          }
          return single(ControlTools.UPDATE_TODO, MAPPER.createObjectNode().put("id", next.group(1))
              .put("status", "completed").put("notes", String.join("; ", calculatorResults(results))));
        }
        return finish(answerText(results));
      }
      if (TaskRulePolicy.CALCULATOR.equals(last.toolName())) {
        String id = lastNextId(results);
        return single(ControlTools.UPDATE_TODO, MAPPER.createObjectNode().put("id", id)
            .put("status", "completed").put("notes", text));
      }
      if (ControlTools.UPDATE_TODO.equals(last.toolName()) && text.contains("Every item is done")) {
        return finish(answerText(results));
      }
      return single(ControlTools.GET_NEXT_TODO, MAPPER.createObjectNode());
    }
    // A continuation prompt: look at the list again.
    return single(ControlTools.GET_NEXT_TODO, MAPPER.createObjectNode());
  }

  private static AiMessage spawnPlay(List<ChatMessage> messages, List<ToolExecutionResultMessage> results,
      List<String> expressions) {
    Matcher agent = SUB_AGENT.matcher(systemText(messages));
    String name = agent.find() ? agent.group(1) : "worker";
    // Which prompts were spawned (a "Spawned task-n" result for their call), and as which task.
    List<String> spawnedPrompts = new ArrayList<>();
    ArrayNode ids = MAPPER.createArrayNode();
    List<String> refusals = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
        for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
          if (!ControlTools.SPAWN_AGENT.equals(r.name())) {
            continue;
          }
          String result = resultOf(messages, r.id());
          Matcher spawned = SPAWNED.matcher(result);
          if (spawned.find()) {
            spawnedPrompts.add(argument(r, "prompt"));
            ids.add(spawned.group(1));
          } else {
            refusals.add(result);
          }
        }
      }
    }
    List<String> remaining = new ArrayList<>();
    for (String e : expressions) {
      if (!spawnedPrompts.contains(prompt(e))) {
        remaining.add(prompt(e));
      }
    }
    ToolExecutionResultMessage last = results.isEmpty() ? null : results.get(results.size() - 1);
    boolean lastIsResult = !messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage;
    if (!has(results, ControlTools.SPAWN_AGENT)
        || (!remaining.isEmpty() && lastIsResult && ControlTools.AWAIT_ANY.equals(last.toolName()))) {
      // Spawn what is left; a max_concurrent refusal is met with await_any, then a new spawn.
      List<ToolExecutionRequest> calls = new ArrayList<>();
      for (String p : has(results, ControlTools.SPAWN_AGENT) ? remaining : expressions.stream().map(AutonomousRulePolicy::prompt).toList()) {
        calls.add(call(calls, ControlTools.SPAWN_AGENT, MAPPER.createObjectNode().put("agent_name", name)
            .put("prompt", p)));
      }
      if (calls.isEmpty()) {
        return finish("No rule of mine covers this task: I only delegate arithmetic.");
      }
      return AiMessage.from(RulesChatModel.DISCLAIMER + "\nThought: one sub-agent per calculation.", calls);
    }
    if (ids.isEmpty()) {
      // Every spawn was refused (max_depth...): say why instead of awaiting nothing.
      return finish("I could not delegate: " + String.join("; ", refusals));
    }
    if (!remaining.isEmpty()) {
      return single(ControlTools.AWAIT_ANY, MAPPER.createObjectNode());
    }
    if (!has(results, ControlTools.AWAIT_TASKS)) {
      ObjectNode args = MAPPER.createObjectNode();
      args.set("task_ids", ids);
      return single(ControlTools.AWAIT_TASKS, args);
    }
    String awaited = "";
    for (ToolExecutionResultMessage r : results) {
      if (ControlTools.AWAIT_TASKS.equals(r.toolName())) {
        awaited = r.text();
      }
    }
    return finish(awaited.replace(RulesChatModel.DISCLAIMER, "").strip());
  }

  private static String prompt(String expression) {
    return "What is " + expression + "?";
  }

  private static String resultOf(List<ChatMessage> messages, String callId) {
    for (ChatMessage m : messages) {
      if (m instanceof ToolExecutionResultMessage r && callId != null && callId.equals(r.id())) {
        return r.text() == null ? "" : r.text();
      }
    }
    return "";
  }

  private static String argument(ToolExecutionRequest r, String name) {
    try {
      return MAPPER.readTree(r.arguments()).path(name).asText();
    } catch (Exception e) {
      return "";
    }
  }

  private static AiMessage judge(String prompt) {
    ObjectNode out = MAPPER.createObjectNode();
    ArrayNode results = out.putArray("results");
    for (String line : prompt.split("\n")) {
      if (line.startsWith("Criteria: ")) {
        for (String c : line.substring("Criteria: ".length()).split(",")) {
          results.addObject().put("criterion", c.strip()).put("passed", true)
              .put("reason", RulesChatModel.DISCLAIMER + " Every criterion passes.");
        }
      }
    }
    return AiMessage.from(out.toString());
  }

  private static String answerText(List<ToolExecutionResultMessage> results) {
    List<String> calc = calculatorResults(results);
    return calc.isEmpty() ? "Every item is done." : String.join("\n", calc);
  }

  private static List<String> calculatorResults(List<ToolExecutionResultMessage> results) {
    List<String> out = new ArrayList<>();
    for (ToolExecutionResultMessage r : results) {
      if (TaskRulePolicy.CALCULATOR.equals(r.toolName())) {
        out.add(r.text());
      }
    }
    return out;
  }

  private static String lastNextId(List<ToolExecutionResultMessage> results) {
    String id = "t1";
    for (ToolExecutionResultMessage r : results) {
      Matcher m = NEXT.matcher(r.text() == null ? "" : r.text());
      if (ControlTools.GET_NEXT_TODO.equals(r.toolName()) && m.find()) {
        id = m.group(1);
      }
    }
    return id;
  }

  private static boolean has(List<ToolExecutionResultMessage> results, String tool) {
    return results.stream().anyMatch(r -> tool.equals(r.toolName()));
  }

  private static String lastFinishAnswer(List<ChatMessage> messages) {
    String answer = "";
    for (ChatMessage m : messages) {
      if (m instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
        for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
          if (RulesChatModel.FINISH_TOOL.equals(r.name())) {
            try {
              answer = MAPPER.readTree(r.arguments()).path("answer").asText();
            } catch (Exception ignored) {
              // an unreadable answer leaves the last good one
            }
          }
        }
      }
    }
    return answer;
  }

  /** The user's task: the first user turn, after any strategy prefix. */
  private static String task(List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      if (m instanceof UserMessage u && u.hasSingleText()) {
        String t = u.singleText();
        int split = t.lastIndexOf("\n\n");
        return split >= 0 ? t.substring(split + 2) : t;
      }
    }
    return "";
  }

  private static String lastUserText(List<ChatMessage> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage u && u.hasSingleText()) {
        return u.singleText();
      }
      if (messages.get(i) instanceof ToolExecutionResultMessage) {
        continue;
      }
      if (messages.get(i) instanceof AiMessage) {
        continue;
      }
    }
    return null;
  }

  private static String systemText(List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      if (m instanceof SystemMessage s) {
        return s.text();
      }
    }
    return "";
  }

  private static ToolExecutionRequest call(List<ToolExecutionRequest> before, String tool, ObjectNode args) {
    return ToolExecutionRequest.builder().id("rules-" + (before.size() + 1)).name(tool)
        .arguments(args.toString()).build();
  }

  private static AiMessage single(String tool, ObjectNode args) {
    return AiMessage.from(RulesChatModel.DISCLAIMER,
        List.of(ToolExecutionRequest.builder().id("rules-1").name(tool).arguments(args.toString()).build()));
  }

  private static AiMessage finish(String answer) {
    return AiMessage.from(RulesChatModel.DISCLAIMER, List.of(ToolExecutionRequest.builder().id("rules-finish")
        .name(RulesChatModel.FINISH_TOOL).arguments(MAPPER.createObjectNode().put("answer", answer).toString())
        .build()));
  }
}
