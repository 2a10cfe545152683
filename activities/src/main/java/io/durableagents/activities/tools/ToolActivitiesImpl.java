package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Optional;

/**
 * Runs external tools. A request the tool cannot serve (unknown tool, a world action, arguments that
 * don't fit the schema, or an {@link IllegalArgumentException} from the tool itself) is a result with
 * {@code error = true}: retrying cannot fix it, and the agent reads it as an observation. Any other
 * exception is thrown as a retryable failure of type {@link ToolFailureTypes#TOOL_FAILED}, so Temporal
 * retries it with backoff.
 */
public final class ToolActivitiesImpl implements ToolActivities {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ToolRegistry tools;
  private final AgentMetrics metrics;
  private final PayloadGuard guard;

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
    Optional<ToolRegistry.Entry> found = tools.find(request.name());
    if (found.isEmpty()) {
      return error(request, "unknown tool '" + request.name() + "'; available tools: " + tools.names());
    }
    ToolRegistry.Entry tool = found.get();
    if (tool.kind() != ToolKind.EXTERNAL) {
      return error(request, request.name() + " is a world action: the simulation applies it");
    }
    List<String> problems = ToolCallValidator.validate(tool.specification(), request.arguments());
    if (!problems.isEmpty()) {
      return error(request, request.name() + ": " + String.join("; ", problems));
    }
    Object[] args;
    try {
      args = arguments(tool.method(), request.arguments());
    } catch (IllegalArgumentException e) {
      return error(request, request.name() + ": " + e.getMessage());
    }
    try {
      Object out = tool.method().invoke(tool.target(), args);
      return new ToolExecutionResult(request.toolCallId(), request.name(),
          out == null ? "" : out.toString(), false);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) {
        return error(request, cause.getMessage());
      }
      throw ApplicationFailure.newFailureWithCause(request.name() + " failed: " + cause,
          ToolFailureTypes.TOOL_FAILED, cause);
    } catch (IllegalAccessException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause("cannot call " + request.name(),
          ToolFailureTypes.TOOL_FAILED, e);
    }
  }

  private static Object[] arguments(Method method, JsonNode arguments) {
    Parameter[] params = method.getParameters();
    Object[] values = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      JsonNode v = arguments == null ? null : arguments.get(params[i].getName());
      if (v == null || v.isNull()) {
        values[i] = null;
        continue;
      }
      JavaType type = MAPPER.getTypeFactory().constructType(params[i].getParameterizedType());
      try {
        values[i] = MAPPER.convertValue(v, type);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("argument '" + params[i].getName() + "' cannot be read as "
            + type.getRawClass().getSimpleName());
      }
    }
    return values;
  }

  private static ToolExecutionResult error(ToolExecutionRequest request, String message) {
    return new ToolExecutionResult(request.toolCallId(), request.name(), message, true);
  }
}
