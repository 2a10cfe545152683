package io.durableagents.activities.llm;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import io.durableagents.activities.heartbeat.WaitingHeartbeats;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.payload.PayloadGuard;
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
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLM activity over LangChain4j's {@link ChatModel}.
 *
 * <p>One call:
 *
 * <ol>
 *   <li>resolves the model reference with the {@link ChatModelProvider} and the tool names with the
 *       {@link ToolRegistry} (their JSON schemas go to the model);
 *   <li>converts our {@link ChatTurn} records to LangChain4j messages and maps {@link ToolChoice}:
 *       {@code PROVIDER_DEFAULT} sends none, {@code NONE}/{@code AUTO}/{@code REQUIRED} send
 *       LangChain4j's; no tool choice is ever sent without tools. Ollama (1.18.1) accepts only AUTO,
 *       so for it NONE drops the tools and REQUIRED is sent as the provider's default;
 *   <li>calls the model while a side thread heartbeats every {@link #HEARTBEAT_INTERVAL};
 *   <li>converts the answer back: text, tool calls, token usage (0 when the provider reports none),
 *       finish reason, latency and the model name the provider reports (else the reference). Every
 *       tool call is checked first: a tool that was not offered, arguments that are not JSON, or
 *       arguments that do not fit the tool's schema come back as a {@link ToolCall} with {@code error}
 *       set, for the agent to correct.
 * </ol>
 *
 * <p>A request for {@link LlmRequest.ResponseFormat#JSON} sets LangChain4j's {@link ResponseFormat#JSON}
 * where the provider has a JSON mode ({@link ProviderRequests#supportsJsonMode}). When such a request also offers tools
 * with tool choice NONE, it is a ReWOO planner call: the answer's plan steps are returned as tool
 * calls, each checked against its tool's schema with placeholders allowed ({@link ReWooPlanCalls}).
 *
 * <p>An empty answer (no text, no tool call) and an answer cut at an output limit (finish reason
 * {@code LENGTH}, or over the {@link PayloadGuard}'s limit) carry a warning ({@link #EMPTY_WARNING},
 * {@link #CUT_WARNING}); a cut one has {@link LlmResponse#cut()} set and is counted ({@code
 * durable_agents_llm_cut_answers}). Every request carries a maximum output length ({@link
 * LlmMaxOutputTokens}: the run's, else the worker's {@code DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS}, else
 * the default of the call's purpose), and the answer says which ({@link LlmResponse#maxOutputTokens()}).
 * A cut ReWOO plan comes back as cut, with no steps and only its head (2000 characters), so that it is
 * rejected as cut (never as broken JSON) and stays small in history.
 *
 * <p>Failures are mapped from LangChain4j's exception classes, never from message text. {@link
 * RetriableException}s (rate limit, time-out, server error) and I/O errors are retryable failures of
 * type {@link LlmFailureTypes#RATE_LIMITED} (HTTP 429), {@link LlmFailureTypes#TIMED_OUT}, {@link
 * LlmFailureTypes#MALFORMED_RESPONSE} (an HTTP 200 that is not a chat completion: Jackson could not
 * parse it, or OpenAI's client found no choices) or {@link LlmFailureTypes#TRANSIENT}, with the
 * provider's {@code Retry-After} as Temporal's next retry delay, until the model's {@link
 * LlmRetryBudget} is spent: then the same failure is thrown non-retryable; {@link NonRetriableException}s are
 * non-retryable failures of type {@link LlmFailureTypes#AUTHENTICATION}, {@link
 * LlmFailureTypes#INVALID_REQUEST}, {@link LlmFailureTypes#MODEL_NOT_FOUND}, {@link
 * LlmFailureTypes#CONTENT_FILTERED} or {@link LlmFailureTypes#NON_RETRIABLE}. A failure's message
 * names the exception, the HTTP status and the provider's error message with any key masked; it never
 * carries the prompt, and the provider's exception is not attached as a cause (its message is the raw
 * response body).
 *
 * <pre>{@code
 * LlmActivitiesImpl llm = new LlmActivitiesImpl(
 *     ChatModelProvider.newBuilder().settings(LlmSettings.fromEnvironment(System.getenv())).build(),
 *     BuiltinTools.registry(Path.of("data")));
 * worker.registerActivitiesImplementations(llm);
 * }</pre>
 */
public final class LlmActivitiesImpl implements LlmActivities {
  /** How often a waiting call heartbeats; well under {@code LlmCallOptions.HEARTBEAT_TIMEOUT}. */
  public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(LlmActivitiesImpl.class);

  private final ChatModelProvider models;
  private final ToolRegistry tools;
  private final AgentMetrics metrics;
  private final PayloadGuard guard;
  private final LlmCallRateLimiter rateLimiter;
  private final ModelSlots slots;

  /** An activity with no metrics and the default payload guard. */
  public LlmActivitiesImpl(ChatModelProvider models, ToolRegistry tools) {
    this(models, tools, AgentMetrics.none(), PayloadGuard.defaults());
  }

  public LlmActivitiesImpl(
      ChatModelProvider models, ToolRegistry tools, AgentMetrics metrics, PayloadGuard guard) {
    this(models, tools, metrics, guard, null);
  }

  /**
   * An activity whose calls to the model start within {@code rateLimiter} (null: no limit), this worker
   * process's share of {@code DURABLE_AGENTS_LLM_RATE_LIMIT}.
   */
  public LlmActivitiesImpl(ChatModelProvider models, ToolRegistry tools, AgentMetrics metrics,
      PayloadGuard guard, LlmCallRateLimiter rateLimiter) {
    this(models, tools, metrics, guard, rateLimiter, ModelSlots.NONE);
  }

  /**
   * An activity whose calls also wait for one of their model's {@code slots} ({@code
   * DURABLE_AGENTS_LLM_SLOTS}) before they are sent; the wait counts against none of the call's limits.
   */
  public LlmActivitiesImpl(ChatModelProvider models, ToolRegistry tools, AgentMetrics metrics,
      PayloadGuard guard, LlmCallRateLimiter rateLimiter, ModelSlots slots) {
    this.models = models;
    this.tools = tools;
    this.metrics = metrics;
    this.guard = guard;
    this.rateLimiter = rateLimiter;
    this.slots = slots == null ? ModelSlots.NONE : slots;
  }

  @Override
  public LlmResponse chat(LlmRequest request) {
    // One clock for the call's attempts: what it waited for a slot is shown, and counted against nothing.
    LlmCallClock clock = LlmCallClock.of(activityContext(), request.model(), models.settings());
    return answer(request, clock).withSlotWait(clock.slotWait().toMillis());
  }

  private LlmResponse answer(LlmRequest request, LlmCallClock clock) {
    ChatModel model = models.get(request.model());
    List<ToolSpecification> specs;
    List<ChatMessage> messages;
    try {
      specs = tools.specifications(request.tools());
    } catch (IllegalArgumentException e) {
      // Another worker may have the tool; this one never will: retrying here cannot help.
      throw ApplicationFailure.newNonRetryableFailure(
          String.valueOf(e.getMessage()), LlmFailureTypes.UNKNOWN_TOOLS);
    }
    try {
      // Anthropic rejects tool_use/tool_result blocks in a request that defines no tools (ReAct's
      // forced finish, CoT's answer call, a solver): there the tool turns go as plain text.
      messages = ChatTurnMessages.toMessages(request.messages(),
          specs.isEmpty() && model.provider() == ModelProvider.ANTHROPIC);
    } catch (IllegalArgumentException e) {
      // The workflow asked for something this worker can never send: retrying cannot help.
      throw ApplicationFailure.newNonRetryableFailure(
          String.valueOf(e.getMessage()), LlmFailureTypes.INVALID_REQUEST);
    }
    ChatRequest.Builder chat = ChatRequest.builder().messages(messages);
    ProviderRequests.offerTools(chat, specs, request.toolChoice(), model.provider());
    if (request.responseFormat() == LlmRequest.ResponseFormat.JSON && ProviderRequests.supportsJsonMode(model.provider())) {
      chat.responseFormat(ResponseFormat.JSON);
    }
    if (request.temperature() != null) {
      chat.temperature(request.temperature());
    }
    // the run's maximum output length, else the worker's for the model, else the kind of call's default
    Integer maxOutputTokens = models.settings().maxOutputTokens().forRequest(request);
    if (maxOutputTokens != null) {
      ProviderRequests.maxOutputTokens(chat, maxOutputTokens, request.model(), model.provider(), models.settings());
    }

    long start = System.nanoTime();
    ChatResponse response;
    try {
      response = callWithHeartbeats(model, chat.build(), request.model(), clock);
    } catch (ApplicationFailure failed) {
      Duration latency = Duration.ofNanos(System.nanoTime() - start).minus(clock.slotWait());
      ApplicationFailure f = clock.withinBudget(failed, latency);
      log.warn("llm call to {} ({}) failed after {} ms ({}{}): {}", request.model(), request.purpose(),
          latency.toMillis(), f.getType(), f.isNonRetryable() ? ", not retried" : ", Temporal retries it",
          f.getOriginalMessage());
      metrics.llmCall(request.model(), request.purpose(), f.getType(), latency, null);
      throw f;
    } catch (ActivityCompletionException stopped) {
      log.info("llm call to {} ({}) stopped: {}", request.model(), request.purpose(),
          stopped.getClass().getSimpleName());
      metrics.llmCall(request.model(), request.purpose(), stopped.getClass().getSimpleName(),
          Duration.ofNanos(System.nanoTime() - start).minus(clock.slotWait()), null);
      throw stopped;
    }
    // The model's time: the wait for a slot is not the model's latency.
    long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) - clock.slotWait().toMillis();

    AiMessage ai = response.aiMessage();
    String text = ai == null ? null : ai.text();
    boolean cutByModel = response.finishReason() == FinishReason.LENGTH;
    boolean cutByWorker = guard.wouldCut(text);
    List<String> warnings = new ArrayList<>(WarningChatResponseMetadata.of(response.metadata()));
    List<ToolCall> calls = new ArrayList<>();
    if ((cutByModel || cutByWorker) && ai != null && !ai.hasToolExecutionRequests()
        && ProviderRequests.isPlanRequest(request, specs)) {
      // A cut plan is not a plan: it is reported as cut, and only its head is kept, so that the
      // result stays small and no marker lands inside the JSON.
      String why = cutByModel ? "at the model's output limit (finish reason length" + limit(maxOutputTokens, request) + ")"
          : "at the worker's output limit of " + guard.maxBytes() + " bytes (DURABLE_AGENTS_MAX_OUTPUT_BYTES)";
      warnings.add(CUT_WARNING + ": the plan was cut " + why);
      TokenUsage usage = usage(response.tokenUsage());
      metrics.llmCall(request.model(), request.purpose(), "ok", Duration.ofMillis(latency), usage);
      metrics.llmCut(request.model(), request.purpose(), cutByModel ? "model" : "worker");
      return new LlmResponse(modelName(response, request), head(text, CUT_PLAN_KEPT_CHARS), List.of(), usage,
          response.finishReason() == null ? null : response.finishReason().name(), latency, warnings, true,
          maxOutputTokens);
    }
    if (ai != null && ai.hasToolExecutionRequests()) {
      Map<String, ToolSpecification> offered = new LinkedHashMap<>();
      specs.forEach(s -> offered.put(s.name(), s));
      int index = 0;
      for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
        calls.add(ToolCallCheck.checkToolCall(r, index++, offered));
      }
    } else if (ai != null && ProviderRequests.isPlanRequest(request, specs)) {
      // A ReWOO plan: its steps come back as tool calls checked against the schemas, which only
      // this module has, so the workflow can reject a bad plan before any tool runs.
      Map<String, ToolSpecification> offered = new LinkedHashMap<>();
      specs.forEach(s -> offered.put(s.name(), s));
      calls.addAll(ReWooPlanCalls.check(ai.text(), offered));
    }
    TokenUsage usage = usage(response.tokenUsage());
    String modelName = modelName(response, request);
    metrics.llmCall(request.model(), request.purpose(), "ok", Duration.ofMillis(latency), usage);
    log.debug("llm call to {} ({}): {} in / {} out tokens, {} tool calls, {} ms", request.model(),
        request.purpose(), usage.input(), usage.output(), calls.size(), latency);
    if (cutByModel) {
      warnings.add(CUT_WARNING + ": the answer was cut at the model's output limit (finish reason length"
          + limit(maxOutputTokens, request) + ")");
    }
    if (cutByWorker) {
      warnings.add(CUT_WARNING + ": the answer was cut at the worker's output limit of " + guard.maxBytes()
          + " bytes (DURABLE_AGENTS_MAX_OUTPUT_BYTES)");
    }
    if (cutByModel || cutByWorker) {
      metrics.llmCut(request.model(), request.purpose(), cutByModel ? "model" : "worker");
    }
    if ((text == null || text.isBlank()) && calls.isEmpty()) {
      warnings.add(EMPTY_WARNING + ": the model answered nothing (no text and no tool call)");
    }
    return new LlmResponse(modelName, guard.check("the model's answer", text),
        calls, usage, response.finishReason() == null ? null : response.finishReason().name(), latency,
        warnings, cutByModel || cutByWorker ? Boolean.TRUE : null, maxOutputTokens);
  }

  /** The warning that starts with this says an answer was cut at an output limit. */
  public static final String CUT_WARNING = "cut answer";
  /** The warning that starts with this says the model answered nothing. */
  public static final String EMPTY_WARNING = "empty answer";
  /** How much of a cut plan is kept in the result: enough to see what it was, small in history. */
  static final int CUT_PLAN_KEPT_CHARS = 2000;

  /** The maximum a cut answer reached, and what raises it, for its warning. */
  private static String limit(Integer maxOutputTokens, LlmRequest request) {
    if (maxOutputTokens == null) {
      return "; no maximum was sent: the model's own limit";
    }
    return ", at " + maxOutputTokens + " tokens for " + request.purpose() + ": "
        + (request.maxOutputTokens() != null ? "the run's --max-output-tokens" : LlmMaxOutputTokens.VARIABLE)
        + " raises it";
  }

  private static String modelName(ChatResponse response, LlmRequest request) {
    return response.metadata() != null && response.metadata().modelName() != null
        ? response.metadata().modelName() : request.model();
  }

  private static String head(String text, int chars) {
    if (text == null || text.length() <= chars) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(chars - 1)) ? chars - 1 : chars;
    return text.substring(0, end) + "\n[cut: " + text.length() + " characters, the first " + end + " kept]";
  }

  private static TokenUsage usage(dev.langchain4j.model.output.TokenUsage u) {
    if (u == null) {
      return TokenUsage.ZERO;
    }
    return new TokenUsage(u.inputTokenCount() == null ? 0 : u.inputTokenCount(),
        u.outputTokenCount() == null ? 0 : u.outputTokenCount());
  }

  /**
   * How long after the server handed out an attempt its first heartbeat may wait for the heartbeats'
   * interval ({@link #HEARTBEAT_INTERVAL}); past it (a worker too busy to start the call at once, or
   * clocks that disagree) the first goes out at once. Well under {@code LlmCallOptions.HEARTBEAT_TIMEOUT}.
   */
  static final Duration FIRST_HEARTBEAT_SLACK = Duration.ofSeconds(2);

  /**
   * Whether an attempt the server handed out at {@code startedMillis} (its clock; 0 when unknown) must
   * heartbeat at once, {@code nowMillis} being this worker's clock: when it has waited more than {@link
   * #FIRST_HEARTBEAT_SLACK} since, or the clocks cannot be compared.
   */
  static boolean heartbeatAtOnce(long startedMillis, long nowMillis) {
    long since = nowMillis - startedMillis;
    return startedMillis <= 0 || since < 0 || since > FIRST_HEARTBEAT_SLACK.toMillis();
  }

  /**
   * Calls the model on this thread while a side thread heartbeats, carrying what the call's earlier
   * attempts waited ({@link LlmCallWaits}). The first heartbeat goes out after {@link #HEARTBEAT_INTERVAL},
   * so that a call of less than a second sends none (a heartbeat is a request to the server and a write to
   * its database: at every call, they had become most of what an agent step cost the dev server); at once
   * when the attempt was handed out more than {@link #FIRST_HEARTBEAT_SLACK} ago ({@link
   * #heartbeatAtOnce}): the server's heartbeat timeout runs from then, however busy this worker is. The call then
   * waits for one of its model's slots ({@link ModelSlots}; a cancelled or timed-out activity stops
   * waiting and takes none) and within the worker's rate limit, then waits for the model no longer than
   * its clock allows ({@link LlmCallClock#attemptLimit()}: the per-attempt time-out, or what is left of the
   * retry budget): the wait is cut there, and the call fails as timed out, saying which limit ended it.
   * The slot is given back however the call ends.
   */
  private ChatResponse callWithHeartbeats(ChatModel model, ChatRequest request, String modelReference,
      LlmCallClock clock) {
    ActivityExecutionContext context = activityContext();
    // A local activity's heartbeat is a no-op: nothing to keep alive.
    WaitingHeartbeats beats = context == null || context.getInfo().isLocal() ? null
        : heartbeatAtOnce(context.getInfo().getStartedTimestamp(), System.currentTimeMillis())
            ? WaitingHeartbeats.startNow(context, HEARTBEAT_INTERVAL, clock.waits())
            : WaitingHeartbeats.start(context, HEARTBEAT_INTERVAL, clock.waits());
    ChatResponse response = null;
    RuntimeException failure = null;
    ActivityCompletionException stoppedHere = null;
    long sent = 0;
    try {
      ModelSlots.Slot slot = takeSlot(modelReference, context, clock);
      AtomicInteger running = slot == ModelSlots.Slot.FREE ? null : metrics.llmSlotCalls(modelReference, "running");
      try {
        if (running != null) {
          running.incrementAndGet();
          metrics.llmSlotWait(modelReference, slot.waited());
        }
        clock.slotWaited(slot.waited());
        if (beats != null && !slot.waited().isZero()) {
          // The next attempt leaves this wait out of the retry budget.
          beats.details(clock.waits());
        }
        if (rateLimiter != null) {
          // Waits within the worker's rate limit; the side thread heartbeats meanwhile.
          rateLimiter.acquire();
        }
        if (beats != null) {
          beats.cutAfter(clock.attemptLimit());
        }
        sent = System.nanoTime();
        response = model.chat(request);
      } finally {
        slot.close();
        if (running != null) {
          running.decrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new IllegalStateException("interrupted while waiting for a slot or the LLM rate limit", e);
    } catch (ActivityCompletionException e) {
      // A heartbeat of this thread found the activity cancelled or timed out.
      stoppedHere = e;
    } catch (RuntimeException e) {
      failure = e;
    }
    Optional<ActivityCompletionException> stopped = beats == null ? Optional.empty() : beats.stop();
    if (stopped.isPresent()) {
      // Cancelled or timed out: whatever the call produced is no longer wanted.
      throw stopped.get();
    }
    if (stoppedHere != null) {
      throw stoppedHere;
    }
    if (response == null && beats != null && beats.wasCut()) {
      throw clock.timedOut(null);
    }
    if (failure != null) {
      log.debug("llm call failed", failure);
      ApplicationFailure f = LlmFailures.toFailure(failure, models.settings());
      if (!(failure instanceof ApplicationFailure) && LlmFailureTypes.TIMED_OUT.equals(f.getType()) && sent != 0
          && Duration.ofNanos(System.nanoTime() - sent).compareTo(clock.attemptLimit().multipliedBy(9).dividedBy(10)) >= 0) {
        // The HTTP client's time-out, which is DURABLE_AGENTS_LLM_TIMEOUT too: say which limit, and its
        // variable. An earlier one is the model's own (a registered model's client), left as it says.
        f = clock.timedOut(f.getOriginalMessage());
      }
      throw f;
    }
    return response;
  }

  /**
   * Waits for one of the model's slots, heartbeating meanwhile (the side thread), and counts the wait in
   * the metrics; {@link ModelSlots.Slot#FREE} when slots are not set.
   */
  private ModelSlots.Slot takeSlot(String modelReference, ActivityExecutionContext context, LlmCallClock clock)
      throws InterruptedException {
    if (slots == ModelSlots.NONE) {
      return ModelSlots.Slot.FREE;
    }
    AtomicInteger waiting = metrics.llmSlotCalls(modelReference, "waiting");
    waiting.incrementAndGet();
    try {
      // Held at most one attempt's limit and a margin: past it the holder is gone (its worker died).
      return slots.acquire(modelReference, LlmCallClock.holder(context), clock.attemptLimit().plus(SLOT_HOLD_MARGIN));
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** What a slot is held past its call's limit before it is taken back. */
  static final Duration SLOT_HOLD_MARGIN = Duration.ofSeconds(30);

  private static ActivityExecutionContext activityContext() {
    try {
      return Activity.getExecutionContext();
    } catch (IllegalStateException notInAnActivity) {
      return null;
    }
  }
}
