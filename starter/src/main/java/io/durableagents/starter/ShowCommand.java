package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.converter.DataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Prints a readable timeline of an agent step (or a group step, each call with its agent): each LLM
 * call (tokens, latency), its reasoning, tool calls and results.
 */
@Command(name = "show",
    description = "Print a readable timeline of an agent step: LLM calls (tokens, latency), reasoning, tool calls and results.")
final class ShowCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "An agent step's workflow id, e.g. sim-epstein-42-ab12cd34/agent-citizen-3/step-7, or a group step's, "
      + "sim-epstein-42-ab12cd34/step-7/group-1")
  String workflowId;

  @Override
  public Integer call() {
    TemporalConnection connection = TemporalConnection.fromEnvironment();
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      DataConverter converter = DataConverter.getDefaultInstance();
      Map<Long, HistoryEvent> scheduled = new HashMap<>();
      long start = -1;
      for (HistoryEvent e : connection.client(service).fetchHistory(workflowId).getEvents()) {
        long t = e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
        if (start < 0) {
          start = t;
        }
        String at = String.format("+%6d ms  ", t - start);
        switch (e.getEventType()) {
          case EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
            System.out.println(at + "started " + e.getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName()
                + " " + workflowId);
            break;
          case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            scheduled.put(e.getEventId(), e);
            break;
          case EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
            var done = e.getActivityTaskCompletedEventAttributes();
            HistoryEvent s = scheduled.get(done.getScheduledEventId());
            var sa = s.getActivityTaskScheduledEventAttributes();
            String type = sa.getActivityType().getName();
            if (type.equals("LlmChat")) {
              LlmRequest req = first(converter, sa.getInput(), LlmRequest.class);
              LlmResponse res = first(converter, done.getResult(), LlmResponse.class);
              System.out.printf("%sllm: %s%s (%s, tool choice %s): %d in / %d out tokens, %d ms%n", at, res.model(),
                  agentOf(converter, s), req.purpose(), req.toolChoice().name().toLowerCase(), res.usage().input(), res.usage().output(),
                  res.latencyMillis());
              if (res.text() != null && !res.text().isBlank()) {
                for (String line : res.text().split("\n")) {
                  System.out.println("             | " + line);
                }
              }
              for (ToolCall c : res.toolCalls()) {
                System.out.println("             -> " + c.name() + "(" + c.argumentsText() + ")"
                    + (c.valid() ? "" : "  REJECTED: " + c.error()));
              }
            } else if (type.equals("ToolExecute")) {
              ToolExecutionRequest req = first(converter, sa.getInput(), ToolExecutionRequest.class);
              ToolExecutionResult res = first(converter, done.getResult(), ToolExecutionResult.class);
              System.out.printf("%stool: %s%s(%s) -> %s%s%n", at, req.name(), agentOf(converter, s), req.arguments(),
                  res.error() ? "ERROR " : "", res.output());
            }
            break;
          }
          case EVENT_TYPE_ACTIVITY_TASK_FAILED:
            System.out.println(at + "activity failed: " + e.getActivityTaskFailedEventAttributes().getFailure().getMessage());
            break;
          case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
            System.out.println(at + "completed");
            break;
          case EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
            System.out.println(at + "failed: " + e.getWorkflowExecutionFailedEventAttributes().getFailure().getMessage());
            break;
          default:
        }
      }
      return 0;
    } catch (RuntimeException e) {
      System.err.println("show: cannot read '" + workflowId + "' on " + connection.address() + ": " + e.getMessage());
      return 1;
    } finally {
      service.shutdown();
    }
  }

  /**
   * " · <agent>" for a call of a group step, whose summary names the agent ({@code llm: rules ·
   * citizen-3}); "" for a call of an agent step, whose workflow is the agent's own.
   */
  private static String agentOf(DataConverter converter, HistoryEvent scheduled) {
    if (!scheduled.hasUserMetadata() || !scheduled.getUserMetadata().hasSummary()) {
      return "";
    }
    String summary = converter.fromPayload(scheduled.getUserMetadata().getSummary(), String.class, String.class);
    int dot = summary == null ? -1 : summary.lastIndexOf(" · ");
    return dot < 0 ? "" : summary.substring(dot);
  }

  private static <T> T first(DataConverter converter, Payloads payloads, Class<T> type) {
    return converter.fromPayloads(0, Optional.of(payloads), type, type);
  }
}
