package io.durableagents.starter.view.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.simulation.AgentPlanStatus;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.failure.v1.Failure;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One agent at one step, read from the history of the workflow that ran its step (its own, or the group
 * step's that held it), every payload decoded through the client's data converter (so decrypted with
 * the configured keys, here and nowhere else): what it saw, remembered and planned, its LLM calls with
 * their text and tokens, its tool calls with arguments and results, and the actions it chose. The
 * prompts sent to the model are not part of it.
 */
final class AgentStepReading {
  /** The activity type of an external tool call ({@code ToolActivities.execute}). */
  static final String TOOL_ACTIVITY_TYPE = "ToolExecute";

  private final DataConverter converter;
  private final ObjectMapper json;

  AgentStepReading(DataConverter converter, ObjectMapper json) {
    this.converter = converter;
    this.json = json;
  }

  /**
   * The agent {@code agentId} at {@code step} from {@code history} (a group step's when {@code group}),
   * in the shape of {@code SimulationPast#agent}.
   */
  ObjectNode read(WorkflowExecutionHistory history, String agentId, int step, boolean group) {
    List<HistoryEvent> events = history.getEvents();
    Payloads startInput = events.get(0).getWorkflowExecutionStartedEventAttributes().getInput();
    AgentStepInput input = null;
    int index = 0;
    if (group) {
      List<AgentStepInput> agents = decode(startInput, AgentGroupStepInput.class).agents();
      for (int i = 0; i < agents.size(); i++) {
        if (agents.get(i).agentId().equals(agentId)) {
          input = agents.get(i);
          index = i;
        }
      }
      if (input == null) {
        throw new IllegalArgumentException(history.getWorkflowExecution().getWorkflowId() + " holds no step of "
            + agentId);
      }
    } else {
      input = decode(startInput, AgentStepInput.class);
    }

    ObjectNode agent = json.createObjectNode();
    agent.put("agentId", agentId);
    agent.put("step", step);
    agent.put("role", input.role());
    agent.put("strategy", input.options().strategy() == null ? null : input.options().strategy().name().toLowerCase());
    // plain maps, not the history's neighbour table: what the agent saw, as a view lists it
    ObjectNode observation = agent.putObject("observation");
    observation.put("step", input.observation().step());
    observation.set("selfState", json.valueToTree(input.observation().selfState()));
    observation.set("localState", json.valueToTree(input.observation().localState()));
    agent.set("memory", json.valueToTree(input.memory()));
    agent.set("planBefore", json.valueToTree(input.plan()));

    AgentStepResult result = null;
    String failure = null;
    HistoryEvent last = history.getLastEvent();
    switch (last.getEventType()) {
      case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED -> {
        Payloads output = last.getWorkflowExecutionCompletedEventAttributes().getResult();
        result = group ? decode(output, AgentStepResult[].class)[index] : decode(output, AgentStepResult.class);
      }
      case EVENT_TYPE_WORKFLOW_EXECUTION_FAILED -> failure =
          message(last.getWorkflowExecutionFailedEventAttributes().getFailure());
      default -> {
        // running (a call waiting, or still thinking), timed out or terminated: what happened so far
      }
    }
    Plan plan = result != null ? result.plan() : input.plan();
    AgentPlanStatus status = AgentPlanStatus.of(agentId, input.role(), null, plan, step + 1);
    agent.set("plan", json.valueToTree(plan));
    agent.put("remainingTtl", status.validForSteps());
    agent.put("remainingPlannedSteps", status.remainingPlannedSteps());
    agent.put("reasoning", result == null ? null : result.reasoning());
    agent.set("actions", json.valueToTree(result == null ? List.of() : result.actions()));
    if (result != null && result.failure() != null) {
      failure = result.failure();
    }
    agent.put("failure", failure);
    agent.put("status", result != null ? "completed" : statusOf(last));
    calls(events, agentId, group, agent.putArray("llmCalls"), agent.putArray("toolCalls"));
    return agent;
  }

  /** Each LLM and tool activity of the agent, in the order they were scheduled, with how it ended. */
  private void calls(List<HistoryEvent> events, String agentId, boolean group, ArrayNode llmCalls,
      ArrayNode toolCalls) {
    Map<Long, ObjectNode> byScheduledId = new HashMap<>();
    Map<Long, Boolean> isLlm = new LinkedHashMap<>();
    for (HistoryEvent e : events) {
      switch (e.getEventType()) {
        case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED -> {
          var scheduled = e.getActivityTaskScheduledEventAttributes();
          String type = scheduled.getActivityType().getName();
          if (type.equals(LlmActivities.CHAT_ACTIVITY_TYPE)) {
            LlmRequest request = decode(scheduled.getInput(), LlmRequest.class);
            if (group && !agentId.equals(request.agent())) {
              continue;
            }
            ObjectNode call = llmCalls.addObject();
            call.put("model", request.model());
            call.put("purpose", request.purpose());
            call.put("text", (String) null);
            call.put("inputTokens", 0);
            call.put("outputTokens", 0);
            call.set("toolCalls", json.createArrayNode());
            call.put("status", "running");
            byScheduledId.put(e.getEventId(), call);
            isLlm.put(e.getEventId(), true);
          } else if (type.equals(TOOL_ACTIVITY_TYPE)) {
            ToolExecutionRequest request = decode(scheduled.getInput(), ToolExecutionRequest.class);
            if (group && (request.idempotencyKey() == null
                || !request.idempotencyKey().contains("/agent-" + agentId + "/"))) {
              continue;
            }
            ObjectNode call = toolCalls.addObject();
            call.put("name", request.name());
            call.set("arguments", request.arguments());
            call.put("result", (String) null);
            call.put("error", (String) null);
            call.put("status", "running");
            byScheduledId.put(e.getEventId(), call);
            isLlm.put(e.getEventId(), false);
          }
        }
        case EVENT_TYPE_ACTIVITY_TASK_COMPLETED -> {
          var done = e.getActivityTaskCompletedEventAttributes();
          ObjectNode call = byScheduledId.get(done.getScheduledEventId());
          if (call == null) {
            continue;
          }
          call.put("status", "completed");
          if (isLlm.get(done.getScheduledEventId())) {
            LlmResponse response = decode(done.getResult(), LlmResponse.class);
            call.put("model", response.model() == null ? call.get("model").asText() : response.model());
            call.put("text", response.text());
            call.put("inputTokens", response.usage().input());
            call.put("outputTokens", response.usage().output());
            call.put("latencyMillis", response.latencyMillis());
            call.set("toolCalls", json.valueToTree(response.toolCalls()));
          } else {
            ToolExecutionResult result = decode(done.getResult(), ToolExecutionResult.class);
            call.put("result", result.output());
            if (result.error()) {
              call.put("error", result.output());
            }
          }
        }
        case EVENT_TYPE_ACTIVITY_TASK_FAILED -> ended(byScheduledId.get(
            e.getActivityTaskFailedEventAttributes().getScheduledEventId()), "failed",
            message(e.getActivityTaskFailedEventAttributes().getFailure()));
        case EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT -> ended(byScheduledId.get(
            e.getActivityTaskTimedOutEventAttributes().getScheduledEventId()), "timed out",
            message(e.getActivityTaskTimedOutEventAttributes().getFailure()));
        case EVENT_TYPE_ACTIVITY_TASK_CANCELED -> ended(byScheduledId.get(
            e.getActivityTaskCanceledEventAttributes().getScheduledEventId()), "canceled", "canceled");
        default -> {
        }
      }
    }
  }

  private static void ended(ObjectNode call, String status, String error) {
    if (call != null) {
      call.put("status", status);
      call.put("error", error);
    }
  }

  private static String statusOf(HistoryEvent last) {
    return switch (last.getEventType()) {
      case EVENT_TYPE_WORKFLOW_EXECUTION_FAILED -> "failed";
      case EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT -> "timed out";
      case EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED -> "terminated";
      case EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED -> "canceled";
      default -> "running";
    };
  }

  /**
   * What a failure says, decoded through the converter (a codec may have encrypted its message): the
   * message of the application failure inside it (an activity's or child's failure wraps it).
   */
  private String message(Failure failure) {
    Throwable t = converter.failureToException(failure);
    while (!(t instanceof ApplicationFailure) && t.getCause() != null) {
      t = t.getCause();
    }
    return t instanceof TemporalFailure temporal ? temporal.getOriginalMessage() : t.getMessage();
  }

  private <T> T decode(Payloads payloads, Class<T> type) {
    return converter.fromPayloads(0, Optional.of(payloads), type, type);
  }
}
