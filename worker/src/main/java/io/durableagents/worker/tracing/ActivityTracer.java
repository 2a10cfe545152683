package io.durableagents.worker.tracing;

import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import java.util.List;
import java.util.Map;

/** The span of one attempt of an activity: an LLM call, a tool call, or another activity. */
final class ActivityTracer extends ActivityInboundCallsInterceptorBase {
  private final AgentTracing tracing;
  private ActivityExecutionContext context;

  ActivityTracer(ActivityInboundCallsInterceptor next, AgentTracing tracing) {
    super(next);
    this.tracing = tracing;
  }

  @Override
  public void init(ActivityExecutionContext context) {
    this.context = context;
    super.init(context);
  }

  @Override
  public ActivityOutput execute(ActivityInput input) {
    ActivityInfo info = context.getInfo();
    Map<String, String> parent = TraceHeaders.read(input.getHeader(), TraceHeaders.PARENT);
    Object argument = input.getArguments() != null && input.getArguments().length == 1
        ? input.getArguments()[0] : null;
    String name = info.getActivityType();
    SpanKind kind = SpanKind.INTERNAL;
    AttributesBuilder a = Attributes.builder()
        .put(TraceAttributes.WORKFLOW_ID, info.getWorkflowId())
        .put(TraceAttributes.RUN_ID, info.getRunId())
        .put(TraceAttributes.ACTIVITY_ID, info.getActivityId())
        .put(TraceAttributes.ACTIVITY_TYPE, info.getActivityType())
        .put(TraceAttributes.ATTEMPT, (long) info.getAttempt());
    String agent = parent == null ? null : parent.get("agent");
    if (argument instanceof LlmRequest r) {
      kind = SpanKind.CLIENT;
      String model = r.model() == null ? "" : r.model();
      int colon = model.indexOf(':');
      String modelName = colon > 0 ? model.substring(colon + 1) : model;
      name = "chat " + modelName;
      a.put(TraceAttributes.GEN_AI_OPERATION_NAME, "chat");
      a.put(TraceAttributes.GEN_AI_REQUEST_MODEL, modelName);
      a.put(TraceAttributes.MODEL_REFERENCE, model);
      if (colon > 0) {
        a.put(TraceAttributes.GEN_AI_PROVIDER_NAME, model.substring(0, colon));
      }
      if (r.purpose() != null && r.purpose().length() <= 40 && !r.purpose().contains(" ")) {
        a.put(TraceAttributes.LLM_PURPOSE, r.purpose());
      }
      if (r.agent() != null) {
        agent = r.agent();
      }
    } else if (argument instanceof ToolExecutionRequest t) {
      name = "execute_tool " + t.name();
      a.put(TraceAttributes.GEN_AI_OPERATION_NAME, "execute_tool");
      a.put(TraceAttributes.GEN_AI_TOOL_NAME, String.valueOf(t.name()));
      if (t.toolCallId() != null) {
        a.put(TraceAttributes.GEN_AI_TOOL_CALL_ID, t.toolCallId());
      }
    }
    if (parent != null && parent.get("simulation") != null) {
      a.put(TraceAttributes.SIMULATION_ID, parent.get("simulation"));
    }
    if (parent != null && parent.get("step") != null) {
      a.put(TraceAttributes.SIMULATION_STEP, SpanValues.parseLong(parent.get("step"), 0));
    }
    if (agent != null) {
      a.put(TraceAttributes.AGENT_ID, agent);
    }
    Context parentContext = Context.root();
    if (parent != null) {
      parentContext = parentContext.with(Span.wrap(SpanContext.createFromRemoteParent(parent.get("trace"),
          parent.get("span"), "false".equals(parent.get("sampled")) ? TraceFlags.getDefault()
              : TraceFlags.getSampled(), TraceState.getDefault())));
    }
    Span span = tracing.tracer().spanBuilder(name).setParent(parentContext).setSpanKind(kind)
        .setAllAttributes(a.build()).startSpan();
    try (Scope ignored = span.makeCurrent()) {
      ActivityOutput output = super.execute(input);
      Object result = output.getResult();
      if (result instanceof LlmResponse r) {
        span.setAttribute(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS, r.usage().input());
        span.setAttribute(TraceAttributes.GEN_AI_USAGE_OUTPUT_TOKENS, r.usage().output());
        if (r.model() != null) {
          span.setAttribute(TraceAttributes.GEN_AI_RESPONSE_MODEL, r.model());
        }
        if (r.finishReason() != null) {
          span.setAttribute(TraceAttributes.GEN_AI_RESPONSE_FINISH_REASONS, List.of(r.finishReason()));
        }
      } else if (result instanceof ToolExecutionResult r && r.error()) {
        span.setAttribute(TraceAttributes.TOOL_ERROR, true);
      }
      return output;
    } catch (RuntimeException | Error e) {
      // the type only: a failure's message may quote what the model or the tool was given
      span.setStatus(StatusCode.ERROR);
      span.setAttribute(TraceAttributes.ERROR_TYPE, SpanValues.errorType(e));
      throw e;
    } finally {
      span.end();
    }
  }
}
