package io.durableagents.starter.inspect;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.starter.run.ServerWatch;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
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
 * call (tokens, latency), its reasoning, tool calls and results. Of a simulation, its steps ({@link
 * SimulationSteps}): the agent steps, LLM calls, tokens and counts of each, its interventions and forks.
 * Of an agent step that does not exist, why ({@link StepNotTaken}): the agent took no step then (a jailed
 * citizen), and its last step.
 */
@Command(name = "show",
    description = "Print a readable timeline of an agent step: LLM calls (tokens, latency), reasoning, tool calls "
        + "and results; of a simulation, its steps: agent steps, LLM calls, tokens and counts of each, its "
        + "interventions and forks.")
public final class ShowCommand implements Callable<Integer> {
  private static final String SIMULATION = io.temporal.common.metadata.POJOWorkflowInterfaceMetadata
      .newInstance(io.durableagents.workflows.simulation.SimulationWorkflow.class).getWorkflowMethod().get().getName();

  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "An agent step's workflow id, e.g. sim-epstein-42-ab12cd34/agent-citizen-3/step-7, or a group step's, "
      + "sim-epstein-42-ab12cd34/step-7/group-1, or a simulation's, sim-epstein-42-ab12cd34")
  String workflowId;

  @Override
  public Integer call() {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      DataConverter converter = DataConverter.getDefaultInstance();
      Map<Long, HistoryEvent> scheduled = new HashMap<>();
      Map<Long, HistoryEvent> startedEvents = new HashMap<>();
      long start = -1;
      WorkflowClient client = connection.client(service);
      io.temporal.common.WorkflowExecutionHistory history;
      try {
        history = client.fetchHistory(workflowId);
      } catch (RuntimeException e) {
        if (!notFound(e)) {
          throw e;
        }
        return noSuchRun(client, service);
      }
      if (history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName()
          .equals(SIMULATION)) {
        new SimulationSteps(client, service, connection.namespace(), connection.address())
            .print(SimulationHistories.read(client, workflowId), System.out);
        return 0;
      }
      for (HistoryEvent e : history.getEvents()) {
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
          case EVENT_TYPE_ACTIVITY_TASK_STARTED:
            startedEvents.put(e.getEventId(), e);
            break;
          case EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
            var done = e.getActivityTaskCompletedEventAttributes();
            HistoryEvent s = scheduled.get(done.getScheduledEventId());
            var sa = s.getActivityTaskScheduledEventAttributes();
            String type = sa.getActivityType().getName();
            String retries = retries(s, startedEvents.get(done.getStartedEventId()), e);
            if (type.equals("LlmChat")) {
              LlmRequest req = first(converter, sa.getInput(), LlmRequest.class);
              LlmResponse res = first(converter, done.getResult(), LlmResponse.class);
              System.out.printf("%sllm: %s%s (%s, tool choice %s): %d in / %d out tokens%s%s, %d ms%s%s%n", at, res.model(),
                  agentOf(converter, s), req.purpose(), req.toolChoice().name().toLowerCase(), res.usage().input(), res.usage().output(),
                  res.maxOutputTokens() == null ? "" : " (at most " + res.maxOutputTokens() + ")",
                  res.wasCut() ? ", CUT" : "", res.latencyMillis(),
                  res.slotWaitMillis() == null ? "" : " after " + res.slotWaitMillis() + " ms waiting for a slot", retries);
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
              System.out.printf("%stool: %s%s(%s) -> %s%s%s%n", at, req.name(), agentOf(converter, s), req.arguments(),
                  res.error() ? "ERROR " : "", res.output(), retries);
            }
            break;
          }
          case EVENT_TYPE_ACTIVITY_TASK_FAILED: {
            var failed = e.getActivityTaskFailedEventAttributes();
            HistoryEvent started = startedEvents.get(failed.getStartedEventId());
            System.out.println(at + "activity failed" + (started == null ? "" : " in attempt "
                + started.getActivityTaskStartedEventAttributes().getAttempt()) + ": " + failed.getFailure().getMessage());
            break;
          }
          case EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
            System.out.println(at + "activity timed out: " + e.getActivityTaskTimedOutEventAttributes().getFailure().getMessage());
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
      throw Failures.about("cannot read '" + workflowId + "' on " + connection.address(), e);
    } finally {
      service.shutdown();
    }
  }

  /**
   * An agent step's id with no workflow: the agent took no step then (a jailed citizen), or took it in a
   * group step ({@link StepNotTaken}); any other id: no such run.
   */
  private int noSuchRun(WorkflowClient client, WorkflowServiceStubs service) {
    java.util.Optional<java.util.regex.Matcher> step = StepNotTaken.agentStep(workflowId);
    if (step.isPresent()) {
      SimulationHistories simulation = null;
      try {
        simulation = SimulationHistories.read(client, step.get().group(1));
      } catch (RuntimeException e) {
        if (!notFound(e)) {
          throw e;
        }
      }
      if (simulation != null) {
        return StepNotTaken.explain(client, simulation, step.get().group(2), Integer.parseInt(step.get().group(3)),
            System.out);
      }
    }
    throw new ServerWatch(service, workflowId, "show").notFound();
  }

  private static boolean notFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }

  /**
   * What a call went through before it completed, or "": its attempt when it was retried (a worker
   * died, the provider failed) with the last attempt's failure, and how long after it was scheduled it
   * completed when that is well over its own latency (it waited for a worker or a retry).
   */
  static String retries(HistoryEvent scheduled, HistoryEvent started, HistoryEvent completed) {
    StringBuilder sb = new StringBuilder();
    if (started != null) {
      var attrs = started.getActivityTaskStartedEventAttributes();
      if (attrs.getAttempt() > 1) {
        sb.append(" · attempt ").append(attrs.getAttempt());
        if (attrs.hasLastFailure()) {
          sb.append(" (the one before: ").append(firstLine(attrs.getLastFailure().getMessage())).append(')');
        }
      }
    }
    long waited = millis(completed) - millis(scheduled);
    long ran = started == null ? waited : millis(completed) - millis(started);
    if (waited - ran >= 1000 || (started != null && started.getActivityTaskStartedEventAttributes().getAttempt() > 1)) {
      sb.append(String.format(java.util.Locale.ROOT, " · completed %.1f s after it was scheduled", waited / 1000.0));
    }
    return sb.toString();
  }

  private static long millis(HistoryEvent e) {
    return e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
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
