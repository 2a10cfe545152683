package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Connects to Temporal and checks, within seconds, that what answers there is Temporal: a {@code
 * GetSystemInfo} call with a short deadline (tried again for up to 15 s while it only runs out of time). Nothing else listening, something that is not Temporal
 * (a web server, a TCP port that never answers), a malformed address and refused credentials each
 * become one line naming the address and where it came from, instead of a trace after the client's
 * own retries.
 *
 * <pre>{@code
 * WorkflowServiceStubs service = TemporalCheck.connect(connection);
 * }</pre>
 */
public final class TemporalCheck {
  /** How long Temporal has to answer one try of the check. */
  static final Duration DEADLINE = Duration.ofSeconds(5);

  /**
   * How long it has in all: a call that runs out of time is tried again until then (a loaded machine
   * may take a few seconds to open the connection); a refused connection fails at once.
   */
  static final Duration BUDGET = Duration.ofSeconds(15);

  /**
   * The budget in force: {@link #BUDGET}, lowered only by tests of this package that run the command line
   * in their own JVM against a port that never answers (so that they wait 2 s for what takes 15 s here).
   */
  static volatile Duration budget = BUDGET;

  private TemporalCheck() {}

  /**
   * Connects and checks that Temporal answers.
   *
   * @throws CommandFailure naming the address and its source when it does not
   */
  public static WorkflowServiceStubs connect(TemporalConnection connection) {
    // a port out of range fails in gRPC's resolver thread, with a trace, and the call only times out
    TemporalOptions.requireAddress(connection);
    WorkflowServiceStubs service;
    try {
      service = connection.connect(null);
    } catch (RuntimeException e) {
      throw malformed(connection, e);
    }
    try {
      require(service, connection);
      return service;
    } catch (RuntimeException e) {
      service.shutdownNow();
      throw e;
    }
  }

  /**
   * Checks that Temporal answers on {@code service}.
   *
   * @throws CommandFailure naming the address and its source when it does not
   */
  static void require(WorkflowServiceStubs service, TemporalConnection connection) {
    Duration inAll = budget;
    long giveUp = System.nanoTime() + inAll.toNanos();
    while (true) {
      // each try within what is left of the budget: the failure's "within N s" is then how long it took
      long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(giveUp - System.nanoTime()));
      try {
        service.blockingStub().withDeadlineAfter(Math.min(DEADLINE.toMillis(), left), TimeUnit.MILLISECONDS)
            .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
        return;
      } catch (StatusRuntimeException e) {
        // a busy machine may take longer than one deadline to connect: ask again, within the budget
        if (e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED || System.nanoTime() >= giveUp) {
          throw failure(connection, e.getStatus(), e, inAll);
        }
      } catch (IllegalArgumentException e) {
        throw malformed(connection, e);
      }
    }
  }

  private static String where(TemporalConnection connection) {
    return connection.address() + " (" + connection.addressSource() + ")";
  }

  private static CommandFailure malformed(TemporalConnection connection, RuntimeException e) {
    return new CommandFailure(Failures.USAGE, "'" + connection.address() + "' ("
        + connection.addressSource() + ") is not a host:port address",
        "Give it as host:port, e.g. --address 127.0.0.1:7233 or TEMPORAL_ADDRESS=127.0.0.1:7233.", e);
  }

  private static CommandFailure failure(TemporalConnection connection, Status status, Throwable e, Duration inAll) {
    String detail = status.getCode() + (status.getDescription() == null ? ""
        : ": " + Failures.firstLine(status.getDescription()));
    String startHint = connection.isDefaultAddress()
        ? "Start one: 'durable-agents dev-server' in another terminal (or 'demo', which starts its own)."
        : "Check the address (--address, --port or TEMPORAL_ADDRESS), or start Temporal there.";
    switch (status.getCode()) {
      case UNAVAILABLE:
        if (refused(e)) {
          return new CommandFailure(Failures.UNAVAILABLE, "no Temporal at " + where(connection)
              + ": connection refused", startHint, e);
        }
        return new CommandFailure(Failures.UNAVAILABLE, "cannot reach Temporal at " + where(connection)
            + " (" + detail + "); if something listens there, it is not Temporal", startHint, e);
      case UNAUTHENTICATED:
      case PERMISSION_DENIED:
        return new CommandFailure(Failures.UNAVAILABLE, "Temporal at " + where(connection)
            + " refused the credentials (" + detail + ")",
            "Check TEMPORAL_API_KEY, the TLS settings (TEMPORAL_TLS*) and TEMPORAL_NAMESPACE.", e);
      default:
        return new CommandFailure(Failures.UNAVAILABLE, "what listens at " + where(connection)
            + " does not answer as Temporal"
            + (status.getCode() == Status.Code.DEADLINE_EXCEEDED ? " within " + inAll.toSeconds() + " s" : "")
            + " (" + detail + ")", startHint, e);
    }
  }

  private static boolean refused(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof java.net.ConnectException
          || (c.getMessage() != null && c.getMessage().contains("Connection refused"))) {
        return true;
      }
    }
    return false;
  }
}
