package io.durableagents.activities.rules;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.memory.MemoryPrompts;
import io.durableagents.activities.llm.WarningChatResponseMetadata;
import io.durableagents.activities.scenario.BuiltinScenarioRegistrations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline {@code rules} model: a scenario's classic rule-based policy behind LangChain4j's {@link
 * ChatModel} interface, so the first run and the end-to-end tests need no network and no key.
 *
 * <p>It speaks every strategy's protocol, and says in every answer that it is a rule-based policy,
 * not an LLM. In a simulation (the prompt carries an observation in {@link CotPrompts}' lines):
 *
 * <ul>
 *   <li>asked to reason (tool choice {@code none}, or no tools), it answers with numbered thoughts and
 *       an {@code Action:} line (CoT's reasoning pass);
 *   <li>asked to act on a plan (tools offered, an {@code Action:} line in the conversation), it turns
 *       that line into tool calls, leaving out tools it was not offered (CoT's execution pass);
 *   <li>asked to act with no plan (tools offered, no {@code Action:} line), it calls the tools of its
 *       decision directly (a ReAct turn);
 *   <li>asked for JSON (a ReWOO planner), it answers with a JSON array of at most the planner's {@link
 *       ReWooPrompts#PLAN_LENGTH_PREFIX plan length} steps, one action per simulation step: this step's
 *       decision, then the moves it would make next.
 * </ul>
 *
 * <p>On a single task (no observation) it plays {@link TaskRulePolicy}: it calls {@code calculator}
 * for arithmetic in the task and {@code read_file} for a file the task names, then answers with their
 * results (calling the ReAct {@code finish} tool when it is offered).
 *
 * <p>In an autonomous run (the todo or spawn tools offered, a reflection round or the judge) it plays
 * {@link AutonomousRulePolicy}: it plans arithmetic as todo items or delegates it to sub-agents.
 *
 * <p>Its answers depend only on the request, so a retried call gets the same answer. Token counts are
 * estimates (four characters a token), since no tokenizer is involved.
 */
public final class RulesChatModel implements ChatModel {
  /** The model name it reports. */
  public static final String MODEL_NAME = "rules";

  /** The first line of every answer. */
  public static final String DISCLAIMER = "[rules] This answer comes from a rule-based policy, not an LLM.";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** The ReAct strategy's finish tool: called with the answer when the task is done. */
  static final String FINISH_TOOL = ReactPrompts.FINISH_TOOL;

  private static final Pattern CALL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\((\\{.*?\\})?\\)");

  private final Map<String, RulePolicy> policies;
  private final long delayMillis;

  /** A rules model with the policies of the built-in scenarios. */
  public RulesChatModel() {
    this(BuiltinScenarioRegistrations.policies(BuiltinScenarioRegistrations.all()));
  }

  /**
   * A rules model with {@code policiesByScenario}: each scenario's rule policy by the scenario's name
   * (the plugin passes those of every registered scenario).
   */
  public RulesChatModel(Map<String, RulePolicy> policiesByScenario) {
    this(policiesByScenario, 0);
  }

  private RulesChatModel(Map<String, RulePolicy> policies, long delayMillis) {
    this.policies = Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    this.delayMillis = delayMillis;
  }

  /**
   * This model, answering each call only after {@code delayMillis}, as a real model takes a moment
   * (the end-to-end tests need calls in flight to kill a worker in the middle of them).
   */
  public RulesChatModel withDelay(long delayMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("delayMillis must be >= 0, was " + delayMillis);
    }
    return new RulesChatModel(policies, delayMillis);
  }

  /** The scenarios this model has a policy for. */
  public Set<String> scenarios() {
    return policies.keySet();
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    if (delayMillis > 0) {
      try {
        Thread.sleep(delayMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    List<ToolSpecification> tools =
        request.toolSpecifications() == null ? List.of() : request.toolSpecifications();
    List<String> offered = new ArrayList<>();
    tools.forEach(t -> offered.add(t.name()));
    boolean json = request.responseFormat() != null
        && request.responseFormat().type() == ResponseFormatType.JSON;
    boolean mayCall = !tools.isEmpty() && request.toolChoice() != ToolChoice.NONE;
    List<ChatMessage> messages = request.messages();
    AiMessage memoryAnswer = memory(messages);
    if (memoryAnswer != null) {
      return response(request, memoryAnswer);
    }
    boolean hasActionLine = actionLine(messages) != null;

    AiMessage answer;
    Observed observed;
    try {
      observed = observe(messages);
    } catch (Exception e) {
      observed = null;
      answer = AiMessage.from(DISCLAIMER + "\nI cannot read the observation: " + e.getMessage()
          + "\n" + CotPrompts.ACTION_PREFIX + "none");
      return response(request, answer);
    }
    if (observed != null) {
      List<String> warnings = new ArrayList<>();
      Optional<RuleDecision> decision = decide(observed, warnings);
      if (decision.isEmpty()) {
        answer = AiMessage.from(DISCLAIMER + "\n" + warnings.get(0) + "\n" + CotPrompts.ACTION_PREFIX + "none");
      } else if (json) {
        answer = AiMessage.from(planJson(observed, plannedActions(observed, decision.get(),
            planLength(messages)), offered, warnings));
      } else if (mayCall && hasActionLine) {
        answer = act(messages, tools);
      } else if (mayCall) {
        answer = callTools(format(decision.get()), decision.get().actions(), offered, observed, warnings);
      } else {
        // a reasoning pass (CoT): the execution pass will only call what was offered
        for (RuleDecision.Action a : decision.get().actions()) {
          if (!offered.isEmpty() && !offered.contains(a.tool())) {
            notOffered(observed, a.tool(), warnings);
          }
        }
        answer = AiMessage.from(format(decision.get()));
      }
      return response(request, answer, warnings);
    } else {
      AiMessage autonomous = AutonomousRulePolicy.answer(messages, offered);
      answer = autonomous != null ? autonomous : task(messages, offered, json, mayCall, hasActionLine, tools);
    }
    return response(request, answer);
  }

  /**
   * The answer to a memory call, or null when the request is not one: a consolidation gets a
   * rule-based summary (the summary so far and the new entries, joined); an importance grading gets
   * one {@code Importance: n} line per entry, 5 for arrests, jail, deals and messages from others, 4
   * for a change of state, 2 for a blocked or failed action, 1 for the rest.
   */
  private static AiMessage memory(List<ChatMessage> messages) {
    if (messages.isEmpty() || !(messages.get(0) instanceof SystemMessage)) {
      return null;
    }
    String system = text(messages.get(0));
    boolean consolidation = system.startsWith(MemoryPrompts.CONSOLIDATION_HEADER);
    if (!consolidation && !system.startsWith(MemoryPrompts.IMPORTANCE_HEADER)) {
      return null;
    }
    String summary = null;
    List<String> entries = new ArrayList<>();
    for (ChatMessage m : messages.subList(1, messages.size())) {
      for (String line : text(m).split("\n")) {
        if (line.startsWith(MemoryPrompts.SUMMARY_PREFIX)) {
          summary = line.substring(MemoryPrompts.SUMMARY_PREFIX.length()).strip();
        } else if (line.startsWith(MemoryPrompts.ENTRY_PREFIX)) {
          entries.add(line.substring(MemoryPrompts.ENTRY_PREFIX.length()).strip());
        }
      }
    }
    if (consolidation) {
      StringBuilder sb = new StringBuilder(RULE_SUMMARY_PREFIX);
      if (summary != null && !summary.equals("(none)")) {
        sb.append(summary.startsWith(RULE_SUMMARY_PREFIX)
            ? summary.substring(RULE_SUMMARY_PREFIX.length()) : summary).append(" | ");
      }
      sb.append(String.join(" | ", entries));
      return AiMessage.from(sb.toString());
    }
    StringBuilder sb = new StringBuilder(DISCLAIMER);
    for (String entry : entries) {
      sb.append('\n').append(MemoryPrompts.IMPORTANCE_PREFIX).append(importance(entry));
    }
    return AiMessage.from(sb.toString());
  }

  /** The first words of a rule-based long-term summary: it says where it comes from. */
  public static final String RULE_SUMMARY_PREFIX = "[rules] Rule-based summary, not an LLM's: ";

  /** The highest grade of an entry's parts (an entry lists a step's outcomes, separated by ';'). */
  private static int importance(String entry) {
    int best = 1;
    for (String part : entry.toLowerCase(java.util.Locale.ROOT).split(";")) {
      int grade;
      if (part.contains("blocked") || part.contains("cannot") || part.contains("no citizen")
          || part.contains("out of your vision") || part.contains("only ")
          || part.contains("already")) {
        grade = 2;
      } else if (part.contains("arrested") || part.contains("jail") || part.contains(" says")
          || part.contains("bought") || part.contains("sold")) {
        grade = 5;
      } else if (part.contains("you are now")) {
        grade = 4;
      } else {
        grade = 1;
      }
      best = Math.max(best, grade);
    }
    return best;
  }

  private static ChatResponse response(ChatRequest request, AiMessage answer) {
    return response(request, answer, List.of());
  }

  private static ChatResponse response(ChatRequest request, AiMessage answer, List<String> warnings) {
    return ChatResponse.builder()
        .aiMessage(answer)
        .metadata(WarningChatResponseMetadata.builder()
            .modelName(MODEL_NAME)
            .tokenUsage(new TokenUsage(estimateTokens(request.messages()), estimateTokens(answer)))
            .finishReason(answer.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
            .warnings(warnings)
            .build())
        .build();
  }

  /** Says that the policy chose a tool the agent was not offered, so it was skipped. */
  private static void notOffered(Observed o, String tool, List<String> warnings) {
    String w = "rules model: the rule policy of scenario '" + o.scenario() + "' chose '" + tool
        + "' for role '" + o.role() + "', which was not offered to it (the role's tools or its "
        + "selected tools leave it out); it was skipped";
    if (!warnings.contains(w)) {
      warnings.add(w);
    }
  }

  /**
   * An observation read from a prompt's {@link CotPrompts} lines, with the agent's scenario and role
   * (null when the prompt names none).
   */
  private record Observed(String scenario, String role, int step, Map<String, Object> self,
      Map<String, Map<String, Object>> local) {}

  /** The observation in the prompt, or null when there is none (a single task). */
  private static Observed observe(List<ChatMessage> messages) throws Exception {
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

  /**
   * The decision of the observed agent's scenario's policy; empty, with the reason added to {@code
   * warnings}, when no policy is registered for the scenario or it has no rule for the role. A prompt
   * that names no scenario (an agent of a custom workflow) is asked of every policy in turn.
   */
  private Optional<RuleDecision> decide(Observed o, List<String> warnings) {
    if (o.scenario() == null) {
      for (RulePolicy policy : policies.values()) {
        Optional<RuleDecision> d = policy.decide(o.role(), o.step(), o.self(), o.local());
        if (d.isPresent()) {
          return d;
        }
      }
      warnings.add("rules model: no rule policy covers role '" + o.role()
          + "' (the prompt names no scenario); the agent took no action");
      return Optional.empty();
    }
    RulePolicy policy = policies.get(o.scenario());
    if (policy == null) {
      warnings.add("rules model: scenario '" + o.scenario() + "' has no rule policy registered "
          + (policies.isEmpty() ? "(none has one)" : "(policies: " + String.join(", ", policies.keySet()) + ")")
          + "; its agents took no action. Register one with registerScenario(scenario, actions, rulePolicy),"
          + " or use an LLM");
      return Optional.empty();
    }
    Optional<RuleDecision> d = policy.decide(o.role(), o.step(), o.self(), o.local());
    if (d.isEmpty()) {
      warnings.add("rules model: the rule policy of scenario '" + o.scenario()
          + "' has no rule for role '" + o.role() + "'; those agents took no action");
    }
    return d;
  }

  /** A plan of at most {@code length} actions from the scenario's policy, starting with {@code first}. */
  private List<RuleDecision.Action> plannedActions(Observed o, RuleDecision first, int length) {
    RulePolicy policy = o.scenario() == null ? null : policies.get(o.scenario());
    if (o.scenario() == null) {
      for (RulePolicy p : policies.values()) {
        if (p.decide(o.role(), o.step(), o.self(), o.local()).isPresent()) {
          policy = p;
          break;
        }
      }
    }
    if (policy == null) {
      List<RuleDecision.Action> actions = first.actions();
      return actions.size() > length ? actions.subList(0, length) : actions;
    }
    return policy.plan(o.role(), o.step(), o.self(), o.local(), first, length);
  }

  /** {@code n} from the planner's "Plan length: at most n steps" line; 1 when there is none. */
  private static int planLength(List<ChatMessage> messages) {
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

  /** A ReWOO plan as a JSON array of {@code {"id","tool","args"}}, leaving out tools not offered. */
  private static String planJson(List<RuleDecision.Action> actions, List<String> offered) {
    return planJson(null, actions, offered, new ArrayList<>());
  }

  /** As above; a planned tool that was not offered is left out and named in {@code warnings}. */
  private static String planJson(Observed o, List<RuleDecision.Action> actions, List<String> offered,
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
  private static AiMessage callTools(String text, List<RuleDecision.Action> actions, List<String> offered) {
    return callTools(text, actions, offered, null, new ArrayList<>());
  }

  /** As above; a decided tool that was not offered is skipped and named in {@code warnings}. */
  private static AiMessage callTools(String text, List<RuleDecision.Action> actions, List<String> offered,
      Observed o, List<String> warnings) {
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

  /**
   * A single task: use the built-in tools the task asks for ({@link TaskRulePolicy}), then answer with
   * their results.
   */
  private AiMessage task(List<ChatMessage> messages, List<String> offered, boolean json, boolean mayCall,
      boolean hasActionLine, List<ToolSpecification> tools) {
    String task = firstUserText(messages);
    List<String> results = toolResults(messages);
    List<RuleDecision.Action> calls = TaskRulePolicy.toolCalls(task,
        offered.isEmpty() ? List.of(TaskRulePolicy.CALCULATOR, TaskRulePolicy.READ_FILE) : offered);
    if (json) {
      return AiMessage.from(planJson(calls, offered));
    }
    if (mayCall && hasActionLine) {
      return act(messages, tools);
    }
    if (mayCall && results.isEmpty() && !calls.isEmpty()) {
      return callTools(DISCLAIMER + "\nThought: the task needs " + toolNames(calls) + ".", calls, offered);
    }
    String answer = results.isEmpty()
        ? "No rule of mine covers this task: I only use the calculator and the file reader."
        : String.join("\n", results);
    if (mayCall && offered.contains(FINISH_TOOL)) {
      return AiMessage.from(DISCLAIMER, List.of(ToolExecutionRequest.builder().id("rules-finish")
          .name(FINISH_TOOL).arguments(MAPPER.createObjectNode().put("answer", answer).toString()).build()));
    }
    if (!results.isEmpty() || calls.isEmpty()) {
      return AiMessage.from(DISCLAIMER + "\nAnswer: " + answer);
    }
    // A reasoning pass (tools visible, not callable): plan the calls in CoT's format.
    StringBuilder sb = new StringBuilder(DISCLAIMER).append('\n')
        .append("Thought 1: the task is: ").append(task == null ? "" : task.replace('\n', ' ')).append('\n')
        .append("Thought 2: ").append(toolNames(calls)).append(" can do it.\n");
    List<String> planned = new ArrayList<>();
    for (RuleDecision.Action a : calls) {
      planned.add(a.tool() + "(" + a.arguments() + ")");
    }
    return AiMessage.from(sb.append(CotPrompts.ACTION_PREFIX).append(String.join("; ", planned)).toString());
  }

  private static String toolNames(List<RuleDecision.Action> calls) {
    List<String> names = new ArrayList<>();
    calls.forEach(c -> names.add(c.tool()));
    return String.join(" and ", names);
  }

  private static String firstUserText(List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      if (m instanceof UserMessage) {
        return text(m);
      }
    }
    return null;
  }

  /** The tools' answers so far: tool-result turns, and a ReWOO solver's step results ({@code - p1-E1 calculator: 391}). */
  private static List<String> toolResults(List<ChatMessage> messages) {
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

  private static String actionLine(List<ChatMessage> messages) {
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

  private static String format(RuleDecision d) {
    StringBuilder sb = new StringBuilder(DISCLAIMER).append('\n');
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

  private AiMessage act(List<ChatMessage> messages, List<ToolSpecification> tools) {
    Set<String> offered = new HashSet<>();
    for (ToolSpecification t : tools) {
      offered.add(t.name());
    }
    String actionLine = actionLine(messages);
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
      return AiMessage.from(DISCLAIMER + " The plan calls for no action I was offered a tool for.");
    }
    return AiMessage.from(DISCLAIMER, calls);
  }

  private static String text(ChatMessage m) {
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

  private static int estimateTokens(List<ChatMessage> messages) {
    int chars = 0;
    for (ChatMessage m : messages) {
      chars += text(m).length();
    }
    return (chars + 3) / 4;
  }

  private static int estimateTokens(AiMessage answer) {
    int chars = answer.text() == null ? 0 : answer.text().length();
    if (answer.hasToolExecutionRequests()) {
      for (ToolExecutionRequest r : answer.toolExecutionRequests()) {
        chars += r.name().length() + r.arguments().length();
      }
    }
    return (chars + 3) / 4;
  }
}
