package io.durableagents.workflows.llm.slots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.slots.SlotAnswer.Outcome;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ModelSlotsWorkflow} on Temporal's test environment (time skipping): one slot and three calls
 * take turns, first come first served; a retry of a call gets its slot or its place in line back, and
 * a late release of its earlier attempt frees nothing; a dead holder's slot is freed when its hold time
 * ends; continue-as-new keeps the holders and the line.
 */
class ModelSlotsWorkflowTest {
  static final String MODEL = "openai:smollm2";
  static final long HOLD = 60_000;

  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker(TaskQueues.AGENTS).registerWorkflowImplementationTypes(ModelSlotsWorkflowImpl.class);
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    env.close();
  }

  @Test
  void oneSlotThreeCallsTakeTurnsFirstComeFirstServed() throws Exception {
    assertEquals(Outcome.GRANTED, acquire(client, "call-1", "r1", 1).get(10, TimeUnit.SECONDS).outcome());
    CompletableFuture<SlotAnswer> second = acquire(client, "call-2", "r2", 1);
    CompletableFuture<SlotAnswer> third = acquire(client, "call-3", "r3", 1);
    assertEquals(List.of("call-1"), holders(client));
    assertEquals(List.of("call-2", "call-3"), waiting(client));
    assertFalse(second.isDone() || third.isDone(), "a call waits while the slot is held");

    release(client, "call-1", "r1");
    assertEquals(Outcome.GRANTED, second.get(10, TimeUnit.SECONDS).outcome());
    assertEquals(List.of("call-2"), holders(client));
    assertEquals(List.of("call-3"), waiting(client));
    assertFalse(third.isDone());

    release(client, "call-2", "r2");
    assertEquals(Outcome.GRANTED, third.get(10, TimeUnit.SECONDS).outcome());
    release(client, "call-3", "r3");
    assertEquals(List.of(), holders(client));
  }

  @Test
  void aRetryGetsItsSlotBackAndTheEarlierAttemptsReleaseFreesNothing() throws Exception {
    assertEquals(Outcome.GRANTED, acquire(client, "call-1", "attempt-1", 1).get(10, TimeUnit.SECONDS).outcome());
    SlotAnswer retry = acquire(client, "call-1", "attempt-2", 1).get(10, TimeUnit.SECONDS);
    assertEquals(new SlotAnswer(Outcome.GRANTED, 1, 0, 0), retry, "the retry holds the one slot, not a second");
    CompletableFuture<SlotAnswer> other = acquire(client, "call-2", "r", 1);
    release(client, "call-1", "attempt-1");
    assertEquals(List.of("call-1"), holders(client), "the first attempt's late release freed the retry's slot");
    assertFalse(other.isDone());
    release(client, "call-1", "attempt-2");
    assertEquals(Outcome.GRANTED, other.get(10, TimeUnit.SECONDS).outcome());
  }

  @Test
  void aRetryTakesItsEarlierAttemptsPlaceInLine() throws Exception {
    acquire(client, "call-1", "r1", 1).get(10, TimeUnit.SECONDS);
    CompletableFuture<SlotAnswer> earlier = acquire(client, "call-2", "attempt-1", 1);
    CompletableFuture<SlotAnswer> third = acquire(client, "call-3", "r3", 1);
    CompletableFuture<SlotAnswer> retry = acquire(client, "call-2", "attempt-2", 1);
    assertEquals(Outcome.WITHDRAWN, earlier.get(10, TimeUnit.SECONDS).outcome());
    assertEquals(List.of("call-2", "call-3"), waiting(client), "the retry kept the place in line");
    release(client, "call-1", "r1");
    assertEquals(Outcome.GRANTED, retry.get(10, TimeUnit.SECONDS).outcome());
    assertFalse(third.isDone());
  }

  @Test
  void aCallThatLeavesTheLineGetsNoSlot() throws Exception {
    acquire(client, "call-1", "r1", 1).get(10, TimeUnit.SECONDS);
    CompletableFuture<SlotAnswer> leaving = acquire(client, "call-2", "r2", 1);
    CompletableFuture<SlotAnswer> third = acquire(client, "call-3", "r3", 1);
    release(client, "call-2", "r2");
    assertEquals(Outcome.WITHDRAWN, leaving.get(10, TimeUnit.SECONDS).outcome());
    release(client, "call-1", "r1");
    assertEquals(Outcome.GRANTED, third.get(10, TimeUnit.SECONDS).outcome());
  }

  @Test
  void aDeadHoldersSlotIsFreedWhenItsHoldTimeEnds() throws Exception {
    acquire(client, "dead-call", "r1", 1).get(10, TimeUnit.SECONDS);
    CompletableFuture<SlotAnswer> next = acquire(client, "call-2", "r2", 1);
    env.sleep(Duration.ofMillis(HOLD / 2));
    assertEquals(List.of("dead-call"), holders(client), "freed before its hold time ended");
    env.sleep(Duration.ofMillis(HOLD));
    assertEquals(Outcome.GRANTED, next.get(10, TimeUnit.SECONDS).outcome());
    assertEquals(List.of("call-2"), holders(client));
  }

  @Test
  void callsFurtherBackThanTheWaitingUpdatesAreQueuedAndKeepTheirPlace() throws Exception {
    acquire(client, "call-0", "r", 1).get(10, TimeUnit.SECONDS);
    List<CompletableFuture<SlotAnswer>> waitingInWorkflow = new java.util.ArrayList<>();
    for (int i = 1; i <= ModelSlotsWorkflow.MOST_WAITING_UPDATES; i++) {
      waitingInWorkflow.add(acquire(client, "call-" + i, "r", 1));
    }
    int back = ModelSlotsWorkflow.MOST_WAITING_UPDATES + 1;
    SlotAnswer queued = acquire(client, "call-" + back, "r", 1).get(10, TimeUnit.SECONDS);
    assertEquals(Outcome.QUEUED, queued.outcome(), "answered at once, not waiting as the 6th update");
    assertEquals(ModelSlotsWorkflow.MOST_WAITING_UPDATES, queued.position());
    assertEquals(ModelSlotsWorkflow.MOST_WAITING_UPDATES + 1, waiting(client).size());
    assertEquals(queued, acquire(client, "call-" + back, "r", 1).get(10, TimeUnit.SECONDS),
        "asking again keeps the place");
    assertTrue(waitingInWorkflow.stream().noneMatch(CompletableFuture::isDone));
    release(client, "call-0", "r");
    assertEquals(Outcome.GRANTED, waitingInWorkflow.get(0).get(10, TimeUnit.SECONDS).outcome());
    // one place further up, the queued call now waits in the workflow, and its turn comes in order
    CompletableFuture<SlotAnswer> last = acquire(client, "call-" + back, "r", 1);
    for (int i = 1; i <= ModelSlotsWorkflow.MOST_WAITING_UPDATES; i++) {
      assertFalse(last.isDone(), "granted before call-" + i);
      release(client, "call-" + i, "r");
      if (i < ModelSlotsWorkflow.MOST_WAITING_UPDATES) {
        assertEquals(Outcome.GRANTED, waitingInWorkflow.get(i).get(10, TimeUnit.SECONDS).outcome());
      }
    }
    assertEquals(Outcome.GRANTED, last.get(10, TimeUnit.SECONDS).outcome());
  }

  @Test
  void twoSlotsHoldTwoCalls() throws Exception {
    assertEquals(Outcome.GRANTED, acquire(client, "call-1", "r1", 2).get(10, TimeUnit.SECONDS).outcome());
    assertEquals(Outcome.GRANTED, acquire(client, "call-2", "r2", 2).get(10, TimeUnit.SECONDS).outcome());
    CompletableFuture<SlotAnswer> third = acquire(client, "call-3", "r3", 2);
    assertEquals(List.of("call-3"), waiting(client));
    release(client, "call-2", "r2");
    assertEquals(Outcome.GRANTED, third.get(10, TimeUnit.SECONDS).outcome());
  }

  @Test
  void continueAsNewKeepsTheHoldersAndTheLine() throws Exception {
    int after = 40;
    assertEquals(Outcome.GRANTED, acquire(client, "call-1", "r1", 1, after).get(10, TimeUnit.SECONDS).outcome());
    String first = runId(client);
    CompletableFuture<SlotAnswer> second = acquireUntilDecided(client, "call-2", "r2", after);
    CompletableFuture<SlotAnswer> third = acquireUntilDecided(client, "call-3", "r3", after);
    // calls that come and go grow the history past the threshold
    for (int i = 0; i < 10 && runId(client).equals(first); i++) {
      acquire(client, "passing-" + i, "p", 1, after);
      release(client, "passing-" + i, "p");
    }
    assertNotEquals(first, runId(client), "the workflow did not continue as new");
    assertEquals(List.of("call-1"), holders(client));
    assertEquals(List.of("call-2", "call-3"), waiting(client).subList(0, 2), "the line's order was lost");
    assertFalse(second.isDone() || third.isDone());
    release(client, "call-1", "r1");
    assertEquals(Outcome.GRANTED, second.get(10, TimeUnit.SECONDS).outcome());
    assertFalse(third.isDone());
  }

  static CompletableFuture<SlotAnswer> acquire(WorkflowClient client, String holder, String request, int capacity) {
    return acquire(client, holder, request, capacity, null);
  }

  static CompletableFuture<SlotAnswer> acquire(WorkflowClient client, String holder, String request, int capacity,
      Integer continueAsNewAfter) {
    WorkflowStub stub = client.newUntypedWorkflowStub(ModelSlotsWorkflow.TYPE, WorkflowOptions.newBuilder()
        .setWorkflowId(ModelSlotsWorkflow.workflowId(MODEL)).setTaskQueue(TaskQueues.AGENTS)
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING).build());
    WorkflowUpdateHandle<SlotAnswer> handle = stub.startUpdateWithStart(UpdateOptions.newBuilder(SlotAnswer.class)
            .setUpdateName(ModelSlotsWorkflow.ACQUIRE).setWaitForStage(WorkflowUpdateStage.ACCEPTED).build(),
        new Object[] {new SlotRequest(holder, request, capacity, HOLD)},
        new Object[] {new ModelSlotsInput(MODEL, null, continueAsNewAfter)});
    return handle.getResultAsync();
  }

  /** Asks until the answer is not AGAIN, as {@code SharedModelSlots} does. */
  static CompletableFuture<SlotAnswer> acquireUntilDecided(WorkflowClient client, String holder, String request,
      Integer continueAsNewAfter) {
    return acquire(client, holder, request, 1, continueAsNewAfter).thenCompose(a -> a.outcome() == Outcome.AGAIN
        ? acquireUntilDecided(client, holder, request, continueAsNewAfter) : CompletableFuture.completedFuture(a));
  }

  static void release(WorkflowClient client, String holder, String request) {
    client.newUntypedWorkflowStub(ModelSlotsWorkflow.workflowId(MODEL))
        .signal(ModelSlotsWorkflow.RELEASE, new SlotRelease(holder, request));
  }

  static SlotsState state(WorkflowClient client) {
    return client.newWorkflowStub(ModelSlotsWorkflow.class, ModelSlotsWorkflow.workflowId(MODEL)).slots();
  }

  static List<String> holders(WorkflowClient client) {
    return state(client).holders().stream().map(SlotsState.Lease::holder).toList();
  }

  static List<String> waiting(WorkflowClient client) {
    return state(client).waiting().stream().map(SlotsState.Waiter::holder).toList();
  }

  static String runId(WorkflowClient client) {
    return client.newUntypedWorkflowStub(ModelSlotsWorkflow.workflowId(MODEL)).describe().getExecution().getRunId();
  }
}
