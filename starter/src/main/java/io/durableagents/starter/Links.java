package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;

/** Where a person finds a run. */
final class Links {
  /** Where the Temporal UI is, for links (default http://localhost:8080). */
  static final String UI_URL = "TEMPORAL_UI_URL";

  private Links() {}

  static String where(TemporalConnection connection, String workflowId) {
    if (connection.isDefaultAddress()) {
      return "Workflow id: " + workflowId + " (the embedded Temporal has no UI: use "
          + "'describe " + workflowId + "', or run against a real Temporal to browse it at "
          + "http://localhost:8080)";
    }
    String ui = System.getenv().getOrDefault(UI_URL, "http://localhost:8080");
    return "Temporal UI: " + ui.replaceAll("/+$", "") + "/namespaces/" + connection.namespace()
        + "/workflows/" + workflowId.replace("/", "%2F");
  }
}
