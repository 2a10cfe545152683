package io.durableagents.activities.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import io.durableagents.activities.heartbeat.WaitingHeartbeats;
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
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
 * where the provider has a JSON mode ({@link #supportsJsonMode}). When such a request also offers tools
 * with tool choice NONE, it is a ReWOO planner call: the answer's plan steps are returned as tool
 * calls, each checked against its tool's schema with placeholders allowed ({@link ReWooPlanCalls}).
 *
 * <p>An empty answer (no text, no tool call) and an answer cut at an output limit (finish reason
 * {@code LENGTH}, or over the {@link PayloadGuard}'s limit) carry a warning ({@link #EMPTY_WARNING},
 * {@link #CUT_WARNING}); a cut one has {@link LlmResponse#cut()} set. A cut ReWOO plan comes back as
 * cut, with no steps and only its head (2000 characters), so that it is
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

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Logger log = LoggerFactory.getLogger(LlmActivitiesImpl.class);
  private static final int MAX_DETAIL_CHARS = 300;
  /**
   * Key-like tokens in a provider's error text, such as OpenAI's masked {@code sk-proj-****abcd}
   * (OpenAI's and Anthropic's keys start with {@code sk-}); configured keys are masked as a whole.
   */
  private static final Pattern KEY_LIKE = Pattern.compile("\\bsk-[A-Za-z0-9_*\\-]{3,}");

  private final ChatModelProvider models;
  private final ToolRegistry tools;
  private final AgentMetrics metrics;
  private final PayloadGuard guard;
  private final LlmCallRateLimiter rateLimiter;

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
    this.models = models;
    this.tools = tools;
    this.metrics = metrics;
    this.guard = guard;
    this.rateLimiter = rateLimiter;
  }

  @Override
  public LlmResponse chat(LlmRequest request) {
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
      messages = toMessages(request.messages(),
          specs.isEmpty() && model.provider() == ModelProvider.ANTHROPIC);
    } catch (IllegalArgumentException e) {
      // The workflow asked for something this worker can never send: retrying cannot help.
      throw ApplicationFailure.newNonRetryableFailure(
          String.valueOf(e.getMessage()), LlmFailureTypes.INVALID_REQUEST);
    }
    ChatRequest.Builder chat = ChatRequest.builder().messages(messages);
    offerTools(chat, specs, request.toolChoice(), model.provider());
    if (request.responseFormat() == LlmRequest.ResponseFormat.JSON && supportsJsonMode(model.provider())) {
      chat.responseFormat(ResponseFormat.JSON);
    }
    if (request.temperature() != null) {
      chat.temperature(request.temperature());
    }

    long start = System.nanoTime();
    ChatResponse response;
    try {
      response = callWithHeartbeats(model, chat.build(), request.model());
    } catch (ApplicationFailure failed) {
      Duration latency = Duration.ofNanos(System.nanoTime() - start);
      ApplicationFailure f = withinRetryBudget(failed, request.model(), latency);
      log.warn("llm call to {} ({}) failed after {} ms ({}{}): {}", request.model(), request.purpose(),
          latency.toMillis(), f.getType(), f.isNonRetryable() ? ", not retried" : ", Temporal retries it",
          f.getOriginalMessage());
      metrics.llmCall(request.model(), request.purpose(), f.getType(), latency, null);
      throw f;
    } catch (ActivityCompletionException stopped) {
      log.info("llm call to {} ({}) stopped: {}", request.model(), request.purpose(),
          stopped.getClass().getSimpleName());
      metrics.llmCall(request.model(), request.purpose(), stopped.getClass().getSimpleName(),
          Duration.ofNanos(System.nanoTime() - start), null);
      throw stopped;
    }
    long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    AiMessage ai = response.aiMessage();
    String text = ai == null ? null : ai.text();
    boolean cutByModel = response.finishReason() == FinishReason.LENGTH;
    boolean cutByWorker = guard.wouldCut(text);
    List<String> warnings = new ArrayList<>(WarningChatResponseMetadata.of(response.metadata()));
    List<ToolCall> calls = new ArrayList<>();
    if ((cutByModel || cutByWorker) && ai != null && !ai.hasToolExecutionRequests()
        && isPlanRequest(request, specs)) {
      // A cut plan is not a plan: it is reported as cut, and only its head is kept, so that the
      // result stays small and no marker lands inside the JSON.
      String why = cutByModel ? "at the model's output limit (finish reason length)"
          : "at the worker's output limit of " + guard.maxBytes() + " bytes (DURABLE_AGENTS_MAX_OUTPUT_BYTES)";
      warnings.add(CUT_WARNING + ": the plan was cut " + why);
      TokenUsage usage = usage(response.tokenUsage());
      metrics.llmCall(request.model(), request.purpose(), "ok", Duration.ofMillis(latency), usage);
      return new LlmResponse(modelName(response, request), head(text, CUT_PLAN_KEPT_CHARS), List.of(), usage,
          response.finishReason() == null ? null : response.finishReason().name(), latency, warnings, true);
    }
    if (ai != null && ai.hasToolExecutionRequests()) {
      Map<String, ToolSpecification> offered = new LinkedHashMap<>();
      specs.forEach(s -> offered.put(s.name(), s));
      int index = 0;
      for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
        calls.add(checkToolCall(r, index++, offered));
      }
    } else if (ai != null && isPlanRequest(request, specs)) {
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
      warnings.add(CUT_WARNING + ": the answer was cut at the model's output limit (finish reason length)");
    }
    if (cutByWorker) {
      warnings.add(CUT_WARNING + ": the answer was cut at the worker's output limit of " + guard.maxBytes()
          + " bytes (DURABLE_AGENTS_MAX_OUTPUT_BYTES)");
    }
    if ((text == null || text.isBlank()) && calls.isEmpty()) {
      warnings.add(EMPTY_WARNING + ": the model answered nothing (no text and no tool call)");
    }
    return new LlmResponse(modelName, guard.check("the model's answer", text),
        calls, usage, response.finishReason() == null ? null : response.finishReason().name(), latency,
        warnings, cutByModel || cutByWorker ? Boolean.TRUE : null);
  }

  /** The warning that starts with this says an answer was cut at an output limit. */
  public static final String CUT_WARNING = "cut answer";
  /** The warning that starts with this says the model answered nothing. */
  public static final String EMPTY_WARNING = "empty answer";
  /** How much of a cut plan is kept in the result: enough to see what it was, small in history. */
  static final int CUT_PLAN_KEPT_CHARS = 2000;

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

  /**
   * {@code failure}, or when it is retryable but the next attempt would start after the model's retry
   * budget ({@link LlmRetryBudget}), or this was the last attempt, the same failure as non-retryable with
   * how many attempts were made in how long. The time before this attempt is read from the server's
   * timestamps (so it holds in a time-skipping test too), this attempt's from the local clock.
   */
  private ApplicationFailure withinRetryBudget(ApplicationFailure failure, String model, Duration thisAttempt) {
    ActivityExecutionContext context = activityContext();
    if (failure.isNonRetryable() || context == null || context.getInfo().isLocal()) {
      return failure;
    }
    var info = context.getInfo();
    int attempt = info.getAttempt();
    // This attempt's start (after the backoff before it), both on the server's clock.
    long attemptStart = Math.max(info.getStartedTimestamp(), info.getCurrentAttemptScheduledTimestamp());
    Duration before = Duration.ofMillis(Math.max(0, attemptStart - info.getScheduledTimestamp()));
    Duration elapsed = before.plus(thisAttempt);
    Duration next = LlmRetryBudget.backoffAfter(attempt);
    if (failure.getNextRetryDelay() != null && failure.getNextRetryDelay().compareTo(next) > 0) {
      next = failure.getNextRetryDelay();
    }
    Duration budget = models.settings().retryBudget().of(model);
    boolean lastAttempt = attempt >= io.durableagents.workflows.llm.LlmCallOptions.MAXIMUM_ATTEMPTS;
    if (!lastAttempt && elapsed.plus(next).compareTo(budget) <= 0) {
      return failure;
    }
    String why = lastAttempt ? "the last of " + attempt + " attempts"
        : "the next attempt would start after the retry budget of " + budget.toSeconds() + " s for " + model
            + " (" + LlmRetryBudget.VARIABLE + ")";
    return ApplicationFailure.newBuilder()
        .setMessage(failure.getOriginalMessage() + " (gave up after " + attempt
            + (attempt == 1 ? " attempt" : " attempts") + " in " + Math.max(1, Math.round(elapsed.toMillis() / 1000.0))
            + " s: " + why + ")")
        .setType(failure.getType()).setNonRetryable(true).build();
  }

  /**
   * Whether {@code provider} takes LangChain4j's schemaless {@link ResponseFormat#JSON}: OpenAI and
   * OpenAI-compatible servers ({@code response_format: json_object}), Ollama ({@code format: json}), and
   * models registered by name ({@code OTHER}: the offline rules model, test models), which read it from
   * the request. Anthropic's client (LangChain4j 1.19) throws {@code UnsupportedFeatureException}
   * ("Schemaless JSON response format") for it, so it is not sent there: the planner prompt asks for
   * JSON in words, and the answer is parsed the same way.
   */
  static boolean supportsJsonMode(ModelProvider provider) {
    return provider == ModelProvider.OPEN_AI || provider == ModelProvider.OLLAMA
        || provider == ModelProvider.OTHER;
  }

  /**
   * A JSON-format request that offers tools the model may not call (tool choice NONE) asks for a
   * ReWOO plan of those tools: its answer is read as one.
   */
  static boolean isPlanRequest(LlmRequest request, List<ToolSpecification> specs) {
    return request.responseFormat() == LlmRequest.ResponseFormat.JSON && !specs.isEmpty()
        && request.toolChoice() == ToolChoice.NONE;
  }

  /**
   * Offers the tools with the tool choice the request asks for. Never sends a tool choice without
   * tools. Ollama's client (1.18.1) throws {@code UnsupportedFeatureException} for any choice but AUTO:
   * there NONE is honoured by not offering the tools, and REQUIRED falls back to the provider's default.
   */
  static void offerTools(
      ChatRequest.Builder chat, List<ToolSpecification> specs, ToolChoice choice, ModelProvider provider) {
    if (specs.isEmpty()) {
      return;
    }
    boolean onlyAuto = provider == ModelProvider.OLLAMA;
    switch (choice) {
      case PROVIDER_DEFAULT:
        chat.toolSpecifications(specs);
        break;
      case NONE:
        if (!onlyAuto) {
          chat.toolSpecifications(specs).toolChoice(dev.langchain4j.model.chat.request.ToolChoice.NONE);
        }
        break;
      case AUTO:
        chat.toolSpecifications(specs).toolChoice(dev.langchain4j.model.chat.request.ToolChoice.AUTO);
        break;
      case REQUIRED:
        chat.toolSpecifications(specs);
        if (!onlyAuto) {
          chat.toolChoice(dev.langchain4j.model.chat.request.ToolChoice.REQUIRED);
        }
        break;
      default:
        throw new IllegalStateException("unmapped tool choice " + choice);
    }
  }

  /** Checks one tool call of the model against the tools it was offered. */
  static ToolCall checkToolCall(
      ToolExecutionRequest r, int index, Map<String, ToolSpecification> offered) {
    // Deterministic, so that a replayed or retried step names the call the same way.
    String id = r.id() == null || r.id().isBlank() ? "call-" + (index + 1) : r.id();
    String name = r.name();
    String raw = r.arguments() == null || r.arguments().isBlank() ? "{}" : r.arguments();
    JsonNode args;
    String parseError = null;
    try {
      args = MAPPER.readTree(raw);
    } catch (JsonProcessingException e) {
      args = null;
      parseError = e.getOriginalMessage();
    }
    ToolSpecification spec = offered.get(name);
    if (spec == null) {
      return new ToolCall(id, name, args, args == null ? raw : null, "unknown tool '" + name
          + "'; available tools: " + (offered.isEmpty() ? "none" : String.join(", ", offered.keySet())));
    }
    if (args == null) {
      return new ToolCall(id, name, null, raw,
          "the arguments of " + name + " are not valid JSON (" + firstLine(parseError) + ")");
    }
    List<String> problems = ToolCallValidator.validate(spec, args);
    if (!problems.isEmpty()) {
      return new ToolCall(id, name, args, null,
          "the arguments of " + name + " do not fit its schema: " + String.join("; ", problems));
    }
    return ToolCall.of(id, name, args);
  }

  private static TokenUsage usage(dev.langchain4j.model.output.TokenUsage u) {
    if (u == null) {
      return TokenUsage.ZERO;
    }
    return new TokenUsage(u.inputTokenCount() == null ? 0 : u.inputTokenCount(),
        u.outputTokenCount() == null ? 0 : u.outputTokenCount());
  }

  /**
   * Calls the model on this thread while a side thread heartbeats. The first heartbeat goes out before
   * the call: the server's heartbeat timeout runs from when it handed out the task, however busy this
   * worker is. A retry gets no more than what is left of the model's retry budget ({@link
   * #budgetLeft}): the wait is cut there, and the call fails as timed out.
   */
  private ChatResponse callWithHeartbeats(ChatModel model, ChatRequest request, String modelReference) {
    ActivityExecutionContext context = activityContext();
    // A local activity's heartbeat is a no-op: nothing to keep alive.
    WaitingHeartbeats beats = context == null || context.getInfo().isLocal()
        ? null : WaitingHeartbeats.startNow(context, HEARTBEAT_INTERVAL);
    Duration left = beats == null ? null : budgetLeft(context, modelReference);
    if (left != null) {
      beats.cutAfter(left);
    }
    ChatResponse response = null;
    RuntimeException failure = null;
    try {
      if (rateLimiter != null) {
        // Waits within the worker's rate limit; the side thread heartbeats meanwhile.
        rateLimiter.acquire();
      }
      response = model.chat(request);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new IllegalStateException("interrupted while waiting for the LLM rate limit", e);
    } catch (RuntimeException e) {
      failure = e;
    }
    Optional<ActivityCompletionException> stopped = beats == null ? Optional.empty() : beats.stop();
    if (stopped.isPresent()) {
      // Cancelled or timed out: whatever the call produced is no longer wanted.
      throw stopped.get();
    }
    if (response == null && beats != null && beats.wasCut()) {
      throw ApplicationFailure.newBuilder().setType(LlmFailureTypes.TIMED_OUT).setNonRetryable(false)
          .setMessage("no answer within the " + seconds(left) + " s left of the retry budget of "
              + seconds(models.settings().retryBudget().of(modelReference)) + " s for " + modelReference
              + " (" + LlmRetryBudget.VARIABLE + ")")
          .build();
    }
    if (failure != null) {
      log.debug("llm call failed", failure);
      throw toFailure(failure, models.settings());
    }
    return response;
  }

  /**
   * How long a retry of a call may wait for the model: what is left of the model's retry budget since
   * its first attempt was scheduled (at least {@link #MINIMUM_LAST_ATTEMPT}), when that is less than
   * {@code DURABLE_AGENTS_LLM_TIMEOUT}; null for a first attempt (it always gets the whole time-out, even
   * with a budget of 0) or when the time-out ends the attempt first. So the budget bounds the whole call,
   * the last attempt included: a model server that never answers ends the call about the budget after
   * it began, not one time-out later.
   */
  private Duration budgetLeft(ActivityExecutionContext context, String model) {
    var info = context.getInfo();
    if (info.getAttempt() <= 1) {
      return null;
    }
    long attemptStart = Math.max(info.getStartedTimestamp(), info.getCurrentAttemptScheduledTimestamp());
    Duration before = Duration.ofMillis(Math.max(0, attemptStart - info.getScheduledTimestamp()));
    Duration left = models.settings().retryBudget().of(model).minus(before);
    if (left.compareTo(MINIMUM_LAST_ATTEMPT) < 0) {
      left = MINIMUM_LAST_ATTEMPT;
    }
    return left.compareTo(models.settings().timeout()) < 0 ? left : null;
  }

  /** The least time a retry that the budget let start may wait for the model. */
  static final Duration MINIMUM_LAST_ATTEMPT = Duration.ofSeconds(1);

  private static long seconds(Duration d) {
    return Math.max(1, Math.round(d.toMillis() / 1000.0));
  }

  private static ActivityExecutionContext activityContext() {
    try {
      return Activity.getExecutionContext();
    } catch (IllegalStateException notInAnActivity) {
      return null;
    }
  }

  /**
   * Maps an exception of a model call to a Temporal failure, by LangChain4j's exception classes
   * (never by message text). An {@link ApplicationFailure} (a registered model may throw one) is kept.
   */
  static ApplicationFailure toFailure(RuntimeException e, LlmSettings settings) {
    if (e instanceof ApplicationFailure) {
      return (ApplicationFailure) e;
    }
    String message = describe(e, settings);
    if (e instanceof NonRetriableException) {
      // ContentFilteredException extends InvalidRequestException: test it first.
      String type = e instanceof AuthenticationException ? LlmFailureTypes.AUTHENTICATION
          : e instanceof ModelNotFoundException ? LlmFailureTypes.MODEL_NOT_FOUND
          : e instanceof ContentFilteredException ? LlmFailureTypes.CONTENT_FILTERED
          : e instanceof InvalidRequestException ? LlmFailureTypes.INVALID_REQUEST
          : LlmFailureTypes.NON_RETRIABLE;
      return ApplicationFailure.newBuilder().setMessage(message).setType(type).setNonRetryable(true).build();
    }
    if (e instanceof UnsupportedFeatureException) {
      // The provider cannot do what the request asks (a parameter, a message kind): no retry can help.
      return ApplicationFailure.newBuilder().setMessage(message)
          .setType(LlmFailureTypes.INVALID_REQUEST).setNonRetryable(true).build();
    }
    // RetriableException and its subclasses, I/O errors (connection refused or reset), and anything
    // else LangChain4j did not classify: retried by Temporal within the bounded retry policy.
    boolean answered = find(e, HttpException.class) == null;
    String type;
    if (e instanceof RateLimitException) {
      type = LlmFailureTypes.RATE_LIMITED;
    } else if (e instanceof dev.langchain4j.exception.TimeoutException) {
      type = LlmFailureTypes.TIMED_OUT;
    } else if (answered && (find(e, JsonProcessingException.class) != null
        || e instanceof dev.langchain4j.exception.InternalServerException)) {
      // HTTP 200 with a body that is not a chat completion (a proxy's HTML page, plain text; OpenAI's
      // client throws InternalServerException "no choices returned" without an HTTP error).
      type = LlmFailureTypes.MALFORMED_RESPONSE;
      message = "the model server's answer is not a chat completion: " + message;
    } else {
      type = LlmFailureTypes.TRANSIENT;
    }
    ApplicationFailure.Builder failure =
        ApplicationFailure.newBuilder().setMessage(message).setType(type).setNonRetryable(false);
    retryAfter(e).ifPresent(failure::setNextRetryDelay);
    return failure.build();
  }

  /** The provider's Retry-After, found on the {@link RetryAfterHttpException} in the cause chain. */
  static Optional<Duration> retryAfter(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetryAfterHttpException && ((RetryAfterHttpException) t).retryAfter() != null) {
        return Optional.of(((RetryAfterHttpException) t).retryAfter());
      }
    }
    return Optional.empty();
  }

  /**
   * A failure message without the prompt or a key: the exception's class, the HTTP status and the
   * provider's own error message (not the raw body); or, without an HTTP answer, the classes of the
   * causes and the first real message among them. Keys are masked and the detail is cut at {@value
   * #MAX_DETAIL_CHARS} characters.
   */
  static String describe(Throwable e, LlmSettings settings) {
    StringBuilder m = new StringBuilder(e.getClass().getSimpleName());
    HttpException http = find(e, HttpException.class);
    String detail;
    if (http != null) {
      m.append(" (HTTP ").append(http.statusCode()).append(')');
      detail = providerMessage(http.getMessage());
    } else {
      detail = causes(e);
    }
    if (detail != null && !detail.isBlank()) {
      // One line: a parser's message ends with its location on lines of their own, and a failure's
      // first line is what the command line prints, the note of how many attempts were made included.
      String clean = KEY_LIKE.matcher(settings.redact(detail)).replaceAll("***")
          .replaceAll("\\s*\\R\\s*", " ").strip();
      m.append(": ").append(clean.length() > MAX_DETAIL_CHARS
          ? clean.substring(0, MAX_DETAIL_CHARS) + "..." : clean);
    }
    return m.toString();
  }

  /**
   * The causes of {@code e} and the first message that says more than a class name, e.g. {@code
   * ConnectException <- ClosedChannelException} or {@code HttpTimeoutException: request timed out}.
   */
  private static String causes(Throwable e) {
    StringBuilder chain = new StringBuilder();
    String message = null;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t != e) {
        chain.append(chain.length() == 0 ? "" : " <- ").append(t.getClass().getSimpleName());
      }
      String m = t.getMessage();
      boolean onlyNamesTheCause = t.getCause() != null && t.getCause().toString().equals(m);
      if (message == null && m != null && !m.isBlank() && !onlyNamesTheCause) {
        message = m;
      }
    }
    return chain + (message == null ? "" : (chain.length() == 0 ? "" : ": ") + message);
  }

  /** The message in a provider's error body: OpenAI's and Anthropic's error.message, Ollama's error. */
  private static String providerMessage(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode json = MAPPER.readTree(body);
      JsonNode error = json.path("error");
      if (error.isTextual()) {
        return error.asText();
      }
      if (error.path("message").isTextual()) {
        return error.path("message").asText();
      }
      if (json.path("message").isTextual()) {
        return json.path("message").asText();
      }
      if (error.path("type").isTextual()) {
        return error.path("type").asText();
      }
    } catch (JsonProcessingException notJson) {
      // fall through: a plain-text body (e.g. a proxy's error page)
    }
    return firstLine(body);
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }

  /** Our history records as LangChain4j messages. */
  static List<ChatMessage> toMessages(List<ChatTurn> turns) {
    return toMessages(turns, false);
  }

  /**
   * Our history records as LangChain4j messages; with {@code toolTurnsAsText}, tool calls and their
   * results become plain assistant and user text, for providers that refuse tool turns in a request
   * without tools.
   */
  static List<ChatMessage> toMessages(List<ChatTurn> turns, boolean toolTurnsAsText) {
    List<ChatMessage> messages = new ArrayList<>();
    for (ChatTurn t : turns) {
      if (t == null || t.role() == null) {
        throw new IllegalArgumentException("a conversation turn has no role");
      }
      if (toolTurnsAsText && t.role() == ChatTurn.Role.ASSISTANT && !t.toolCalls().isEmpty()) {
        StringBuilder text = new StringBuilder(t.text() == null ? "" : t.text());
        for (ToolCall c : t.toolCalls()) {
          text.append(text.length() == 0 ? "" : "\n").append("Called ").append(c.name()).append('(')
              .append(c.argumentsText()).append(") [").append(c.id()).append(']');
        }
        messages.add(AiMessage.from(text.toString()));
        continue;
      }
      if (toolTurnsAsText && t.role() == ChatTurn.Role.TOOL) {
        messages.add(UserMessage.from("Result of " + t.toolName() + " [" + t.toolCallId() + "]: "
            + (t.text() == null ? "" : t.text())));
        continue;
      }
      switch (t.role()) {
        case SYSTEM:
          messages.add(SystemMessage.from(requireText(t)));
          break;
        case USER:
          messages.add(UserMessage.from(requireText(t)));
          break;
        case ASSISTANT:
          List<ToolExecutionRequest> requests = new ArrayList<>();
          for (ToolCall c : t.toolCalls()) {
            // A call whose arguments were not JSON goes back as {}: providers that parse the arguments
            // of earlier calls (Anthropic) would reject the whole conversation; the tool turn that
            // answers it says what was wrong.
            requests.add(ToolExecutionRequest.builder().id(c.id()).name(c.name())
                .arguments(c.arguments() == null ? "{}" : c.arguments().toString()).build());
          }
          boolean hasText = t.text() != null && !t.text().isBlank();
          if (requests.isEmpty()) {
            messages.add(AiMessage.from(t.text() == null ? "" : t.text()));
          } else if (hasText) {
            messages.add(AiMessage.from(t.text(), requests));
          } else {
            messages.add(AiMessage.from(requests));
          }
          break;
        case TOOL:
          if (t.toolCallId() == null) {
            throw new IllegalArgumentException("a tool turn does not name the call it answers");
          }
          messages.add(ToolExecutionResultMessage.from(
              t.toolCallId(), t.toolName(), t.text() == null ? "" : t.text()));
          break;
        default:
          throw new IllegalArgumentException("unknown role " + t.role());
      }
    }
    return messages;
  }

  private static String requireText(ChatTurn t) {
    if (t.text() == null) {
      throw new IllegalArgumentException("a " + t.role().name().toLowerCase() + " turn has no text");
    }
    return t.text();
  }
}
