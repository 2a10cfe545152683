package io.durableagents.workflows.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.workflows.agent.rewoo.ReWooPlanValidator;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/** An LlmActivities that answers from a script and records every request. */
final class ScriptedLlm implements LlmActivities {
  final List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());
  private final Deque<LlmResponse> answers = new ArrayDeque<>();

  ScriptedLlm text(String text) {
    answers.add(new LlmResponse("scripted", text, List.of(), new TokenUsage(10, 5), "STOP", 1));
    return this;
  }

  ScriptedLlm calls(ToolCall... calls) {
    answers.add(new LlmResponse("scripted", null, List.of(calls), new TokenUsage(7, 3), "TOOL_EXECUTION", 1));
    return this;
  }

  /** A thought with tool calls in the same answer, as function-calling models give them. */
  ScriptedLlm thoughtAndCalls(String thought, ToolCall... calls) {
    return answer(thought, new TokenUsage(7, 3), calls);
  }

  /** Any answer, with the usage it reports. */
  ScriptedLlm answer(String text, TokenUsage usage, ToolCall... calls) {
    answers.add(new LlmResponse("scripted", text, List.of(calls), usage,
        calls.length == 0 ? "STOP" : "TOOL_EXECUTION", 1));
    return this;
  }

  /** The purposes of the requests so far, in order. */
  List<String> purposes() {
    return requests.stream().map(LlmRequest::purpose).toList();
  }

  /**
   * A ReWOO planner's JSON answer, with its steps as the LLM activity returns them: one checked call
   * per step, id = step id (all valid here: no schemas in this module). Text that is not a plan
   * comes with no calls, as from the activity.
   */
  ScriptedLlm plan(String json) {
    List<ToolCall> calls = new ArrayList<>();
    try {
      for (JsonNode step : ReWooPlanValidator.parseSteps(json)) {
        calls.add(step.isObject()
            ? ToolCall.of(step.path("id").asText(), step.path("tool").asText(),
                step.has("args") ? step.get("args") : Json.object())
            : new ToolCall(null, null, null, step.toString(), "not an object"));
      }
    } catch (IllegalArgumentException notAPlan) {
      // no calls, as from the activity
    }
    return plan(json, calls.toArray(new ToolCall[0]));
  }

  /** A planner's answer cut at the output limit, as the LLM activity returns it (head kept, no steps). */
  ScriptedLlm cutPlan(String head) {
    answers.add(new LlmResponse("scripted", head, List.of(), new TokenUsage(20, 10), "LENGTH", 1,
        List.of("cut answer: the plan was cut at the model's output limit (finish reason length)"), true));
    return this;
  }

  /** A planner's answer with the checked steps given explicitly (e.g. one with a schema error). */
  ScriptedLlm plan(String json, ToolCall... checkedSteps) {
    answers.add(new LlmResponse("scripted", json, List.of(checkedSteps), new TokenUsage(20, 10), "STOP", 1));
    return this;
  }

  @Override
  public synchronized LlmResponse chat(LlmRequest request) {
    requests.add(request);
    if (answers.isEmpty()) {
      throw new IllegalStateException("the script has no answer left for " + request.purpose());
    }
    return answers.poll();
  }
}
