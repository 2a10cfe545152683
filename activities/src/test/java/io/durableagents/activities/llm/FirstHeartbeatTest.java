package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * An LLM call heartbeats at once only when its attempt was handed out a while ago: a call started at
 * once waits for the heartbeats' interval, so that a fast call sends none (a request to the server and a
 * write to its database each).
 */
class FirstHeartbeatTest {
  private static final long STARTED = 1_800_000_000_000L;

  @Test
  void anAttemptStartedAtOnceWaitsForTheIntervalAndOneStartedLateHeartbeatsAtOnce() {
    assertFalse(LlmActivitiesImpl.heartbeatAtOnce(STARTED, STARTED));
    assertFalse(LlmActivitiesImpl.heartbeatAtOnce(STARTED, STARTED + 1_999));
    assertTrue(LlmActivitiesImpl.heartbeatAtOnce(STARTED, STARTED + 2_001),
        "a worker that took more than 2 s to start the call heartbeats before anything else");
  }

  @Test
  void whenTheClocksCannotBeComparedItHeartbeatsAtOnce() {
    assertTrue(LlmActivitiesImpl.heartbeatAtOnce(0, STARTED), "no start time");
    assertTrue(LlmActivitiesImpl.heartbeatAtOnce(STARTED, STARTED - 50), "a server clock ahead of this one");
  }
}
