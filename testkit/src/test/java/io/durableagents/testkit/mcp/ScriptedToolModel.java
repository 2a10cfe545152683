package io.durableagents.testkit.mcp;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * A model that gives the same answers in every process, from the conversation alone: it calls {@code
 * tool} once with each of {@code arguments} in turn (call ids {@code call_1}, {@code call_2}, ...), then
 * finishes with what the calls returned, joined by {@code "; "}.
 */
final class ScriptedToolModel implements ChatModel {
  private final String name;
  private final String tool;
  private final List<String> arguments;

  ScriptedToolModel(String name, String tool, List<String> arguments) {
    this.name = name;
    this.tool = tool;
    this.arguments = List.copyOf(arguments);
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<String> results = new ArrayList<>();
    for (ChatMessage m : request.messages()) {
      if (m instanceof ToolExecutionResultMessage r) {
        results.add(r.text());
      }
    }
    AiMessage answer;
    if (results.size() < arguments.size()) {
      answer = AiMessage.from(ToolExecutionRequest.builder().id("call_" + (results.size() + 1)).name(tool)
          .arguments(arguments.get(results.size())).build());
    } else {
      answer = AiMessage.from(ToolExecutionRequest.builder().id("call_finish").name("finish")
          .arguments("{\"answer\":\"" + String.join("; ", results).replace("\"", "'") + "\"}").build());
    }
    return ChatResponse.builder().aiMessage(answer).modelName(name).tokenUsage(new TokenUsage(10, 5))
        .finishReason(FinishReason.TOOL_EXECUTION).build();
  }
}
