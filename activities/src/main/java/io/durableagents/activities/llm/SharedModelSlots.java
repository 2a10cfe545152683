package io.durableagents.activities.llm;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.slots.ModelSlotsInput;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflow;
import io.durableagents.workflows.llm.slots.SlotAnswer;
import io.durableagents.workflows.llm.slots.SlotRelease;
import io.durableagents.workflows.llm.slots.SlotRequest;
import io.temporal.activity.Activity;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.client.WorkflowUpdateTimeoutOrCancelledException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slots shared by every worker of a Temporal namespace ({@code DURABLE_AGENTS_LLM_SLOTS_SCOPE=shared}): a
 * model's calls at once are bounded across all workers, for a model server that several workers call
 * (a llama.cpp server with 1-4 slots, an Ollama with {@code OLLAMA_NUM_PARALLEL}). Each capped model has
 * a {@link ModelSlotsWorkflow} ({@code durable-agents-slots/<model>}, on the agents task queue), which
 * the first call that asks starts (update-with-start); a call waits in its line, first come first
 * served, without any time limit of its own (the LLM activity heartbeats meanwhile), and gives its slot
 * back when its call to the model has ended. The first {@value ModelSlotsWorkflow#MOST_WAITING_UPDATES}
 * in line wait in the workflow (an update answered when granted); those further back are answered at
 * once and ask again after a pause ({@link #pause}), for Temporal allows a workflow only 10 updates in
 * flight. The capacity is this worker's {@link LlmSlotLimits#of}; when
 * workers disagree, the latest request's capacity holds. A model without a limit costs nothing: {@link
 * Slot#FREE}, no call to Temporal.
 *
 * <p>What it costs: a call that finds a free slot makes one update (answered at once) and one signal,
 * 7-8 history events of the slots workflow (more when many wait: the calls far back in line ask again)
 * and 45-75 ms on the dev server on 2 cores; the workflow continues as new every {@value
 * ModelSlotsWorkflow#CONTINUE_AS_NEW_AFTER_EVENTS} events.
 *
 * <pre>{@code
 * ModelSlots slots = new SharedModelSlots(LlmSlotLimits.parse("openai:smollm2=1"));
 * try (ModelSlots.Slot slot = slots.acquire("openai:smollm2", holder, Duration.ofSeconds(130))) {
 *   response = model.chat(request);   // in an activity: the slots workflow is reached with its client
 * }
 * }</pre>
 */
public final class SharedModelSlots implements ModelSlots {
  private static final Logger log = LoggerFactory.getLogger(SharedModelSlots.class);
  /** Times a request is sent again after the slots workflow's run ended under it. */
  private static final int ATTEMPTS_AFTER_A_RUN_ENDED = 5;

  private final LlmSlotLimits limits;
  private final Supplier<WorkflowClient> client;

  /** Slots reached with the client of the activity that asks (an LLM activity's). */
  public SharedModelSlots(LlmSlotLimits limits) {
    this(limits, () -> Activity.getExecutionContext().getWorkflowClient());
  }

  /** Slots reached with {@code client}. */
  public SharedModelSlots(LlmSlotLimits limits, Supplier<WorkflowClient> client) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public Slot acquire(String model, String holder, Duration holdAtMost) throws InterruptedException {
    int capacity = limits.of(model);
    if (capacity == 0) {
      return Slot.FREE;
    }
    WorkflowClient temporal = client.get();
    String workflowId = ModelSlotsWorkflow.workflowId(model);
    String request = UUID.randomUUID().toString();
    SlotRequest asked = new SlotRequest(holder, request, capacity, Math.max(1, holdAtMost.toMillis()));
    long start = System.nanoTime();
    int runsEnded = 0;
    try {
      while (true) {
        SlotAnswer answer;
        try {
          answer = ask(temporal, model, workflowId, asked).get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof WorkflowUpdateException ended && ++runsEnded < ATTEMPTS_AFTER_A_RUN_ENDED) {
            // The run ended under the accepted request (terminated, reset): the next run has the line.
            log.debug("slots of {}: the request of {} asks again after {}", model, holder, ended.getMessage());
            continue;
          }
          throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (WorkflowUpdateTimeoutOrCancelledException busy) {
          if (Thread.currentThread().isInterrupted()) {
            throw busy;
          }
          // Not accepted within the client's minute, e.g. retried while the workflow had as many updates in
          // flight as Temporal allows: a wait for a slot does not time out, so ask again.
          log.debug("slots of {}: the request of {} asks again after {}", model, holder, busy.toString());
          continue;
        }
        switch (answer.outcome()) {
          case GRANTED -> {
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            log.debug("slots of {}: {} holds one of {} after waiting {} ms", model, holder, capacity, waited.toMillis());
            SlotRelease release = new SlotRelease(holder, request);
            return Slot.of(waited, () -> release(temporal, model, workflowId, release));
          }
          case AGAIN -> {
            // The slots workflow continued as new; the request keeps its place in the next run.
          }
          case QUEUED -> Thread.sleep(pause(answer.position()).toMillis());
          case WITHDRAWN -> throw new IllegalStateException("the slot request of " + holder + " for " + model
              + " was taken over by a newer attempt of the same call");
        }
      }
    } catch (InterruptedException e) {
      // The activity was cancelled or timed out: leave the line, or give back a slot granted meanwhile.
      release(temporal, model, workflowId, new SlotRelease(holder, request));
      throw e;
    } catch (RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        // gRPC's blocking calls end with CANCELLED when the thread is interrupted.
        Thread.interrupted();
        release(temporal, model, workflowId, new SlotRelease(holder, request));
        InterruptedException interrupted = new InterruptedException("interrupted while waiting for a slot of " + model);
        interrupted.initCause(e);
        throw interrupted;
      }
      throw e;
    }
  }

  /**
   * How long a call {@code position} places back in line waits before it asks again: half a second for
   * each call between it and those waiting in the workflow, at most {@link #LONGEST_PAUSE}. Slots go
   * first in line first, so a call asks about as often as the line moves past the waiting ones.
   */
  static Duration pause(int position) {
    long steps = Math.max(1, position - ModelSlotsWorkflow.MOST_WAITING_UPDATES + 1);
    return Duration.ofMillis(Math.min(LONGEST_PAUSE.toMillis(), 500 * steps));
  }

  /** The longest pause of a call far back in line before it asks again. */
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

  /** Sends the request (starting the model's slots workflow if none runs); completes with its answer. */
  private static CompletableFuture<SlotAnswer> ask(WorkflowClient temporal, String model, String workflowId,
      SlotRequest request) {
    WorkflowStub slots = temporal.newUntypedWorkflowStub(ModelSlotsWorkflow.TYPE, WorkflowOptions.newBuilder()
        .setWorkflowId(workflowId)
        .setTaskQueue(TaskQueues.AGENTS)
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
        .build());
    // Accepted, not completed: the wait for the grant is then a long poll whose future an interrupt leaves.
    return slots.<SlotAnswer>startUpdateWithStart(UpdateOptions.newBuilder(SlotAnswer.class)
            .setUpdateName(ModelSlotsWorkflow.ACQUIRE).setWaitForStage(WorkflowUpdateStage.ACCEPTED).build(),
        new Object[] {request}, new Object[] {ModelSlotsInput.of(model)}).getResultAsync();
  }

  /** Signals the release, even from an interrupted thread; a failure leaves the slot to its hold time. */
  private static void release(WorkflowClient temporal, String model, String workflowId, SlotRelease release) {
    boolean interrupted = Thread.interrupted();
    try {
      temporal.newUntypedWorkflowStub(workflowId).signal(ModelSlotsWorkflow.RELEASE, release);
    } catch (RuntimeException e) {
      log.warn("slots of {}: could not give back the slot of {} ({}); it is freed when its hold time ends",
          model, release.holder(), e.toString());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
