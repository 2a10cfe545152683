package io.durableagents.worker;

import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;

/**
 * Tells Temporal's Java test server (the embedded dev server) from a real Temporal server: every real
 * server reports its version in {@code GetSystemInfo}; the test server reports none.
 */
public final class TestServerDetector {
  private TestServerDetector() {}

  /** True when {@code service} is Temporal's test server. */
  public static boolean isTestServer(WorkflowServiceStubs service) {
    return service.blockingStub()
        .getSystemInfo(GetSystemInfoRequest.getDefaultInstance())
        .getServerVersion()
        .isEmpty();
  }
}
