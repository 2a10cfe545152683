package io.durableagents.worker.tracing;

import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;

/**
 * Makes the spans of {@link AgentTracing}: a {@link WorkflowTracer} for each workflow, which in workflow
 * code only computes (ids from Temporal's ids, times from workflow time) and builds a span when one ends
 * for the first time, never while replaying, and whose {@link WorkflowTracerOutbound} writes the trace
 * context into the headers of the child workflows, activities and continue-as-new runs a workflow starts;
 * and around an activity an {@link ActivityTracer}, which makes the call's span.
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
    return new WorkflowTracer(next, tracing);
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityTracer(next, tracing);
  }
}
