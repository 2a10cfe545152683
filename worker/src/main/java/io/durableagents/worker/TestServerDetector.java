package io.durableagents.worker;

import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;

/**
 * Tells Temporal's bare Java test server, whose sticky queues never time out, from a real Temporal
 * server and from the embedded Temporal ({@code io.durableagents.devserver.DevServer}, in the
 * artifact {@code durable-agents-dev-server}), which both time them out: every real server reports its
 * version in {@code GetSystemInfo}, the embedded Temporal reports {@code durable-agents-dev-server},
 * the bare test server reports none. It asks only {@code GetSystemInfo}, so the worker needs no test
 * server on its classpath.
 */
public final class TestServerDetector {
  private TestServerDetector() {}

  /**
   * True when {@code service} is the bare test server: a workflow task sent to a dead worker's sticky
   * queue would wait there forever, so workers must run without sticky execution.
   */
  public static boolean stickyQueuesNeverTimeOut(WorkflowServiceStubs service) {
    return service.blockingStub()
        .getSystemInfo(GetSystemInfoRequest.getDefaultInstance())
        .getServerVersion()
        .isEmpty();
  }
}
