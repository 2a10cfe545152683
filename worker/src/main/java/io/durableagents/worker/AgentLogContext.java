package io.durableagents.worker;

import io.durableagents.workflows.llm.LlmRequest;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.workflow.Workflow;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Puts the agent id into the logging context (MDC key {@value #AGENT_ID}) of workflow and activity
 * threads, next to the {@code WorkflowId}, {@code ActivityType} and the other keys Temporal's SDK sets,
 * so that every log line of an agent step says whose it is. The id comes from the agent step's workflow
 * id, {@code <simulation>/agent-<agent id>/step-<n>}, or, for the LLM calls of a group step that runs
 * several agents in one workflow, from the call's {@link LlmRequest#agent()}.
 */
public final class AgentLogContext extends WorkerInterceptorBase {
  /** The MDC key. */
  public static final String AGENT_ID = "AgentId";

  private static final Pattern AGENT = Pattern.compile("/agent-([^/]+)/");

  /** The agent id in a workflow id, or "-" when there is none. */
  static String agentOf(String workflowId) {
    Matcher m = AGENT.matcher(workflowId == null ? "" : workflowId);
    return m.find() ? m.group(1) : "-";
  }

  /** The agent id in an activity's workflow id or, failing that, the agent its LLM request names. */
  static String agentOf(String workflowId, Object[] arguments) {
    String agent = agentOf(workflowId);
    if (agent.equals("-") && arguments != null && arguments.length == 1
        && arguments[0] instanceof LlmRequest && ((LlmRequest) arguments[0]).agent() != null) {
      return ((LlmRequest) arguments[0]).agent();
    }
    return agent;
  }

  @Override
  public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
    return new WorkflowInboundCallsInterceptorBase(next) {
      @Override
      public WorkflowOutput execute(WorkflowInput input) {
        MDC.put(AGENT_ID, agentOf(Workflow.getInfo().getWorkflowId()));
        return super.execute(input);
      }
    };
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private ActivityExecutionContext context;

      @Override
      public void init(ActivityExecutionContext context) {
        this.context = context;
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        MDC.put(AGENT_ID,
            agentOf(context.getInfo().getWorkflowId(), input.getArguments()));
        try {
          return super.execute(input);
        } finally {
          MDC.remove(AGENT_ID);
        }
      }
    };
  }
}
