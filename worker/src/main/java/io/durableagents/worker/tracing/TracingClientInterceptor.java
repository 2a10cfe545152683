package io.durableagents.worker.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.temporal.common.interceptors.Header;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptor;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowClientInterceptorBase;
import java.util.Map;

/**
 * Puts the caller's current span, when there is one, into the header of a workflow it starts: the
 * workflow's span (a simulation, a task, an autonomous agent) is then a child of it, in the caller's
 * trace. Without a current span, the workflow starts a trace of its own.
 */
final class TracingClientInterceptor extends WorkflowClientInterceptorBase {
  @Override
  public WorkflowClientCallsInterceptor workflowClientCallsInterceptor(WorkflowClientCallsInterceptor next) {
    return new WorkflowClientCallsInterceptorBase(next) {
      @Override
      public WorkflowStartOutput start(WorkflowStartInput input) {
        inject(input.getHeader());
        return super.start(input);
      }

      @Override
      public WorkflowSignalWithStartOutput signalWithStart(WorkflowSignalWithStartInput input) {
        inject(input.getWorkflowStartInput().getHeader());
        return super.signalWithStart(input);
      }
    };
  }

  private static void inject(Header header) {
    SpanContext current = Span.current().getSpanContext();
    if (current.isValid() && header != null && !header.getValues().containsKey(TraceHeaders.PARENT)) {
      TraceHeaders.write(header, TraceHeaders.PARENT, Map.of("trace", current.getTraceId(),
          "span", current.getSpanId(), "sampled", Boolean.toString(current.isSampled())));
    }
  }
}
