package io.durableagents.activities.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the calls of one LangChain4j {@code @Tool} method run as Temporal activities: how long an
 * attempt may take, how long it may go without a heartbeat, how often and how soon it is retried, and
 * which of its exceptions are not worth retrying. Put it beside {@code @Tool} on a tool registered
 * with {@code DurableAgentsPlugin.Builder.registerTool}. Each attribute left out keeps the value of the
 * {@link ToolOptions} the tool was registered with (by default today's: 1 min an attempt, a heartbeat
 * timeout of 10 s, 3 attempts, retries after 1 s, 2 s, ... up to 10 s apart); the non-retryable
 * exception types are added to those of the options.
 *
 * <p>Durations are ISO-8601, as {@link java.time.Duration#parse} reads them: {@code PT30S}, {@code
 * PT5M}, {@code PT0.5S}. A bad value fails the registration, naming the tool and the attribute.
 *
 * <pre>{@code
 * public class Reports {
 *   @Tool(name = "build_report", value = "Builds the quarterly report for a region.")
 *   @DurableTool(startToClose = "PT5M", heartbeat = "PT10S", maximumAttempts = 5,
 *       nonRetryable = {UnknownRegionException.class})
 *   public String buildReport(@P("the region") String region, ToolCallContext call) {
 *     for (String part : parts(region)) {
 *       render(part, call.idempotencyKey());
 *       call.heartbeat(part); // a retry reads it back with call.lastHeartbeatDetails(String.class)
 *     }
 *     return "report ready";
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface DurableTool {
  /** The longest one attempt may run (ISO-8601, e.g. {@code PT5M}); empty: the options' value. */
  String startToClose() default "";

  /**
   * How long an attempt may go without a heartbeat before Temporal retries it on another worker
   * (ISO-8601, e.g. {@code PT10S}; {@code PT0S}: no heartbeat timeout). The worker heartbeats on its
   * own while the tool runs, so this is how soon the call of a worker that died moves on, however long
   * {@link #startToClose()} is. Empty: the options' value.
   */
  String heartbeat() default "";

  /** Attempts in all, the first one included (1: never retried); 0: the options' value. */
  int maximumAttempts() default 0;

  /** The wait before the first retry (ISO-8601); empty: the options' value. */
  String initialInterval() default "";

  /** How much the wait grows from one retry to the next (1.0 or more); 0: the options' value. */
  double backoffCoefficient() default 0;

  /** The longest wait between two attempts (ISO-8601); empty: the options' value. */
  String maximumInterval() default "";

  /**
   * Exceptions that retrying cannot fix (a missing account, a refused permission): one of these, or
   * a subclass, thrown by the tool fails the call at once, reported once and never retried, and the
   * agent reads it as an error observation. Added to the options' own.
   */
  Class<? extends Throwable>[] nonRetryable() default {};

  /**
   * Every call waits for a person's decision ({@code approve}, {@code deny} with a reason, or {@code edit}
   * with other arguments) before it runs, in every run on this worker; see {@code docs/approvals.md}.
   * False: the options' value.
   */
  boolean requiresApproval() default false;
}
