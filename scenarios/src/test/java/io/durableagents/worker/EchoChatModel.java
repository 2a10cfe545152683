package io.durableagents.worker;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;

/**
 * A model whose answer depends on every word of its prompt: a plan naming a number taken from the
 * prompt, and, when it may call tools, an Epstein move in a direction taken from that number. Agents
 * that see different things answer differently, so a replay that handed one agent's answer to another
 * returns another result.
 */
final class EchoChatModel implements ChatModel {
  static final String NAME = "echo";
  private static final String[] DIRECTIONS = {"North", "South", "East", "West"};

  @Override
  public ChatResponse doChat(ChatRequest request) {
    int h = Math.floorMod(request.messages().toString().hashCode(), 1_000_003);
    boolean mayCall = !request.toolSpecifications().isEmpty()
        && request.parameters().toolChoice() != ToolChoice.NONE;
    AiMessage answer = mayCall
        ? AiMessage.from(ToolExecutionRequest.builder().id("echo-" + h).name("move_one_step")
            .arguments("{\"direction\":\"" + DIRECTIONS[h % DIRECTIONS.length] + "\"}").build())
        : AiMessage.from("Thought: the prompt hashes to " + h + ".\nAction: move_one_step");
    return ChatResponse.builder().aiMessage(answer).tokenUsage(new TokenUsage(h % 500, h % 50)).build();
  }
}
