package io.durableagents.workflows.agent;

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

  @Override
  public synchronized LlmResponse chat(LlmRequest request) {
    requests.add(request);
    if (answers.isEmpty()) {
      throw new IllegalStateException("the script has no answer left for " + request.purpose());
    }
    return answers.poll();
  }
}
