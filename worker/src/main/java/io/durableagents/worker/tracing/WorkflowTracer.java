package io.durableagents.worker.tracing;

import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.temporal.common.converter.RawValue;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
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
 * The span of one workflow (all its runs, when it continues as new) and of its simulation steps. In
 * workflow code it only computes (ids from Temporal's ids, times from workflow time) and builds a span
 * when one ends for the first time, never while replaying.
 */
final class WorkflowTracer extends WorkflowInboundCallsInterceptorBase {
  /** The step of a simulation's child from its id, and whether it is a group step. */
  private static final Pattern CHILD_STEP = Pattern.compile("/step-(\\d+)(/group-\\d+)?$");

  private final AgentTracing tracing;
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

  WorkflowTracer(WorkflowInboundCallsInterceptor next, AgentTracing tracing) {
    super(next);
    this.tracing = tracing;
  }

  @Override
  public void init(WorkflowOutboundCallsInterceptor outbound) {
    super.init(new WorkflowTracerOutbound(outbound, this));
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
      startMillis = SpanValues.parseLong(chain.get("start"), info.getRunStartedTimestampMillis());
      runsBefore = SpanValues.parseLong(chain.get("runs"), 0);
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
        SpanValues.usage(a, r.usage());
      }
    } else if (input instanceof AgentStepInput s) {
      name = "invoke_agent " + s.agentId();
      SpanValues.invokeAgent(a, s.agentId(), s.options().model());
      a.put(TraceAttributes.AGENT_ID, s.agentId());
      a.put(TraceAttributes.AGENT_ROLE, String.valueOf(s.role()));
      a.put(TraceAttributes.STRATEGY, s.options().strategy().label());
      if (s.observation() != null) {
        a.put(TraceAttributes.SIMULATION_STEP, s.observation().step());
      }
      if (result instanceof AgentStepResult r) {
        a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
        a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
        SpanValues.usage(a, r.usage());
      }
    } else if (input instanceof AgentGroupStepInput g && !g.agents().isEmpty()) {
      AgentStepInput first = g.agents().get(0);
      AgentStepInput last = g.agents().get(g.agents().size() - 1);
      name = "invoke_agent " + first.agentId() + (g.agents().size() > 1 ? " .. " + last.agentId() : "");
      SpanValues.invokeAgent(a, first.role(), first.options().model());
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
        SpanValues.usage(a, total);
      }
    } else if (input instanceof AgentTaskInput t) {
      name = "invoke_agent task";
      SpanValues.invokeAgent(a, "task", t.options().model());
      a.put(TraceAttributes.STRATEGY, t.options().strategy().label());
      if (result instanceof AgentTaskResult r) {
        a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
        a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
        SpanValues.usage(a, r.usage());
      }
    } else if (input instanceof AutonomousAgentInput t && t.spec() != null) {
      String agent = t.spec().name() == null ? "agent" : t.spec().name();
      name = "invoke_agent " + agent;
      SpanValues.invokeAgent(a, agent, t.spec().model());
      if (result instanceof AutonomousAgentResult r) {
        a.put(TraceAttributes.LLM_CALLS, r.llmCalls());
        a.put(TraceAttributes.TOOL_CALLS, r.toolCalls());
        SpanValues.usage(a, r.usage());
      }
    }
    tracing.emit(new AgentTracing.DurableSpan(name, traceId, spanId, parentSpanId, sampled, startMillis,
        Workflow.currentTimeMillis(), a.build(), failure == null ? null : SpanValues.errorType(failure)));
  }
}
