package io.durableagents.activities.rules;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.durableagents.workflows.agent.cot.CotPrompts;
import java.util.ArrayList;
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
 * <p>It speaks the strategies' protocol, and says in every answer that it is a rule-based policy, not
 * an LLM:
 *
 * <ul>
 *   <li>asked to reason (tool choice {@code none}, or no tools), it reads the observation from the
 *       prompt and answers with numbered thoughts and an {@code Action:} line;
 *   <li>asked to act (tools offered), it turns the {@code Action:} line of the plan it is given into
 *       tool calls, leaving out tools it was not offered.
 * </ul>
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
  private static final Pattern CALL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\((\\{.*?\\})?\\)");

  private final List<RulePolicy> policies;

  /** A rules model with the policies of every built-in scenario. */
  public RulesChatModel() {
    this(List.of(new EpsteinRulePolicy()));
  }

  public RulesChatModel(List<RulePolicy> policies) {
    this.policies = List.copyOf(policies);
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ToolSpecification> tools =
        request.toolSpecifications() == null ? List.of() : request.toolSpecifications();
    boolean act = !tools.isEmpty() && request.toolChoice() != ToolChoice.NONE;
    AiMessage answer = act ? act(request.messages(), tools) : reason(request.messages());
    return ChatResponse.builder()
        .aiMessage(answer)
        .modelName(MODEL_NAME)
        .tokenUsage(new TokenUsage(estimateTokens(request.messages()), estimateTokens(answer)))
        .finishReason(answer.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
        .build();
  }

  private AiMessage reason(List<ChatMessage> messages) {
    Integer step = null;
    Map<String, Object> self = null;
    Map<String, Map<String, Object>> local = Map.of();
    for (ChatMessage m : messages) {
      for (String line : text(m).split("\n")) {
        try {
          if (line.startsWith(CotPrompts.STEP_PREFIX)) {
            String rest = line.substring(CotPrompts.STEP_PREFIX.length());
            step = Integer.parseInt(rest.substring(0, rest.indexOf(')')));
          } else if (line.startsWith(CotPrompts.SELF_STATE_PREFIX)) {
            self = MAPPER.readValue(line.substring(CotPrompts.SELF_STATE_PREFIX.length()),
                new TypeReference<LinkedHashMap<String, Object>>() {});
          } else if (line.startsWith(CotPrompts.LOCAL_STATE_PREFIX)) {
            local = MAPPER.readValue(line.substring(CotPrompts.LOCAL_STATE_PREFIX.length()),
                new TypeReference<LinkedHashMap<String, Map<String, Object>>>() {});
          }
        } catch (Exception e) {
          return AiMessage.from(DISCLAIMER + "\nI cannot read the observation: " + e.getMessage()
              + "\n" + CotPrompts.ACTION_PREFIX + "none");
        }
      }
    }
    if (self == null || step == null) {
      return AiMessage.from(DISCLAIMER + "\nThere is no observation in this request, so no rule applies.\n"
          + CotPrompts.ACTION_PREFIX + "none");
    }
    for (RulePolicy policy : policies) {
      Optional<RuleDecision> decision = policy.decide(step, self, local);
      if (decision.isPresent()) {
        return AiMessage.from(format(decision.get()));
      }
    }
    return AiMessage.from(DISCLAIMER + "\nNo rule covers an agent with role '" + self.get("role")
        + "'.\n" + CotPrompts.ACTION_PREFIX + "none");
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
    String actionLine = null;
    for (ChatMessage m : messages) {
      for (String line : text(m).split("\n")) {
        if (line.startsWith(CotPrompts.ACTION_PREFIX)) {
          actionLine = line.substring(CotPrompts.ACTION_PREFIX.length());
        }
      }
    }
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
