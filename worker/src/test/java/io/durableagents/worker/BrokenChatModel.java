package io.durableagents.worker;

import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * A model whose every call is rejected as an invalid request (as a provider rejects a prompt over the
 * context length): a call that fails for good at once, with no retry.
 */
final class BrokenChatModel implements ChatModel {
  static final String NAME = "broken";

  @Override
  public ChatResponse doChat(ChatRequest request) {
    throw new InvalidRequestException("This model's maximum context length is 8 tokens.");
  }
}
