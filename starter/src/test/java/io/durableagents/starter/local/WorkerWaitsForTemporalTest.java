package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.DevServer;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.worker.TemporalConnection;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code worker --wait-for-temporal SECONDS}, which demo and agent give the worker they start beside their
 * Temporal (both JVMs start at once): it waits for a Temporal that comes up later, and goes on as soon as
 * it answers (not after gRPC's growing back-off between connection attempts); a negative value is a
 * usage error naming the option.
 */
class WorkerWaitsForTemporalTest {
  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void aNegativeWaitIsAUsageErrorNamingTheOption() {
    CliFailuresTest.Run r = CliFailuresTest.run(Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1"), "worker",
        "--wait-for-temporal", "-1");
    assertEquals(2, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains("--wait-for-temporal must be 0 or more seconds, was -1"), r.err());
  }

  @Test
  void itWaitsForATemporalThatComesUpLaterAndGoesOnOnceItAnswers() throws Exception {
    int port = freePort();
    TemporalConnection connection = TemporalConnection.fromEnvironment(Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port));
    long[] upAt = new long[1];
    CompletableFuture<DevServer> server = CompletableFuture.supplyAsync(() -> {
      try {
        Thread.sleep(4_000); // refused connections first: gRPC would wait 1 s, 1.6 s, 2.6 s between tries
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      DevServer s = DevServer.start("127.0.0.1", port);
      upAt[0] = System.nanoTime();
      return s;
    });
    long start = System.nanoTime();
    try {
      WorkerCommand.awaitTemporal(connection, 120_000);
      long returned = System.nanoTime();
      assertTrue((returned - start) / 1_000_000 >= 4_000, "it waited for the Temporal to come up");
      // it answers now (the server may answer before its start() has returned)
      io.durableagents.starter.TemporalCheck.connect(connection).shutdownNow();
      server.get(60, TimeUnit.SECONDS);
      long after = (returned - upAt[0]) / 1_000_000;
      assertTrue(after < 3_000, "it went on " + after + " ms after the Temporal came up");
    } finally {
      server.get(60, TimeUnit.SECONDS).close();
    }
  }

  @Test
  void withoutATemporalItGivesUpAfterItsBound() throws Exception {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + freePort()));
    long start = System.nanoTime();
    WorkerCommand.awaitTemporal(connection, 1_500);
    long took = (System.nanoTime() - start) / 1_000_000;
    assertTrue(took >= 1_500 && took < 10_000, "took " + took + " ms");
  }
}
