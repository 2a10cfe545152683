package io.durableagents.workflows.llm.slots;

import io.durableagents.workflows.llm.slots.SlotAnswer.Outcome;
import io.durableagents.workflows.llm.slots.SlotsState.Lease;
import io.durableagents.workflows.llm.slots.SlotsState.Waiter;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * {@link ModelSlotsWorkflow}: the holders (holder to lease) and the line (holder to waiter, first in
 * line first) of one model, handed over to the next run on continue-as-new.
 *
 * <p>The main loop keeps one timer, due at the earliest end of a lease, and continues as new when the
 * history has grown: the waiting {@code acquire} handlers then answer {@link Outcome#AGAIN}, every
 * handler finishes, and the callers ask the new run again, where their places in line are kept.
 */
public final class ModelSlotsWorkflowImpl implements ModelSlotsWorkflow {
  private static final Logger log = Workflow.getLogger(ModelSlotsWorkflowImpl.class);

  private final String model;
  private final int continueAsNewAfterEvents;
  private int capacity;
  private final Map<String, Lease> holders = new LinkedHashMap<>();
  private final Map<String, Waiter> waiting = new LinkedHashMap<>();
  /** The end of the lease the running timer is for; null when none runs. */
  private Long timerEnd;
  private boolean timerDue;
  /** Something changed that may need the timer sooner. */
  private boolean changed;
  private boolean continuing;
  /** The acquire handlers waiting in this run now. */
  private int waitingUpdates;
  /** The acquire updates this run has taken. */
  private int updates;

  /** Takes the state a previous run handed over before any handler runs (update-with-start delivers one at once). */
  @WorkflowInit
  public ModelSlotsWorkflowImpl(ModelSlotsInput input) {
    this.model = input.model();
    this.continueAsNewAfterEvents = input.continueAsNewAfterEvents() == null
        ? CONTINUE_AS_NEW_AFTER_EVENTS : input.continueAsNewAfterEvents();
    SlotsState state = input.state();
    if (state != null) {
      capacity = state.capacity();
      state.holders().forEach(l -> holders.put(l.holder(), l));
      state.waiting().forEach(w -> waiting.put(w.holder(), w));
    }
  }

  @Override
  public void run(ModelSlotsInput input) {
    while (true) {
      armLeaseTimer();
      Workflow.await(() -> changed || timerDue || continueAsNewDue());
      changed = false;
      if (timerDue) {
        timerDue = false;
        timerEnd = null;
        expireLeases();
        grantWaiting();
      }
      if (continueAsNewDue()) {
        // The waiting acquire handlers answer AGAIN (their callers ask the next run) and every other
        // handler ends before the run does: an update still running when a run ends is failed.
        continuing = true;
        Workflow.await(Workflow::isEveryHandlerFinished);
        Workflow.continueAsNew(new ModelSlotsInput(model, slots(), input.continueAsNewAfterEvents()));
      }
    }
  }

  @Override
  public void validateAcquire(SlotRequest request) {
    if (request == null || blank(request.holder()) || blank(request.request())) {
      throw new IllegalArgumentException("a slot request names its holder and its request");
    }
    if (request.capacity() < 1 || request.holdAtMostMillis() < 1) {
      throw new IllegalArgumentException("a slot request asks for a capacity of 1 or more and a hold time, was "
          + request.capacity() + " and " + request.holdAtMostMillis() + " ms");
    }
  }

  @Override
  public SlotAnswer acquire(SlotRequest request) {
    // The latest request's capacity holds: workers configured alike agree, and a change of the setting
    // takes effect as the workers restart with it.
    capacity = request.capacity();
    updates++;
    String holder = request.holder();
    long now = Workflow.currentTimeMillis();
    Lease held = holders.get(holder);
    if (held != null) {
      // A retry of a call whose slot is still held (its worker died, or its attempt timed out), or its
      // request asking again after continue-as-new: it keeps the slot, for as long as it now asks.
      holders.put(holder, new Lease(holder, request.request(), held.sinceMillis(), now + request.holdAtMostMillis()));
      changed = true;
      return answer(Outcome.GRANTED);
    }
    Waiter inLine = waiting.get(holder);
    if (inLine != null) {
      // A retry takes its earlier attempt's place in line (the earlier request's handler answers WITHDRAWN).
      waiting.put(holder, new Waiter(holder, request.request(), request.holdAtMostMillis(), inLine.sinceMillis()));
    } else {
      waiting.put(holder, new Waiter(holder, request.request(), request.holdAtMostMillis(), now));
      grantWaiting();
    }
    String asked = request.request();
    if (holds(holder, asked)) {
      return answer(Outcome.GRANTED);
    }
    int position = position(holder);
    if (continuing) {
      return answer(Outcome.AGAIN);
    }
    if (position >= MOST_WAITING_UPDATES || waitingUpdates >= MOST_WAITING_UPDATES) {
      // Too far back to wait here: a waiting update counts against Temporal's in-flight limit.
      return new SlotAnswer(Outcome.QUEUED, holders.size(), waiting.size(), position);
    }
    waitingUpdates++;
    try {
      Workflow.await(() -> holds(holder, asked) || !waits(holder, asked) || continuing);
    } finally {
      waitingUpdates--;
    }
    if (holds(holder, asked)) {
      return answer(Outcome.GRANTED);
    }
    return answer(waits(holder, asked) ? Outcome.AGAIN : Outcome.WITHDRAWN);
  }

  @Override
  public void release(SlotRelease release) {
    Lease held = holders.get(release.holder());
    if (held != null && held.request().equals(release.request())) {
      holders.remove(release.holder());
    }
    Waiter inLine = waiting.get(release.holder());
    if (inLine != null && inLine.request().equals(release.request())) {
      waiting.remove(release.holder());
    }
    grantWaiting();
    changed = true;
  }

  @Override
  public SlotsState slots() {
    return new SlotsState(capacity, new ArrayList<>(holders.values()), new ArrayList<>(waiting.values()));
  }

  /** How many calls are ahead of {@code holder} in line. */
  private int position(String holder) {
    int ahead = 0;
    for (String waiter : waiting.keySet()) {
      if (waiter.equals(holder)) {
        return ahead;
      }
      ahead++;
    }
    return ahead;
  }

  private boolean holds(String holder, String request) {
    Lease held = holders.get(holder);
    return held != null && held.request().equals(request);
  }

  private boolean waits(String holder, String request) {
    Waiter inLine = waiting.get(holder);
    return inLine != null && inLine.request().equals(request);
  }

  /** Grants slots to the first in line while there are free ones. */
  private void grantWaiting() {
    long now = Workflow.currentTimeMillis();
    Iterator<Waiter> line = waiting.values().iterator();
    while (holders.size() < capacity && line.hasNext()) {
      Waiter next = line.next();
      line.remove();
      holders.put(next.holder(), new Lease(next.holder(), next.request(), now, now + next.holdAtMostMillis()));
      changed = true;
    }
  }

  /** Frees the slots whose holders did not give them back by the end of their hold time. */
  private void expireLeases() {
    long now = Workflow.currentTimeMillis();
    List<Lease> over = holders.values().stream().filter(l -> l.endMillis() <= now).toList();
    for (Lease l : over) {
      holders.remove(l.holder());
      log.warn("model {}: the slot of {} was not given back within its hold time of {} s; freed", model,
          l.holder(), (l.endMillis() - l.sinceMillis()) / 1000);
    }
  }

  /**
   * One timer, due when the earliest lease ends; a new one only when a lease ends sooner than the running
   * timer (leases end in about the order they began, so seldom). A timer that is no longer the one
   * wanted fires into nothing.
   */
  private void armLeaseTimer() {
    long earliest = holders.values().stream().mapToLong(Lease::endMillis).min().orElse(Long.MAX_VALUE);
    if (earliest == Long.MAX_VALUE || (timerEnd != null && timerEnd <= earliest)) {
      return;
    }
    long end = earliest;
    timerEnd = end;
    Workflow.newTimer(Duration.ofMillis(Math.max(1, end - Workflow.currentTimeMillis()))).thenApply(fired -> {
      if (timerEnd != null && timerEnd == end) {
        timerDue = true;
      }
      return fired;
    });
  }

  private boolean continueAsNewDue() {
    return Workflow.getInfo().isContinueAsNewSuggested()
        || Workflow.getInfo().getHistoryLength() > continueAsNewAfterEvents
        || updates > CONTINUE_AS_NEW_AFTER_UPDATES;
  }

  private SlotAnswer answer(Outcome outcome) {
    return new SlotAnswer(outcome, holders.size(), waiting.size(), 0);
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
