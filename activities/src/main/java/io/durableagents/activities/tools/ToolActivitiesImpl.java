package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import io.durableagents.activities.heartbeat.WaitingHeartbeats;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The tool activity: runs one call of an external tool (calculator, file reader, ...) from the {@link
 * ToolRegistry}.
 *
 * <p>A request the tool cannot serve is a result with {@code error = true}, which the agent reads as
 * an observation it can correct, not a failure: retrying cannot fix it. That is the case for an
 * unknown tool, a world action (the simulation workflow applies those), a control tool such as ReAct's
 * {@code finish} (the workflow handles those), arguments that do not fit the
 * tool's schema ({@link ToolCallValidator}), and an {@link IllegalArgumentException} thrown by the tool
 * itself (bad input, such as the calculator's {@code "2+"} or a path outside the file reader's
 * directory). An exception of a type the tool's options call non-retryable ({@link
 * DurableTool#nonRetryable()}, {@link ToolOptions}) is thrown as a non-retryable {@link
 * ApplicationFailure} of type {@link ToolFailureTypes#TOOL_FAILED_PERMANENTLY}: reported once, never
 * retried. Any other exception is thrown as a retryable {@link ApplicationFailure} of type {@link
 * ToolFailureTypes#TOOL_FAILED}, so that Temporal retries it with backoff; an {@link
 * ApplicationFailure} thrown by a tool is passed on as it is. Either way the workflow turns the final
 * failure into an error observation for the agent.
 *
 * <p>While a tool runs, a side thread heartbeats for it ({@link WaitingHeartbeats}) a few times per
 * heartbeat timeout, so a long tool stays alive without code of its own and the call of a worker that
 * died is retried once the heartbeat timeout has passed, not the whole start-to-close timeout. A tool
 * that declares a {@link ToolCallContext} parameter gets the call's idempotency key, the attempt
 * number and heartbeats with details.
 *
 * <p>The {@code @Tool} method is invoked directly, its arguments converted to the parameter types with
 * Jackson. LangChain4j's {@code DefaultToolExecutor} (1.19) by default turns a tool's exception into
 * the result text, where it cannot be told apart from an answer; invoking the method ourselves keeps
 * the exception's class, which decides between an observation and a retry.
 *
 * <pre>{@code
 * ToolActivitiesImpl tools = new ToolActivitiesImpl(BuiltinTools.registry(Path.of("data")));
 * worker.registerActivitiesImplementations(tools);
 * }</pre>
 */
public final class ToolActivitiesImpl implements ToolActivities {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Heartbeats per heartbeat timeout: a late or lost one still leaves time for the next. */
  static final int HEARTBEATS_PER_TIMEOUT = 4;

  /** The shortest interval between two heartbeats. */
  static final Duration MINIMUM_HEARTBEAT_INTERVAL = Duration.ofMillis(50);

  private final ToolRegistry tools;
  private final AgentMetrics metrics;
  private final PayloadGuard guard;

  /** An activity over {@code tools}, with no metrics and the default payload guard. */
  public ToolActivitiesImpl(ToolRegistry tools) {
    this(tools, AgentMetrics.none(), PayloadGuard.defaults());
  }

  public ToolActivitiesImpl(ToolRegistry tools, AgentMetrics metrics, PayloadGuard guard) {
    this.tools = tools;
    this.metrics = metrics;
    this.guard = guard;
  }

  @Override
  public ToolExecutionResult execute(ToolExecutionRequest request) {
    try {
      ToolExecutionResult result = run(request);
      metrics.toolCall(request.name(), result.error());
      return new ToolExecutionResult(result.toolCallId(), result.name(),
          guard.check("the output of " + request.name(), result.output()), result.error());
    } catch (RuntimeException e) {
      metrics.toolCall(request.name(), true);
      throw e;
    }
  }

  private ToolExecutionResult run(ToolExecutionRequest request) {
    Optional<ToolRegistry.Entry> found = request.name() == null ? Optional.empty() : tools.find(request.name());
    if (found.isEmpty()) {
      return error(request, "unknown tool '" + request.name() + "'; available tools: "
          + String.join(", ", tools.externalToolNames()));
    }
    ToolRegistry.Entry tool = found.get();
    if (tool.kind() == ToolKind.WORLD_ACTION) {
      return error(request, request.name() + " is a world action: the simulation applies it, not a tool call");
    }
    if (tool.kind() != ToolKind.EXTERNAL) {
      return error(request, request.name() + " is handled by the agent's workflow, not run as a tool");
    }
    List<String> problems = ToolCallValidator.validate(tool.specification(), request.arguments());
    if (!problems.isEmpty()) {
      return error(request, "the arguments of " + request.name() + " do not fit its schema: "
          + String.join("; ", problems));
    }
    ActivityExecutionContext activity = activityContext();
    WaitingHeartbeats heartbeats = startHeartbeats(activity);
    ToolCallContext call = new ToolCallContext(request.name(), request.idempotencyKey(),
        activity == null ? 1 : activity.getInfo().getAttempt(), activity, heartbeats);
    ToolExecutionResult result;
    try {
      result = invoke(tool, request, call);
    } catch (RuntimeException e) {
      throw stopHeartbeats(heartbeats).orElse(e);
    }
    Optional<RuntimeException> stopped = stopHeartbeats(heartbeats);
    if (stopped.isPresent()) {
      throw stopped.get();
    }
    return result;
  }

  /**
   * Stops the heartbeats; returns what stopped them when the call was cancelled, timed out or is gone:
   * whatever the tool produced is then no longer wanted, and Temporal expects that exception back.
   */
  private static Optional<RuntimeException> stopHeartbeats(WaitingHeartbeats heartbeats) {
    return heartbeats == null ? Optional.empty() : heartbeats.stop().map(e -> e);
  }

  private ToolExecutionResult invoke(ToolRegistry.Entry tool, ToolExecutionRequest request, ToolCallContext call) {
    Optional<ToolInvoker> invoker = tool.invoker();
    if (invoker.isPresent()) {
      String out;
      try {
        out = invoker.get().invoke(request.arguments(), call);
      } catch (Exception e) {
        return failed(tool, request, e);
      }
      return new ToolExecutionResult(request.toolCallId(), request.name(), out == null ? "" : out, false);
    }
    Object[] args;
    try {
      args = arguments(tool.method(), request.arguments(), call);
    } catch (IllegalArgumentException e) {
      return error(request, request.name() + ": " + e.getMessage());
    }
    Object out;
    try {
      out = tool.method().invoke(tool.target(), args);
    } catch (InvocationTargetException e) {
      return failed(tool, request, e.getCause());
    } catch (IllegalArgumentException e) {
      // Thrown by reflection itself, not by the tool: an argument could not be passed (e.g. a missing
      // optional value for a primitive parameter).
      return error(request, request.name() + ": the arguments cannot be passed to the tool ("
          + e.getMessage() + ")");
    } catch (IllegalAccessException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "cannot call " + request.name() + ": " + e.getMessage(), ToolFailureTypes.TOOL_FAILED, e);
    }
    return new ToolExecutionResult(request.toolCallId(), request.name(), out == null ? "" : out.toString(), false);
  }

  /**
   * What a tool's exception means: bad input is an error observation, an {@link ApplicationFailure}
   * or a cancellation passes on, a non-retryable type fails the call once, anything else is retried.
   */
  private static ToolExecutionResult failed(ToolRegistry.Entry tool, ToolExecutionRequest request, Throwable cause) {
    if (cause instanceof IllegalArgumentException) {
      // Bad input: the same call would fail the same way on every retry.
      return error(request, cause.getMessage() == null ? request.name() + ": invalid input" : cause.getMessage());
    }
    if (cause instanceof ApplicationFailure) {
      throw (ApplicationFailure) cause;
    }
    if (cause instanceof ActivityCompletionException) {
      // From the tool's own heartbeat: the call was cancelled or timed out.
      throw (ActivityCompletionException) cause;
    }
    if (tool.options().isNonRetryable(cause)) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          request.name() + " failed: " + cause, ToolFailureTypes.TOOL_FAILED_PERMANENTLY, cause);
    }
    throw ApplicationFailure.newFailureWithCause(
        request.name() + " failed: " + cause, ToolFailureTypes.TOOL_FAILED, cause);
  }

  /**
   * Heartbeats for the tool while it runs, a few times per heartbeat timeout; null outside an activity,
   * in a local activity, or without a heartbeat timeout.
   */
  private static WaitingHeartbeats startHeartbeats(ActivityExecutionContext activity) {
    if (activity == null || activity.getInfo().isLocal()) {
      return null;
    }
    Duration timeout = activity.getInfo().getHeartbeatTimeout();
    if (timeout == null || timeout.isZero() || timeout.isNegative()) {
      return null;
    }
    Duration every = timeout.dividedBy(HEARTBEATS_PER_TIMEOUT);
    return WaitingHeartbeats.start(activity,
        every.compareTo(MINIMUM_HEARTBEAT_INTERVAL) < 0 ? MINIMUM_HEARTBEAT_INTERVAL : every);
  }

  private static ActivityExecutionContext activityContext() {
    try {
      return Activity.getExecutionContext();
    } catch (IllegalStateException notInAnActivity) {
      return null;
    }
  }

  /**
   * The method's arguments, read from the JSON object by parameter name (as LangChain4j names them);
   * a {@link ToolCallContext} parameter gets {@code call}.
   */
  private static Object[] arguments(Method method, JsonNode arguments, ToolCallContext call) {
    Parameter[] params = method.getParameters();
    Object[] values = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      if (params[i].getType() == ToolCallContext.class) {
        values[i] = call;
        continue;
      }
      String name = parameterName(params[i]);
      JsonNode v = arguments == null ? null : arguments.get(name);
      if (v == null || v.isNull()) {
        values[i] = null;
        continue;
      }
      JavaType type = MAPPER.getTypeFactory().constructType(params[i].getParameterizedType());
      try {
        values[i] = MAPPER.convertValue(v, type);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "argument '" + name + "' cannot be read as " + type.getRawClass().getSimpleName());
      }
    }
    return values;
  }

  /** {@code @P(name = ...)} when given, else the compiled name (the build compiles with -parameters). */
  private static String parameterName(Parameter parameter) {
    P p = parameter.getAnnotation(P.class);
    return p != null && !p.name().isBlank() ? p.name() : parameter.getName();
  }

  private static ToolExecutionResult error(ToolExecutionRequest request, String message) {
    return new ToolExecutionResult(request.toolCallId(), request.name(), message, true);
  }
}
