package io.durableagents.activities.llm;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model that answers like another one after a fixed delay: the latency-injected model of the
 * benchmarks, and a way to see how a run behaves with a slow model without paying for one. A model
 * reference {@code <model>+<n>ms} (e.g. {@code rules+100ms}) names it.
 *
 * <pre>{@code
 * ChatModel slow = new LatencyChatModel(new RulesChatModel(), Duration.ofMillis(100));
 * }</pre>
 */
public final class LatencyChatModel implements ChatModel {
  /** {@code <model>+<n>ms}: the model and the delay. */
  public static final Pattern REFERENCE = Pattern.compile("^(.+)\\+(\\d{1,7})ms$");

  private final ChatModel delegate;
  private final Duration latency;

  public LatencyChatModel(ChatModel delegate, Duration latency) {
    this.delegate = delegate;
    this.latency = latency;
  }

  /** The delayed model's reference and the delay of {@code reference}, or null when it names none. */
  public static Matcher match(String reference) {
    Matcher m = REFERENCE.matcher(reference == null ? "" : reference.trim());
    return m.matches() ? m : null;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    try {
      Thread.sleep(latency.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while simulating the model's latency", e);
    }
    return delegate.chat(request);
  }

  @Override
  public ModelProvider provider() {
    return delegate.provider();
  }
}
