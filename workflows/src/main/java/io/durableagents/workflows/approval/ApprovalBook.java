package io.durableagents.workflows.approval;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowLocal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tool calls of one workflow that wait for a person's decision, and the handlers of the {@link
 * ToolApprovals} updates and query that decide and show them. Workflow code only: one book per
 * workflow run ({@link #current}), registered as a listener the first time it is asked for, which every
 * workflow that runs tools does when it starts, so that the query answers from its first task.
 *
 * <p>A call waits in {@link #await}, a workflow thread blocked on {@code Workflow.await} (with a timer
 * when the run's {@link ApprovalOptions} set a timeout). The wait is durable: the decision is an update
 * in the workflow's history, so a worker that dies while a call waits loses nothing, and a replay
 * applies the decision again exactly where it was taken, once. Call ids are numbered in the order the
 * calls open ({@code 1}, {@code 2}, ...), which replay repeats.
 */
public final class ApprovalBook implements ToolApprovals {
  /** Counter of decided calls, tagged {@code outcome} ({@link ApprovalOutcome#label()}) and {@code tool}. */
  public static final String APPROVALS = "durable_agents_approvals";
  /** Timer of how long calls waited for their decision, tagged {@code outcome}. */
  public static final String APPROVAL_WAIT = "durable_agents_approval_wait";
  /** The failure type of an update that finds its call decided in the meantime. */
  public static final String ALREADY_DECIDED = "ApprovalAlreadyDecided";

  private static final WorkflowLocal<ApprovalBook> CURRENT = WorkflowLocal.withCachedInitial(() -> null);

  private final ToolPolicies policies;
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private int nextId = 1;
  private boolean searchAttributeSet;

  /** A call as the book tracks it. */
  private static final class Entry {
    final String callId;
    final String workflowId;
    final String agentId;
    final int step;
    final ToolCall call;
    final long waitingSince;
    final Long timeoutAt;
    final TimeoutDecision onTimeout;
    final boolean searchAttribute;
    ApprovalOutcome outcome;
    String reason;
    JsonNode editedArguments;
    String reviewer;
    long decidedAt;

    Entry(String callId, String workflowId, String agentId, int step, ToolCall call, long waitingSince,
        Long timeoutAt, TimeoutDecision onTimeout, boolean searchAttribute) {
      this.callId = callId;
      this.workflowId = workflowId;
      this.agentId = agentId;
      this.step = step;
      this.call = call;
      this.waitingSince = waitingSince;
      this.timeoutAt = timeoutAt;
      this.onTimeout = onTimeout;
      this.searchAttribute = searchAttribute;
    }

    ToolApproval view() {
      return new ToolApproval(callId, workflowId, agentId, step, call.name(), call.id(), call.arguments(),
          time(waitingSince), timeoutAt == null ? null : time(timeoutAt),
          timeoutAt == null ? null : onTimeout.label(), outcome, reason, editedArguments, reviewer,
          outcome == null ? null : time(decidedAt));
    }
  }

  /**
   * How a waiting call was decided: the outcome, the arguments it runs with, and what the model reads
   * when it does not run.
   *
   * @param callId the call's id in the book
   * @param outcome the decision
   * @param arguments the arguments to run it with (the model's, or the reviewer's after {@code edit})
   * @param reason the reviewer's reason, or null
   * @param observation what the model reads instead of a result when the call does not run; null when it runs
   */
  public record Decision(String callId, ApprovalOutcome outcome, JsonNode arguments, String reason,
      String observation) {}

  private ApprovalBook(ToolPolicies policies) {
    this.policies = policies == null ? ToolPolicies.defaults() : policies;
  }

  /**
   * This workflow run's book, made and registered as the listener of the {@link ToolApprovals} updates
   * and query the first time; {@code policies} says which tools require approval on this worker and
   * checks {@code edit} arguments against their schemas.
   */
  public static ApprovalBook current(ToolPolicies policies) {
    ApprovalBook book = CURRENT.get();
    if (book == null) {
      book = new ApprovalBook(policies);
      Workflow.registerListener(book);
      CURRENT.set(book);
    }
    return book;
  }

  /** Whether a call of {@code tool} waits for a decision: the worker's registration or the run's options. */
  public boolean requiresApproval(String tool, ApprovalOptions options) {
    return policies.requiresApproval(tool) || (options != null && options.tools().contains(tool));
  }

  /**
   * Opens the wait of {@code call}: it is listed by the query from now on, and the {@code
   * AwaitingApproval} search attribute is set when the options ask for it. Returns its id in the book.
   */
  public String open(ToolCall call, String agentId, int step, ApprovalOptions options) {
    ApprovalOptions o = options == null ? ApprovalOptions.NONE : options;
    String id = String.valueOf(nextId++);
    long now = Workflow.currentTimeMillis();
    Long timeoutAt = o.timeoutSeconds() == null ? null : now + o.timeoutSeconds() * 1000;
    boolean mark = o.setsSearchAttribute() || startedWithSearchAttributes();
    entries.put(id, new Entry(id, Workflow.getInfo().getWorkflowId(), agentId, step, call, now, timeoutAt,
        o.timeoutDecision(), mark));
    if (mark && !searchAttributeSet) {
      searchAttributeSet = true;
      Workflow.upsertTypedSearchAttributes(SearchAttributes.AWAITING_APPROVAL.valueSet(true));
    }
    return id;
  }

  /**
   * Waits (durably) until call {@code callId} is decided by an update, or by its timeout's default
   * decision; counts the outcome and the wait; clears the search attribute when no call waits any more.
   * Must run in a workflow thread of its own when other work goes on meanwhile (the agent runtime runs
   * it in {@code Async.function}).
   */
  public Decision await(String callId) {
    Entry e = entries.get(callId);
    try {
      if (e.timeoutAt == null) {
        Workflow.await(() -> e.outcome != null);
      } else {
        Duration timeout = Duration.ofMillis(Math.max(1, e.timeoutAt - e.waitingSince));
        if (!Workflow.await(timeout, () -> e.outcome != null)) {
          e.outcome = e.onTimeout == TimeoutDecision.APPROVE
              ? ApprovalOutcome.TIMEOUT_APPROVED : ApprovalOutcome.TIMEOUT_DENIED;
          e.decidedAt = Workflow.currentTimeMillis();
          e.reviewer = "timeout";
        }
      }
    } catch (CanceledFailure cancelled) {
      // The run (or its scope) was cancelled while the call waited: the call is over, and no longer
      // shown as waiting, in the query or in the search attribute, which outlives the run in the list.
      if (e.outcome == null) {
        e.outcome = ApprovalOutcome.CANCELLED;
        e.decidedAt = Workflow.currentTimeMillis();
        e.reviewer = "cancelled";
      }
      Workflow.newDetachedCancellationScope(() -> settled(e)).run();
      throw cancelled;
    }
    settled(e);
    return new Decision(e.callId, e.outcome,
        e.outcome == ApprovalOutcome.EDITED ? e.editedArguments : e.call.arguments(), e.reason, observation(e));
  }

  /** Counts a decided call and its wait; clears the search attribute when no call waits any more. */
  private void settled(Entry e) {
    Workflow.getMetricsScope().tagged(Map.of("outcome", e.outcome.label(), "tool", e.call.name()))
        .counter(APPROVALS).inc(1);
    Workflow.getMetricsScope().tagged(Map.of("outcome", e.outcome.label()))
        .timer(APPROVAL_WAIT).record(com.uber.m3.util.Duration.ofMillis(Math.max(0, e.decidedAt - e.waitingSince)));
    if (searchAttributeSet && entries.values().stream().noneMatch(x -> x.outcome == null)) {
      searchAttributeSet = false;
      Workflow.upsertTypedSearchAttributes(SearchAttributes.AWAITING_APPROVAL.valueSet(false));
    }
  }

  /**
   * Whether this workflow was started with our search attributes (a simulation's agent steps are, when
   * the namespace has them): then {@code AwaitingApproval}, registered with them, can be set too. Read
   * from the workflow's start, so replay gives the same answer.
   */
  private static boolean startedWithSearchAttributes() {
    return Workflow.getTypedSearchAttributes().containsKey(SearchAttributes.SCENARIO);
  }

  /** What the model reads for a call that did not run. */
  private static String observation(Entry e) {
    switch (e.outcome) {
      case DENIED:
        return "The reviewer denied this call of " + e.call.name() + ", so it did not run. Reason: "
            + e.reason;
      case TIMEOUT_DENIED:
        return "Nobody approved this call of " + e.call.name() + " within "
            + (e.timeoutAt - e.waitingSince) / 1000 + " s, so it did not run.";
      default:
        return null;
    }
  }

  /** The calls of this book that wait, in order. */
  public List<ToolApproval> pending() {
    List<ToolApproval> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.outcome == null) {
        out.add(e.view());
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the updates and the query

  @Override
  public List<ToolApproval> approvals() {
    List<ToolApproval> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      out.add(e.view());
    }
    return out;
  }

  @Override
  public void validateApprove(ApprovalDecision decision) {
    waiting(decision);
    if (decision.arguments() != null && !decision.arguments().isNull()) {
      throw new IllegalArgumentException("approve takes no arguments: send other arguments with edit");
    }
  }

  @Override
  public ApprovalResult approve(ApprovalDecision decision) {
    return decide(decision, ApprovalOutcome.APPROVED);
  }

  @Override
  public void validateDeny(ApprovalDecision decision) {
    waiting(decision);
    if (decision.reason() == null || decision.reason().isBlank()) {
      throw new IllegalArgumentException("deny needs a reason: the model reads it (--reason \"...\")");
    }
  }

  @Override
  public ApprovalResult deny(ApprovalDecision decision) {
    return decide(decision, ApprovalOutcome.DENIED);
  }

  @Override
  public void validateEdit(ApprovalDecision decision) {
    Entry e = waiting(decision);
    JsonNode args = decision.arguments();
    if (args == null || args.isNull()) {
      throw new IllegalArgumentException("edit needs the arguments the call runs with instead (--args '{...}')");
    }
    if (!args.isObject()) {
      throw new IllegalArgumentException("the arguments must be a JSON object, got " + args);
    }
    List<String> problems = policies.argumentCheck().problems(e.call.name(), args);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("the arguments do not fit " + e.call.name() + "'s schema: "
          + String.join("; ", problems));
    }
  }

  @Override
  public ApprovalResult edit(ApprovalDecision decision) {
    return decide(decision, ApprovalOutcome.EDITED);
  }

  /** The waiting call a decision names, or a refusal naming what is wrong. */
  private Entry waiting(ApprovalDecision decision) {
    if (decision == null || decision.callId() == null || decision.callId().isBlank()) {
      throw new IllegalArgumentException("no call id: name the call (" + waitingIds() + ")");
    }
    Entry e = entries.get(decision.callId().strip());
    if (e == null) {
      throw new IllegalArgumentException("no call '" + decision.callId() + "' in "
          + Workflow.getInfo().getWorkflowId() + "; " + waitingIds());
    }
    if (e.outcome != null) {
      throw new IllegalArgumentException("call " + e.callId + " (" + e.call.name() + ") was decided already: "
          + e.outcome.label() + " at " + time(e.decidedAt));
    }
    return e;
  }

  private String waitingIds() {
    List<String> ids = entries.values().stream().filter(x -> x.outcome == null).map(x -> x.callId).toList();
    return ids.isEmpty() ? "no call waits for approval" : "calls waiting: " + String.join(", ", ids);
  }

  private ApprovalResult decide(ApprovalDecision decision, ApprovalOutcome outcome) {
    Entry e = entries.get(decision.callId().strip());
    if (e == null || e.outcome != null) {
      // Two decisions on one call taken in the same workflow task: the first wins, the second fails.
      throw ApplicationFailure.newNonRetryableFailure("call " + decision.callId() + " was decided already",
          ALREADY_DECIDED);
    }
    e.outcome = outcome;
    e.reason = decision.reason() == null || decision.reason().isBlank() ? null : decision.reason().strip();
    e.editedArguments = outcome == ApprovalOutcome.EDITED ? decision.arguments() : null;
    e.reviewer = decision.reviewer();
    e.decidedAt = Workflow.currentTimeMillis();
    return new ApprovalResult(e.callId, e.call.name(), outcome);
  }

  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
