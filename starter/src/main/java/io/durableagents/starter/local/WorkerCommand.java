package io.durableagents.starter.local;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.worker.WorkerMain;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs a worker until stopped; configured from the environment. */
@Command(name = "worker",
    description = "Run a Durable Agents worker (configured from the environment; see the README).")
public final class WorkerCommand implements Callable<Integer> {
  @Option(names = "--wait-for-temporal", paramLabel = "SECONDS", defaultValue = "0",
      description = "Wait up to SECONDS for Temporal to answer (and its namespace to exist) before starting, "
          + "instead of failing at once when none does: for a worker started beside its Temporal, as demo and "
          + "agent start theirs (default: ${DEFAULT-VALUE}).")
  int waitForTemporal;

  @Override
  public Integer call() throws InterruptedException {
    if (waitForTemporal < 0) {
      throw CommandFailure.usage("--wait-for-temporal must be 0 or more seconds, was " + waitForTemporal,
          "Give 0 (fail at once when no Temporal answers) or the seconds to wait.");
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    if (waitForTemporal > 0) {
      awaitTemporal(connection, waitForTemporal * 1000L);
    }
    // one line within seconds when no Temporal answers, instead of polling an address that never will
    TemporalCheck.connect(connection).shutdownNow();
    return WorkerMain.run(Environment.variables());
  }

  /**
   * Waits until the Temporal of {@code connection} answers and knows its namespace (a dev server that
   * has just opened its port may not have made its {@code default} namespace yet), or {@code millis}
   * pass; whatever else it answers ends the wait too (the check after it says what is wrong). It waits for
   * the port to listen first, then asks through a new connection each time: gRPC waits ever longer (1 s,
   * 1.6 s, 2.6 s, ...) before it connects again after a refused connection.
   */
  static void awaitTemporal(TemporalConnection connection, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    String address = connection.address();
    int colon = address.lastIndexOf(':');
    String host = colon <= 0 ? null : address.substring(0, colon).replace("[", "").replace("]", "");
    int port;
    try {
      port = colon <= 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    while (host != null && port > 0 && port < 65536 && !ChildProcesses.listening(host, port)
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    while (System.nanoTime() < deadline) {
      WorkflowServiceStubs service;
      try {
        service = connection.connect(null);
      } catch (RuntimeException e) {
        return; // a malformed address: the check says so
      }
      try {
        service.blockingStub().withDeadlineAfter(2, TimeUnit.SECONDS)
            .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
        service.blockingStub().withDeadlineAfter(2, TimeUnit.SECONDS)
            .describeNamespace(DescribeNamespaceRequest.newBuilder().setNamespace(connection.namespace()).build());
        return;
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        if (code != Status.Code.UNAVAILABLE && code != Status.Code.NOT_FOUND && code != Status.Code.DEADLINE_EXCEEDED) {
          return;
        }
      } catch (RuntimeException e) {
        return;
      } finally {
        service.shutdownNow();
      }
      Thread.sleep(100);
    }
  }
}
