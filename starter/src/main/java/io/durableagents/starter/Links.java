package io.durableagents.starter;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.worker.TemporalConnection;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.TimeUnit;

/** Where a person finds a run: a Temporal UI link where the server has a UI, else the CLI command. */
public final class Links {
  /** Where the Temporal UI is, for links (default: the dev server's own, else http://localhost:8080). */
  static final String UI_URL = "TEMPORAL_UI_URL";

  /** The version the embedded in-memory Temporal reports ({@code StickyQueueTimeouts.SERVER_VERSION}). */
  private static final String IN_MEMORY_VERSION = "durable-agents-dev-server";

  private Links() {}

  public static String where(TemporalConnection connection, WorkflowServiceStubs service, String workflowId) {
    if (inMemory(service)) {
      return "Workflow id: " + workflowId + " (this Temporal keeps runs in memory and has no UI: use "
          + "'describe " + workflowId + "'; a Temporal with a UI: docs/embedded-temporal.md)";
    }
    return "Temporal UI: " + ui(connection).replaceAll("/+$", "") + "/namespaces/" + connection.namespace()
        + "/workflows/" + workflowId.replace("/", "%2F");
  }

  /** The UI: $TEMPORAL_UI_URL, else the one of the dev server this machine runs there, else :8080. */
  public static String ui(TemporalConnection connection) {
    String set = Environment.get(UI_URL);
    if (set != null && !set.isBlank()) {
      return set;
    }
    String local = LocalTemporal.uiUrlOf(Environment.variables(), connection.address());
    return local != null ? local : "http://localhost:8080";
  }

  /**
   * Whether the server is Temporal's Java test server (bare, or the embedded in-memory one): no UI,
   * runs kept in memory. A server that does not answer is taken for a real one.
   */
  public static boolean inMemory(WorkflowServiceStubs service) {
    try {
      String version = service.blockingStub().withDeadlineAfter(3, TimeUnit.SECONDS)
          .getSystemInfo(GetSystemInfoRequest.getDefaultInstance()).getServerVersion();
      return version.isEmpty() || version.equals(IN_MEMORY_VERSION);
    } catch (RuntimeException e) {
      return false;
    }
  }
}
