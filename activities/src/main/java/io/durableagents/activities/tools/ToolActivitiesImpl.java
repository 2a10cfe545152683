package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
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
 * The tool activity: runs one call of an external tool (calculator, file reader, ...) from the {@link
 * ToolRegistry}.
 *
 * <p>A request the tool cannot serve is a result with {@code error = true}, which the agent reads as
 * an observation it can correct, not a failure: retrying cannot fix it. That is the case for an
 * unknown tool, a world action (the simulation workflow applies those), a control tool such as ReAct's
 * {@code finish} (the workflow handles those), arguments that do not fit the
 * tool's schema ({@link ToolCallValidator}), and an {@link IllegalArgumentException} thrown by the tool
 * itself (bad input, such as the calculator's {@code "2+"} or a path outside the file reader's
 * directory). Any other exception is thrown as a retryable {@link ApplicationFailure} of type {@link
 * ToolFailureTypes#TOOL_FAILED}, so that Temporal retries it with backoff; an {@link
 * ApplicationFailure} thrown by a tool is passed on as it is.
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
          + String.join(", ", externalToolNames()));
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
    Object[] args;
    try {
      args = arguments(tool.method(), request.arguments());
    } catch (IllegalArgumentException e) {
      return error(request, request.name() + ": " + e.getMessage());
    }
    Object out;
    try {
      out = tool.method().invoke(tool.target(), args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) {
        // Bad input: the same call would fail the same way on every retry.
        return error(request, cause.getMessage() == null ? request.name() + ": invalid input" : cause.getMessage());
      }
      if (cause instanceof ApplicationFailure) {
        throw (ApplicationFailure) cause;
      }
      throw ApplicationFailure.newFailureWithCause(
          request.name() + " failed: " + cause, ToolFailureTypes.TOOL_FAILED, cause);
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

  private List<String> externalToolNames() {
    return tools.names().stream()
        .filter(n -> tools.find(n).map(e -> e.kind() == ToolKind.EXTERNAL).orElse(false))
        .toList();
  }

  /** The method's arguments, read from the JSON object by parameter name (as LangChain4j names them). */
  private static Object[] arguments(Method method, JsonNode arguments) {
    Parameter[] params = method.getParameters();
    Object[] values = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
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
