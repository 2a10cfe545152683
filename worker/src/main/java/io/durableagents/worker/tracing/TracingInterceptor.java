package io.durableagents.worker.tracing;

import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskResult;
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
import io.temporal.common.converter.RawValue;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.Header;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInfo;
import io.temporal.workflow.unsafe.WorkflowUnsafe;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the spans of {@link AgentTracing}. In workflow code it only computes (ids from Temporal's ids,
 * times from workflow time) and builds a span when one ends for the first time, never while replaying;
 * it writes the trace context into the headers of the child workflows, activities and continue-as-new
 * runs a workflow starts. Around an activity it makes the call's span.
 *
 * <p>A simulation step is not a workflow of its own: its span runs from the start of the step's first
 * agent step (or group step) to the last completion of anything the step started (agent steps, memory
 * calls, a checkpoint), and is built when the next step starts or the run ends. A step in which no agent
 * acts starts no agent step, and has no span.
 */
final class TracingInterceptor extends WorkerInterceptorBase {
  private final AgentTracing tracing;

  TracingInterceptor(AgentTracing tracing) {
    this.tracing = tracing;
  }

  @Override
  public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
    return new WorkflowTracer(next);
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityTracer(next);
  }

  /** The span of one workflow (all its runs, when it continues as new) and of its simulation steps. */
  private final class WorkflowTracer extends WorkflowInboundCallsInterceptorBase {
    private String traceId;
    private String spanId;
    private String parentSpanId;
    private boolean sampled = true;
    private long startMillis;
    private long runsBefore;
    private String simulationId;
    private String agentId;
    private Object input;
    /** The simulation step running (the last one that started agent steps), or 0. */
    private int step;
    private long stepStart;
    private long stepLastEnd;
    private long stepAgents;

    WorkflowTracer(WorkflowInboundCallsInterceptor next) {
      super(next);
    }

    @Override
    public void init(WorkflowOutboundCallsInterceptor outbound) {
      super.init(new Outbound(outbound, this));
    }

    @Override
    public WorkflowOutput execute(WorkflowInput workflowInput) {
      WorkflowInfo info = Workflow.getInfo();
      input = workflowInput.getArguments().length > 0 ? workflowInput.getArguments()[0] : null;
      Map<String, String> chain = TraceHeaders.read(workflowInput.getHeader(), TraceHeaders.CHAIN);
      Map<String, String> parent = TraceHeaders.read(workflowInput.getHeader(), TraceHeaders.PARENT);
      if (chain != null) {
        traceId = chain.get("trace");
        spanId = chain.get("span");
        parentSpanId = chain.get("parent");
        sampled = !"false".equals(chain.get("sampled"));
        startMillis = parseLong(chain.get("start"), info.getRunStartedTimestampMillis());
        runsBefore = parseLong(chain.get("runs"), 0);
      } else {
        traceId = parent != null ? parent.get("trace") : DurableIds.traceId(info.getWorkflowId(), info.getRunId());
        spanId = DurableIds.spanId("workflow", info.getWorkflowId(), info.getRunId());
        parentSpanId = parent == null ? null : parent.get("span");
        sampled = parent == null || !"false".equals(parent.get("sampled"));
        startMillis = info.getRunStartedTimestampMillis();
      }
      if (input instanceof SimulationInput) {
        simulationId = info.getWorkflowId();
      } else if (input instanceof AgentStepInput a) {
        simulationId = a.simulationId();
        agentId = a.agentId();
      } else if (parent != null) {
        simulationId = parent.get("simulation");
        agentId = parent.get("agent");
      }
      try {
        WorkflowOutput output = super.execute(workflowInput);
        end(output.getResult(), null);
        return output;
      } catch (TemporalFailure failure) {
        // the workflow fails (any other throwable fails the workflow task, which is retried, or is
        // the SDK unwinding the thread for continue-as-new or an eviction: no end)
        end(null, failure);
        throw failure;
      }
    }

    /** The span calls and child workflows go under: the running simulation step's, or the workflow's. */
    Map<String, String> parentForCalls() {
      Map<String, String> p = new HashMap<>();
      p.put("trace", traceId);
      p.put("span", step > 0 ? stepSpanId(step) : spanId);
      p.put("sampled", Boolean.toString(sampled));
      p.put("simulation", simulationId);
      p.put("agent", agentId);
      if (step > 0) {
        p.put("step", Integer.toString(step));
      }
      return p;
    }

    /** Before a child workflow starts: an agent step of a new simulation step ends the previous one. */
    void beforeChild(Object childInput, String childWorkflowId) {
      if (!(input instanceof SimulationInput)) {
        return;
      }
      int childStep = 0;
      long agents = 1;
      if (childInput instanceof AgentStepInput a && a.observation() != null) {
        childStep = a.observation().step();
      } else if (childInput instanceof AgentGroupStepInput g && !g.agents().isEmpty()
          && g.agents().get(0).observation() != null) {
        childStep = g.agents().get(0).observation().step();
        agents = g.agents().size();
      } else if (childInput instanceof RawValue && childWorkflowId != null) {
        // An input the simulation wrote to JSON itself: the step is in the child's id
        // (<sim>/agent-<id>/step-<n>, <sim>/step-<n>/group-<g>); a group's agents are counted as it
        // completes (countGroup), without reading its payload back.
        Matcher m = CHILD_STEP.matcher(childWorkflowId);
        if (m.find()) {
          childStep = Integer.parseInt(m.group(1));
          agents = m.group(2) == null ? 1 : 0;
        }
      }
      if (childStep <= 0) {
        return;
      }
      if (childStep != step) {
        endStep();
        step = childStep;
        stepStart = Workflow.currentTimeMillis();
        stepLastEnd = stepStart;
        stepAgents = 0;
      }
      stepAgents += agents;
    }

    /** Keeps the step's end at the last completion of anything it started. */
    /** A group step started from a written payload: its agents count in its step when it completes. */
    <R> Promise<R> countGroup(Promise<R> result) {
      int startedIn = step;
      return result.thenApply(value -> {
        if (step == startedIn && value instanceof java.util.List<?> agentResults) {
          stepAgents += agentResults.size();
        }
        return value;
      });
    }

    <R> Promise<R> track(Promise<R> result) {
      if (step <= 0) {
        return result;
      }
      int startedIn = step;
      return result.handle((value, failure) -> {
        if (step == startedIn) {
          stepLastEnd = Math.max(stepLastEnd, Workflow.currentTimeMillis());
        }
        if (failure != null) {
          throw failure;
        }
        return value;
      });
    }

    /** Builds the running step's span (once, not while replaying) and leaves no step running. */
    void endStep() {
      if (step <= 0) {
        return;
      }
      int ended = step;
      step = 0;
      if (WorkflowUnsafe.isReplaying()) {
        tracing.countNotReemitted();
        return;
      }
      tracing.emit(new AgentTracing.DurableSpan("simulation step " + ended, traceId, stepSpanId(ended), spanId,
          sampled, stepStart, stepLastEnd,
          Attributes.builder()
              .put(TraceAttributes.SIMULATION_ID, simulationId)
              .put(TraceAttributes.SIMULATION_STEP, ended)
              .put(TraceAttributes.AGENT_STEPS, stepAgents)
              .put(TraceAttributes.WORKFLOW_ID, Workflow.getInfo().getWorkflowId())
              .put(TraceAttributes.RUN_ID, Workflow.getInfo().getRunId())
              .build(),
          null));
    }

    /** What the next run of a workflow that continues as new needs to end this span. */
    Map<String, String> chain() {
      Map<String, String> c = new HashMap<>();
      c.put("trace", traceId);
      c.put("span", spanId);
      c.put("parent", parentSpanId);
      c.put("sampled", Boolean.toString(sampled));
      c.put("start", Long.toString(startMillis));
      c.put("runs", Long.toString(runsBefore + 1));
      return c;
    }

    private String stepSpanId(int n) {
      return DurableIds.spanId("simulation-step", spanId, Integer.toString(n));
    }

    private void end(Object result, TemporalFailure failure) {
      endStep();
      if (WorkflowUnsafe.isReplaying()) {
        tracing.countNotReemitted();
        return;
      }
      WorkflowInfo info = Workflow.getInfo();
      AttributesBuilder a = Attributes.builder()
          .put(TraceAttributes.WORKFLOW_ID, info.getWorkflowId())
          .put(TraceAttributes.RUN_ID, info.getRunId())
          .put(TraceAttributes.WORKFLOW_TYPE, info.getWorkflowType());
      if (runsBefore > 0) {
        a.put(TraceAttributes.RUNS, runsBefore + 1);
      }
      if (simulationId != null) {
        a.put(TraceAttributes.SIMULATION_ID, simulationId);
      }
      String name = "workflow " + info.getWorkflowType();
      if (input instanceof SimulationInput s) {
        name = "simulation " + s.scenario();
        a.put(TraceAttributes.SCENARIO, s.scenario());
        if (result instanceof SimulationResult r) {
          a.put(TraceAttributes.SIMULATION_STEP, r.steps());
          a.put(TraceAttributes.AGENT_STEPS, r.agentSteps());
          a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
          a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
          usage(a, r.usage());
        }
      } else if (input instanceof AgentStepInput s) {
        name = "invoke_agent " + s.agentId();
        invokeAgent(a, s.agentId(), s.options().model());
        a.put(TraceAttributes.AGENT_ID, s.agentId());
        a.put(TraceAttributes.AGENT_ROLE, String.valueOf(s.role()));
        a.put(TraceAttributes.STRATEGY, s.options().strategy().label());
        if (s.observation() != null) {
          a.put(TraceAttributes.SIMULATION_STEP, s.observation().step());
        }
        if (result instanceof AgentStepResult r) {
          a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
          a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
          usage(a, r.usage());
        }
      } else if (input instanceof AgentGroupStepInput g && !g.agents().isEmpty()) {
        AgentStepInput first = g.agents().get(0);
        AgentStepInput last = g.agents().get(g.agents().size() - 1);
        name = "invoke_agent " + first.agentId() + (g.agents().size() > 1 ? " .. " + last.agentId() : "");
        invokeAgent(a, first.role(), first.options().model());
        a.put(TraceAttributes.AGENTS, g.agents().size());
        a.put(TraceAttributes.AGENT_ROLE, String.valueOf(first.role()));
        a.put(TraceAttributes.STRATEGY, first.options().strategy().label());
        if (first.observation() != null) {
          a.put(TraceAttributes.SIMULATION_STEP, first.observation().step());
        }
        if (result instanceof List<?> results) {
          TokenUsage total = TokenUsage.ZERO;
          long llm = 0;
          long tools = 0;
          for (Object o : results) {
            if (o instanceof AgentStepResult r) {
              total = total.plus(r.usage());
              llm += r.llmCalls();
              tools += r.toolCalls();
            }
          }
          a.put(TraceAttributes.LLM_CALLS, llm);
          a.put(TraceAttributes.TOOL_CALLS, tools);
          usage(a, total);
        }
      } else if (input instanceof AgentTaskInput t) {
        name = "invoke_agent task";
        invokeAgent(a, "task", t.options().model());
        a.put(TraceAttributes.STRATEGY, t.options().strategy().label());
        if (result instanceof AgentTaskResult r) {
          a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
          a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
          usage(a, r.usage());
        }
      } else if (input instanceof AutonomousAgentInput t && t.spec() != null) {
        String agent = t.spec().name() == null ? "agent" : t.spec().name();
        name = "invoke_agent " + agent;
        invokeAgent(a, agent, t.spec().model());
        if (result instanceof AutonomousAgentResult r) {
          a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
          a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
          usage(a, r.usage());
        }
      }
      tracing.emit(new AgentTracing.DurableSpan(name, traceId, spanId, parentSpanId, sampled, startMillis,
          Workflow.currentTimeMillis(), a.build(), failure == null ? null : errorType(failure)));
    }
  }

  /** Writes the trace context into what a workflow starts, and keeps a simulation step's end. */
  private static final class Outbound extends WorkflowOutboundCallsInterceptorBase {
    private final WorkflowTracer workflow;

    Outbound(WorkflowOutboundCallsInterceptor next, WorkflowTracer workflow) {
      super(next);
      this.workflow = workflow;
    }

    @Override
    public <R> ActivityOutput<R> executeActivity(ActivityInput<R> input) {
      TraceHeaders.write(input.getHeader(), TraceHeaders.PARENT, workflow.parentForCalls());
      ActivityOutput<R> output = super.executeActivity(input);
      return new ActivityOutput<>(output.getActivityId(), workflow.track(output.getResult()));
    }

    @Override
    public <R> LocalActivityOutput<R> executeLocalActivity(LocalActivityInput<R> input) {
      TraceHeaders.write(input.getHeader(), TraceHeaders.PARENT, workflow.parentForCalls());
      LocalActivityOutput<R> output = super.executeLocalActivity(input);
      return new LocalActivityOutput<>(workflow.track(output.getResult()));
    }

    @Override
    public <R> ChildWorkflowOutput<R> executeChildWorkflow(ChildWorkflowInput<R> input) {
      Object first = input.getArgs().length > 0 ? input.getArgs()[0] : null;
      workflow.beforeChild(first, input.getWorkflowId());
      TraceHeaders.write(input.getHeader(), TraceHeaders.PARENT, workflow.parentForCalls());
      ChildWorkflowOutput<R> output = super.executeChildWorkflow(input);
      Promise<R> result = output.getResult();
      if (first instanceof RawValue) {
        result = workflow.countGroup(result);
      }
      return new ChildWorkflowOutput<>(workflow.track(result), output.getWorkflowExecution());
    }

    @Override
    public void continueAsNew(ContinueAsNewInput input) {
      workflow.endStep();
      TraceHeaders.write(input.getHeader(), TraceHeaders.CHAIN, workflow.chain());
      super.continueAsNew(input);
    }
  }

  /** The step of a simulation's child from its id, and whether it is a group step. */
  private static final Pattern CHILD_STEP = Pattern.compile("/step-(\\d+)(/group-\\d+)?$");

  /** The span of one attempt of an activity: an LLM call, a tool call, or another activity. */
  private final class ActivityTracer extends ActivityInboundCallsInterceptorBase {
    private ActivityExecutionContext context;

    ActivityTracer(ActivityInboundCallsInterceptor next) {
      super(next);
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
        a.put(TraceAttributes.SIMULATION_STEP, parseLong(parent.get("step"), 0));
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
        span.setAttribute(TraceAttributes.ERROR_TYPE, errorType(e));
        throw e;
      } finally {
        span.end();
      }
    }
  }

  private static void invokeAgent(AttributesBuilder a, String agent, String model) {
    a.put(TraceAttributes.GEN_AI_OPERATION_NAME, "invoke_agent");
    a.put(TraceAttributes.GEN_AI_AGENT_NAME, String.valueOf(agent));
    if (model != null) {
      int colon = model.indexOf(':');
      a.put(TraceAttributes.GEN_AI_REQUEST_MODEL, colon > 0 ? model.substring(colon + 1) : model);
      a.put(TraceAttributes.MODEL_REFERENCE, model);
    }
  }

  private static void usage(AttributesBuilder a, TokenUsage usage) {
    if (usage != null) {
      a.put(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS, usage.input());
      a.put(TraceAttributes.GEN_AI_USAGE_OUTPUT_TOKENS, usage.output());
    }
  }

  private static String errorType(Throwable e) {
    if (e instanceof ApplicationFailure f && f.getType() != null) {
      return f.getType();
    }
    if (e instanceof TemporalFailure && e.getCause() instanceof ApplicationFailure f && f.getType() != null) {
      return f.getType();
    }
    return e.getClass().getSimpleName();
  }

  private static long parseLong(String value, long otherwise) {
    try {
      return value == null ? otherwise : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }
}
