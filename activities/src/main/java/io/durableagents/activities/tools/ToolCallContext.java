package io.durableagents.activities.tools;

import dev.langchain4j.invocation.LangChain4jManaged;
import io.durableagents.activities.heartbeat.WaitingHeartbeats;
import io.temporal.activity.ActivityExecutionContext;
import java.util.Optional;

/**
 * What a registered tool may know about the call it serves: the idempotency key, the same on every
 * attempt of one call, the attempt number, and heartbeats. A tool receives it by declaring a parameter
 * of this type on its {@code @Tool} method; the parameter is not part of the tool's JSON schema (the
 * model never sees it) and is filled by the tool activity. Tools that don't need it leave it out.
 *
 * <pre>{@code
 * public class Payments {
 *   @Tool(name = "pay_invoice", value = "Pays an invoice.")
 *   @DurableTool(maximumAttempts = 5, nonRetryable = InvoiceClosedException.class)
 *   public String pay(@P("the invoice id") String invoiceId, ToolCallContext call) {
 *     // The bank keeps one payment per key: a retry after a lost answer does not pay twice.
 *     Receipt receipt = bank.pay(invoiceId, call.idempotencyKey());
 *     return "paid: " + receipt.id();
 *   }
 * }
 * }</pre>
 *
 * <p>The key is {@code <workflow id>/<step>/<tool call id>} ({@code <workflow id>/agent-<id>/...} when
 * several agents share a workflow): unique per call of a run, and equal across the retries of that
 * call, including a retry on another worker after the first one died. Hand it to whatever the tool
 * changes in the world (a payment API's idempotency key, a unique column) so that a call that ran but
 * whose answer was lost does not take effect twice.
 *
 * <p>While a tool runs, the worker heartbeats for it, so a long tool needs no code to stay alive; a
 * tool may still call {@link #heartbeat(Object)} to record how far it got, which the next attempt
 * reads with {@link #lastHeartbeatDetails(Class)} to go on from there.
 *
 * <p>It implements LangChain4j's {@link LangChain4jManaged}, which is how LangChain4j knows to leave
 * the parameter out of the schema; the same tool object keeps working with LangChain4j's own
 * {@code AiServices}, outside Temporal, where the parameter is null.
 */
public final class ToolCallContext implements LangChain4jManaged {
  private final String toolName;
  private final String idempotencyKey;
  private final int attempt;
  private final ActivityExecutionContext activity;
  private final WaitingHeartbeats heartbeats;

  ToolCallContext(String toolName, String idempotencyKey, int attempt, ActivityExecutionContext activity,
      WaitingHeartbeats heartbeats) {
    this.toolName = toolName;
    this.idempotencyKey = idempotencyKey;
    this.attempt = attempt;
    this.activity = activity;
    this.heartbeats = heartbeats;
  }

  /**
   * A context for calling a tool outside an activity, as a unit test of the tool does: attempt 1,
   * heartbeats go nowhere, no details from an earlier attempt.
   */
  public static ToolCallContext of(String toolName, String idempotencyKey) {
    return new ToolCallContext(toolName, idempotencyKey, 1, null, null);
  }

  /** The tool's name, as the model called it. */
  public String toolName() {
    return toolName;
  }

  /**
   * {@code <workflow id>/<step>/<tool call id>}: the same on every attempt of this call, different for
   * every other call.
   */
  public String idempotencyKey() {
    return idempotencyKey;
  }

  /** 1 for the first attempt of this call, 2 for the first retry, ... */
  public int attempt() {
    return attempt;
  }

  /**
   * Records how far the tool got ({@code details} is converted as activity arguments are, e.g. a
   * string, a number or a record), and heartbeats now. The worker's own heartbeats carry the latest
   * details from then on.
   *
   * @throws io.temporal.client.ActivityCompletionException when the call was cancelled or timed out
   *     (let it propagate: the call's result is no longer wanted)
   */
  public void heartbeat(Object details) {
    if (heartbeats != null) {
      heartbeats.details(details);
    } else if (activity != null) {
      activity.heartbeat(details);
    }
  }

  /**
   * The details of the last heartbeat of the previous attempt, as given to {@link #heartbeat(Object)};
   * empty on a first attempt and when that attempt recorded none.
   */
  public <V> Optional<V> lastHeartbeatDetails(Class<V> type) {
    return activity == null ? Optional.empty() : activity.getLastHeartbeatDetails(type);
  }

  @Override
  public String toString() {
    return "ToolCallContext[" + toolName + ", " + idempotencyKey + ", attempt " + attempt + "]";
  }
}
