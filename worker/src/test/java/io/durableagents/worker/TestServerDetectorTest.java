package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.temporal.testing.TestWorkflowEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Which server a worker talks to: the bare test server is told apart (the embedded Temporal, which
 * reports a version, is checked in durable-agents-dev-server's StickyQueueTimeoutsTest), and so are
 * loopback addresses.
 */
class TestServerDetectorTest {
  @Test
  void theBareTestServerIsToldApart() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      assertTrue(TestServerDetector.stickyQueuesNeverTimeOut(env.getWorkflowServiceStubs()));
    }
  }

  @Test
  void loopbackAddressesAreToldApart() {
    assertTrue(TemporalConnection.isLoopback("127.0.0.1:7233"));
    assertTrue(TemporalConnection.isLoopback("localhost:7233"));
    assertTrue(TemporalConnection.isLoopback("[::1]:7233"));
    assertFalse(TemporalConnection.isLoopback("temporal:7233"));
    assertFalse(TemporalConnection.isLoopback("my-ns.a1b2c.tmprl.cloud:7233"));
  }
}
