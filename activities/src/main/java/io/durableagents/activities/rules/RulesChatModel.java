package io.durableagents.activities.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.durableagents.activities.llm.WarningChatResponseMetadata;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.RulePolicy;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  private final Map<String, RulePolicy> policies;
  private final long delayMillis;

  /**
   * A rules model with no scenario's policy: it plays the autonomous agent and the task agent, and
   * says of any scenario that it has no policy for it.
   */
  public RulesChatModel() {
    this(Map.of());
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
    AiMessage memoryAnswer = RulesMemory.memory(messages);
    if (memoryAnswer != null) {
      return response(request, memoryAnswer);
    }
    boolean hasActionLine = RulesPrompts.actionLine(messages) != null;

    AiMessage answer;
    RulesPrompts.Observed observed;
    try {
      observed = RulesPrompts.observe(messages);
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
        answer = AiMessage.from(RulesAnswers.planJson(observed, plannedActions(observed, decision.get(),
            RulesPrompts.planLength(messages)), offered, warnings));
      } else if (mayCall && hasActionLine) {
        answer = RulesAnswers.act(messages, tools);
      } else if (mayCall) {
        answer = RulesAnswers.callTools(RulesAnswers.format(decision.get()), decision.get().actions(), offered, observed, warnings);
      } else {
        // a reasoning pass (CoT): the execution pass will only call what was offered
        for (RuleDecision.Action a : decision.get().actions()) {
          if (!offered.isEmpty() && !offered.contains(a.tool())) {
            RulesAnswers.notOffered(observed, a.tool(), warnings);
          }
        }
        answer = AiMessage.from(RulesAnswers.format(decision.get()));
      }
      return response(request, answer, warnings);
    } else {
      AiMessage autonomous = AutonomousRulePolicy.answer(messages, offered);
      answer = autonomous != null ? autonomous : task(messages, offered, json, mayCall, hasActionLine, tools);
    }
    return response(request, answer);
  }

  /** The first words of a rule-based long-term summary: it says where it comes from. */
  public static final String RULE_SUMMARY_PREFIX = "[rules] Rule-based summary, not an LLM's: ";

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

  /**
   * The decision of the observed agent's scenario's policy; empty, with the reason added to {@code
   * warnings}, when no policy is registered for the scenario or it has no rule for the role. A prompt
   * that names no scenario (an agent of a custom workflow) is asked of every policy in turn.
   */
  private Optional<RuleDecision> decide(RulesPrompts.Observed o, List<String> warnings) {
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
  private List<RuleDecision.Action> plannedActions(RulesPrompts.Observed o, RuleDecision first, int length) {
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

  /**
   * A single task: use the built-in tools the task asks for ({@link TaskRulePolicy}), then answer with
   * their results.
   */
  private AiMessage task(List<ChatMessage> messages, List<String> offered, boolean json, boolean mayCall,
      boolean hasActionLine, List<ToolSpecification> tools) {
    String task = RulesPrompts.firstUserText(messages);
    List<String> results = RulesPrompts.toolResults(messages);
    List<RuleDecision.Action> calls = TaskRulePolicy.toolCalls(task,
        offered.isEmpty() ? List.of(TaskRulePolicy.CALCULATOR, TaskRulePolicy.READ_FILE) : offered);
    if (json) {
      return AiMessage.from(RulesAnswers.planJson(calls, offered));
    }
    if (mayCall && hasActionLine) {
      return RulesAnswers.act(messages, tools);
    }
    if (mayCall && results.isEmpty() && !calls.isEmpty()) {
      return RulesAnswers.callTools(DISCLAIMER + "\nThought: the task needs " + toolNames(calls) + ".", calls, offered);
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

  private static int estimateTokens(List<ChatMessage> messages) {
    int chars = 0;
    for (ChatMessage m : messages) {
      chars += RulesPrompts.text(m).length();
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
