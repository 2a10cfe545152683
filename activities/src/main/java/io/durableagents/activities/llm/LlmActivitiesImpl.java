package io.durableagents.activities.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.activities.tools.ToolCallValidator;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model calls over LangChain4j's {@link ChatModel}. Converts our history records to LangChain4j
 * messages and back, passes the named tools' schemas, checks every tool call the model makes against
 * its schema, heartbeats while it waits, and maps LangChain4j's exception classes to Temporal
 * failures: retriable ones (rate limit, time-out, server error, connection error) are retried by
 * Temporal, after the provider's Retry-After when it sent one; the others fail at once with a type
 * from {@link LlmFailureTypes}.
 */
public final class LlmActivitiesImpl implements LlmActivities {
  /** How often a waiting call heartbeats; well under {@code LlmCallOptions.HEARTBEAT_TIMEOUT}. */
  public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(2);

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Logger log = LoggerFactory.getLogger(LlmActivitiesImpl.class);
  private static final ScheduledExecutorService HEARTBEATS =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "llm-heartbeats");
        t.setDaemon(true);
        return t;
      });

  private final ChatModelProvider models;
  private final ToolRegistry tools;
  private final AgentMetrics metrics;
  private final PayloadGuard guard;

  public LlmActivitiesImpl(ChatModelProvider models, ToolRegistry tools) {
    this(models, tools, AgentMetrics.none(), PayloadGuard.defaults());
  }

  public LlmActivitiesImpl(
      ChatModelProvider models, ToolRegistry tools, AgentMetrics metrics, PayloadGuard guard) {
    this.models = models;
    this.tools = tools;
    this.metrics = metrics;
    this.guard = guard;
  }

  @Override
  public LlmResponse chat(LlmRequest request) {
    ChatModel model = models.get(request.model());
    List<ToolSpecification> specs;
    try {
      specs = tools.specifications(request.tools());
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), LlmFailureTypes.INVALID_REQUEST);
    }
    ChatRequest.Builder chat = ChatRequest.builder().messages(toMessages(request.messages()));
    if (!specs.isEmpty()) {
      chat.toolSpecifications(specs);
      if (request.toolChoice() != ToolChoice.PROVIDER_DEFAULT) {
        chat.toolChoice(dev.langchain4j.model.chat.request.ToolChoice.valueOf(request.toolChoice().name()));
      }
    }
    if (request.temperature() != null) {
      chat.temperature(request.temperature());
    }
    long start = System.nanoTime();
    ChatResponse response;
    try {
      response = callWithHeartbeats(model, chat.build());
    } catch (ApplicationFailure f) {
      log.warn("llm call to {} failed ({}{}): {}", request.model(), f.getType(),
          f.isNonRetryable() ? ", not retried" : ", Temporal retries it", f.getOriginalMessage());
      metrics.llmCall(request.model(), request.purpose(), f.getType(),
          Duration.ofNanos(System.nanoTime() - start), null);
      throw f;
    }
    long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    AiMessage ai = response.aiMessage();
    List<ToolCall> calls = new ArrayList<>();
    if (ai.hasToolExecutionRequests()) {
      Map<String, ToolSpecification> offered =
          specs.stream().collect(Collectors.toMap(ToolSpecification::name, Function.identity()));
      int index = 0;
      for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
        calls.add(check(r, index++, offered));
      }
    }
    dev.langchain4j.model.output.TokenUsage u = response.tokenUsage();
    TokenUsage usage = u == null ? TokenUsage.ZERO : new TokenUsage(
        u.inputTokenCount() == null ? 0 : u.inputTokenCount(),
        u.outputTokenCount() == null ? 0 : u.outputTokenCount());
    String modelName = response.metadata() != null && response.metadata().modelName() != null
        ? response.metadata().modelName() : request.model();
    metrics.llmCall(request.model(), request.purpose(), "ok", Duration.ofMillis(latency), usage);
    log.debug("llm call to {} ({}): {} in / {} out tokens, {} ms", request.model(), request.purpose(),
        usage.input(), usage.output(), latency);
    return new LlmResponse(modelName, guard.check("the model's answer", ai.text()), calls, usage,
        response.finishReason() == null ? null : response.finishReason().name(), latency);
  }

  private static ToolCall check(ToolExecutionRequest r, int index, Map<String, ToolSpecification> offered) {
    String id = r.id() == null || r.id().isBlank() ? "call-" + (index + 1) : r.id();
    ToolSpecification spec = offered.get(r.name());
    String raw = r.arguments() == null || r.arguments().isBlank() ? "{}" : r.arguments();
    JsonNode args;
    try {
      args = MAPPER.readTree(raw);
    } catch (Exception e) {
      return new ToolCall(id, r.name(), null, raw, "arguments are not valid JSON: " + raw);
    }
    if (spec == null) {
      return new ToolCall(id, r.name(), args, null, "unknown tool '" + r.name()
          + "'; available tools: " + String.join(", ", offered.keySet()));
    }
    List<String> problems = ToolCallValidator.validate(spec, args);
    if (!problems.isEmpty()) {
      return new ToolCall(id, r.name(), args, null, String.join("; ", problems));
    }
    return ToolCall.of(id, r.name(), args);
  }

  /** Calls the model on this thread while a side thread heartbeats. */
  private static ChatResponse callWithHeartbeats(ChatModel model, ChatRequest request) {
    ActivityExecutionContext context = activityContext();
    ScheduledFuture<?> beats = null;
    if (context != null) {
      long every = HEARTBEAT_INTERVAL.toMillis();
      beats = HEARTBEATS.scheduleAtFixedRate(() -> {
        try {
          context.heartbeat(null);
        } catch (RuntimeException e) {
          // cancelled or timed out: the result will be discarded; nothing more to report
        }
      }, every, every, TimeUnit.MILLISECONDS);
    }
    try {
      return model.chat(request);
    } catch (RuntimeException e) {
      throw toFailure(e);
    } finally {
      if (beats != null) {
        beats.cancel(false);
      }
    }
  }

  private static ActivityExecutionContext activityContext() {
    try {
      return Activity.getExecutionContext();
    } catch (IllegalStateException notInAnActivity) {
      return null;
    }
  }

  /** Maps LangChain4j's exception classes (never message text) to Temporal failures. */
  static RuntimeException toFailure(RuntimeException e) {
    if (e instanceof ApplicationFailure) {
      return e;
    }
    String message = e.getClass().getSimpleName() + ": " + shortMessage(e);
    if (e instanceof NonRetriableException) {
      String type = e instanceof AuthenticationException ? LlmFailureTypes.AUTHENTICATION
          : e instanceof ModelNotFoundException ? LlmFailureTypes.MODEL_NOT_FOUND
          : e instanceof ContentFilteredException ? LlmFailureTypes.CONTENT_FILTERED
          : e instanceof InvalidRequestException ? LlmFailureTypes.INVALID_REQUEST
          : LlmFailureTypes.NON_RETRIABLE;
      return ApplicationFailure.newNonRetryableFailureWithCause(message, type, e);
    }
    String type = e instanceof RateLimitException ? LlmFailureTypes.RATE_LIMITED : LlmFailureTypes.TRANSIENT;
    Duration delay = retryAfter(e).orElse(null);
    return delay == null
        ? ApplicationFailure.newFailureWithCause(message, type, e)
        : ApplicationFailure.newFailureWithCauseAndDelay(message, type, e, delay);
  }

  private static Optional<Duration> retryAfter(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetryAfterHttpException && ((RetryAfterHttpException) t).retryAfter() != null) {
        return Optional.of(((RetryAfterHttpException) t).retryAfter());
      }
    }
    return Optional.empty();
  }

  private static String shortMessage(Throwable e) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    return m.length() > 500 ? m.substring(0, 500) + "..." : m;
  }

  private static List<ChatMessage> toMessages(List<ChatTurn> turns) {
    List<ChatMessage> messages = new ArrayList<>();
    for (ChatTurn t : turns) {
      switch (t.role()) {
        case SYSTEM:
          messages.add(SystemMessage.from(t.text()));
          break;
        case USER:
          messages.add(UserMessage.from(t.text()));
          break;
        case ASSISTANT:
          List<ToolExecutionRequest> requests = new ArrayList<>();
          for (ToolCall c : t.toolCalls()) {
            requests.add(ToolExecutionRequest.builder().id(c.id()).name(c.name())
                .arguments(c.argumentsText()).build());
          }
          if (requests.isEmpty()) {
            messages.add(AiMessage.from(t.text() == null ? "" : t.text()));
          } else if (t.text() == null || t.text().isBlank()) {
            messages.add(AiMessage.from(requests));
          } else {
            messages.add(AiMessage.from(t.text(), requests));
          }
          break;
        case TOOL:
          messages.add(ToolExecutionResultMessage.from(t.toolCallId(), t.toolName(), t.text()));
          break;
        default:
          throw new IllegalArgumentException("unknown role " + t.role());
      }
    }
    return messages;
  }
}
