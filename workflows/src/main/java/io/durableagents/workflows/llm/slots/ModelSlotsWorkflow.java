package io.durableagents.workflows.llm.slots;

import io.durableagents.workflows.TaskQueues;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The slots of one model shared by every worker of a Temporal namespace ({@code
 * DURABLE_AGENTS_LLM_SLOTS_SCOPE=shared}): at most {@code capacity} calls of the model hold a slot at
 * once, whichever worker runs them; the others wait in line, first come first served. One workflow per
 * capped model, {@link #workflowId}{@code (model)} on {@link TaskQueues#AGENTS}, started by the first
 * call that asks (update-with-start) and running for as long as the namespace does, continued as new
 * when its history grows.
 *
 * <p>A call asks with the {@link #acquire} update, which returns when the slot is granted, and gives it
 * back with the {@link #release} signal. A slot not given back within the hold time its call asked for
 * (its worker died and no retry came) is freed by a timer. A retry of the call (the same holder) takes
 * over the slot, or the place in line, that its earlier attempt left.
 *
 * <pre>{@code
 * WorkflowStub slots = client.newUntypedWorkflowStub(ModelSlotsWorkflow.TYPE, WorkflowOptions.newBuilder()
 *     .setWorkflowId(ModelSlotsWorkflow.workflowId("openai:smollm2")).setTaskQueue(TaskQueues.AGENTS)
 *     .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING).build());
 * SlotAnswer answer = slots.executeUpdateWithStart(UpdateOptions.newBuilder(SlotAnswer.class)
 *     .setUpdateName(ModelSlotsWorkflow.ACQUIRE).build(),
 *     new Object[] {new SlotRequest("sim/agent-1/step-2/7", "req-1", 1, 130_000)},
 *     new Object[] {ModelSlotsInput.of("openai:smollm2")});
 * ...
 * slots.signal(ModelSlotsWorkflow.RELEASE, new SlotRelease("sim/agent-1/step-2/7", "req-1"));
 * }</pre>
 */
@WorkflowInterface
public interface ModelSlotsWorkflow {
  /** The workflow type. */
  String TYPE = "ModelSlots";
  /** The update that asks for a slot. */
  String ACQUIRE = "acquire";
  /** The signal that gives one back. */
  String RELEASE = "release";
  /** What the workflow ids start with; the model reference follows. */
  String WORKFLOW_ID_PREFIX = "durable-agents-slots/";
  /** Continue as new after this many events (or sooner, when the server suggests it). */
  int CONTINUE_AS_NEW_AFTER_EVENTS = 4_000;
  /**
   * Continue as new after this many {@code acquire} updates, under Temporal's limit of updates per run
   * ({@code limit.workflowExecution.maxTotalUpdates}, 2,000 by default).
   */
  int CONTINUE_AS_NEW_AFTER_UPDATES = 1_000;
  /**
   * The most {@code acquire} updates that wait in the workflow at once, those first in line: Temporal
   * allows 10 in-flight updates per workflow ({@code history.maxInFlightUpdates}), and new requests need
   * room too. Calls further back are answered {@link SlotAnswer.Outcome#QUEUED} at once and ask again.
   */
  int MOST_WAITING_UPDATES = 5;

  /** The id of the workflow that holds {@code model}'s slots. */
  static String workflowId(String model) {
    return WORKFLOW_ID_PREFIX + model.trim();
  }

  @WorkflowMethod(name = TYPE)
  void run(ModelSlotsInput input);

  /**
   * Waits until the request's holder has a slot, and answers {@link SlotAnswer.Outcome#GRANTED}; or
   * {@link SlotAnswer.Outcome#AGAIN} when the workflow continues as new meanwhile (ask again with the
   * same request: the place in line is kept), {@link SlotAnswer.Outcome#QUEUED} at once when the request
   * is further back in line than {@link #MOST_WAITING_UPDATES} (ask again later, the place is kept), or
   * {@link SlotAnswer.Outcome#WITHDRAWN} when the request was released or a newer request of the same
   * holder took its place.
   */
  @UpdateMethod(name = ACQUIRE)
  SlotAnswer acquire(SlotRequest request);

  /** Refuses a request that names no holder or request, or asks for no capacity or hold time. */
  @UpdateValidatorMethod(updateName = ACQUIRE)
  void validateAcquire(SlotRequest request);

  /** Gives back the holder's slot, or takes it out of the line, when {@code release.request} is still its. */
  @SignalMethod(name = RELEASE)
  void release(SlotRelease release);

  /** The capacity, the holders and the calls in line, now. */
  @QueryMethod(name = "slots")
  SlotsState slots();
}
