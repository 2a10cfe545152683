package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.CliFailuresTest.Run;
import io.durableagents.starter.OnSharedDevServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo --port} where a Temporal listens: demo uses it, its worker finds it, and it is left running.
 * The Temporal is the JVM's shared dev server (a namespace of this class's), which listens already: a dev
 * server of this test's own cost a JVM's start (when it was in {@link DemoPortTest}).
 */
class DemoOnARunningTemporalTest {
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("demo-on-running");
  @TempDir
  static Path dir;

  @Test
  void demoUsesATemporalThatListensOnThePort() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put(LocalTemporal.DATA_DIR_VARIABLE, dir.toString());
    env.put("TEMPORAL_ADDRESS", "");
    env.put("TEMPORAL_NAMESPACE", temporal.name());
    env.put("DURABLE_AGENTS_MODEL", "rules");
    int port = temporal.port();
    Run r = CliFailuresTest.run(env, "demo", "--port", Integer.toString(port), "--steps", "2", "--citizens", "4",
        "--cops", "1", "--progress", "lines");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("Using the Temporal at 127.0.0.1:" + port + " (from --port)"), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("2/2")), r.out());
    assertTrue(ChildProcesses.listening("127.0.0.1", port), "demo leaves a Temporal it did not start running");
  }
}
