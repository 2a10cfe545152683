package io.durableagents.worker.tracing;

import io.temporal.common.converter.RawValue;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;
import io.temporal.workflow.Promise;

/** Writes the trace context into what a workflow starts, and keeps a simulation step's end. */
final class WorkflowTracerOutbound extends WorkflowOutboundCallsInterceptorBase {
  private final WorkflowTracer workflow;

  WorkflowTracerOutbound(WorkflowOutboundCallsInterceptor next, WorkflowTracer workflow) {
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
