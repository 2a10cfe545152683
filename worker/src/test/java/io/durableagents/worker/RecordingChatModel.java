package io.durableagents.worker;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/** Wraps a model, records every request, and can fail the requests a test picks. */
final class RecordingChatModel implements ChatModel {
  final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
  private final ChatModel delegate;
  private final Predicate<ChatRequest> fail;

  RecordingChatModel(ChatModel delegate) {
    this(delegate, r -> false);
  }

  RecordingChatModel(ChatModel delegate, Predicate<ChatRequest> fail) {
    this.delegate = delegate;
    this.fail = fail;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    if (fail.test(request)) {
      throw new dev.langchain4j.exception.InvalidRequestException("refused by the test");
    }
    return delegate.chat(request);
  }

  /** The text of every message of a request, joined. */
  static String text(ChatRequest request) {
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : request.messages()) {
      if (m instanceof SystemMessage s) {
        sb.append(s.text()).append('\n');
      } else if (m instanceof UserMessage u && u.hasSingleText()) {
        sb.append(u.singleText()).append('\n');
      }
    }
    return sb.toString();
  }

  /** The requests whose first message starts with {@code header}. */
  List<ChatRequest> startingWith(String header) {
    synchronized (requests) {
      return requests.stream().filter(r -> text(r).startsWith(header)).toList();
    }
  }
}
