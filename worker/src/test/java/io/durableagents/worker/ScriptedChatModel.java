package io.durableagents.worker;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/** A deterministic ChatModel for tests: answers from a script, records every request. */
final class ScriptedChatModel implements ChatModel {
  final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
  private final Deque<AiMessage> answers = new ArrayDeque<>();

  ScriptedChatModel then(AiMessage answer) {
    answers.add(answer);
    return this;
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    AiMessage answer = answers.poll();
    if (answer == null) {
      throw new IllegalStateException("the script has no answer left");
    }
    return ChatResponse.builder().aiMessage(answer).modelName("scripted-1")
        .tokenUsage(new TokenUsage(100, 20))
        .finishReason(answer.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
        .build();
  }
}
