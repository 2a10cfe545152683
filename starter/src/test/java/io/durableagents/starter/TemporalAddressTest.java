package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest.Run;
import io.temporal.testserver.TestServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Which Temporal a command talks to: {@code --address}, {@code --port} (127.0.0.1:PORT) or
 * TEMPORAL_ADDRESS, on every command that talks to one ({@link TemporalOptions}), and an address that
 * is not host:port said at once, in one line, whichever of them gave it.
 */
class TemporalAddressTest {
  /** No Temporal anywhere: an address that would be used is refused at once (port 1 is never open). */
  private static final Map<String, String> NOWHERE = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1");

  @Test
  void aPortOutOfRangeInTemporalAddressIsOneLineAtOnce() {
    long start = System.nanoTime();
    Run r = CliFailuresTest.run(Map.of("TEMPORAL_ADDRESS", "127.0.0.1:99999"), "list");
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertEquals(Failures.USAGE, r.exitCode(), r.err());
    assertEquals("list: '127.0.0.1:99999' (from TEMPORAL_ADDRESS) is not a host:port address: the port 99999 "
        + "is not 1 to 65535", r.errLines().get(0));
    assertEquals(2, r.errLines().size(), "the cause and a hint:\n" + r.err());
    assertTrue(r.errLines().get(1).contains("--address 127.0.0.1:7233"), r.err());
    CliFailuresTest.assertNoTrace(r);
    // before: two gRPC resolver traces, then the blame on the server after the 15 s the check waits
    assertTrue(took.compareTo(TemporalCheck.DEADLINE) < 0, "took " + took);
  }

  @Test
  void aMalformedAddressIsAUsageErrorWhicheverWayItCame() {
    Map<String, String> cases = Map.of(
        "--address=127.0.0.1:0", "list: '127.0.0.1:0' (from --address) is not a host:port address: the port 0 is not 1 to 65535",
        "--address=localhost", "list: 'localhost' (from --address) is not a host:port address: it has no port",
        "--address=:7233", "list: ':7233' (from --address) is not a host:port address: it has no host",
        "--address=host:http", "list: 'host:http' (from --address) is not a host:port address: the port 'http' is not a number",
        "--address=::1:7233", "list: '::1:7233' (from --address) is not a host:port address: the host '::1' has a ':'",
        "--port=0", "list: --port 0 is not a port",
        "--port=65536", "list: --port 65536 is not a port");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      Run r = CliFailuresTest.run(NOWHERE, "list", c.getKey());
      assertEquals(Failures.USAGE, r.exitCode(), c.getKey() + ": " + r.err());
      assertTrue(r.errLines().get(0).startsWith(c.getValue()), c.getKey() + ": " + r.err());
      CliFailuresTest.assertNoTrace(r);
    }
    Run both = CliFailuresTest.run(NOWHERE, "list", "--address", "127.0.0.1:7233", "--port", "7233");
    assertEquals(Failures.USAGE, both.exitCode(), both.err());
    assertEquals("list: --address and --port exclude each other", both.errLines().get(0));
  }

  @Test
  void wellFormedAddressesPassTheCheck() {
    for (String ok : List.of("127.0.0.1:7233", "localhost:1", "[::1]:7233", "my_temporal.example.com:65535",
        "dns:///temporal:7233")) {
      assertNull(TemporalOptions.problem(ok), ok);
    }
  }

  @Test
  void theOptionsOverTemporalAddressReachTheTemporalTheyName() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port)) {
      // TEMPORAL_ADDRESS names nothing; the option names the Temporal that answers "no such run"
      for (String[] args : List.of(new String[] {"describe", "nosuch", "--port", "" + port},
          new String[] {"describe", "nosuch", "--address", "127.0.0.1:" + port},
          new String[] {"history", "--port", "" + port, "nosuch"})) {
        Run r = CliFailuresTest.run(NOWHERE, args);
        assertEquals(Failures.NOT_FOUND, r.exitCode(), List.of(args) + ": " + r.out() + r.err());
        CliFailuresTest.assertNoTrace(r);
      }
    }
    // and a refused one is named with the option that gave it
    Run refused = CliFailuresTest.run(Map.of(), "list", "--port", "1");
    assertEquals(Failures.UNAVAILABLE, refused.exitCode(), refused.err());
    assertTrue(refused.errLines().get(0).startsWith("list: no Temporal at 127.0.0.1:1 (from --port): connection refused"),
        refused.err());
    assertTrue(refused.errLines().get(1).contains("--address"), refused.err());
  }

  @Test
  void everyCommandThatTalksToTemporalTakesAddressAndNamesTemporalAddress() {
    List<String> without = new ArrayList<>();
    int with = 0;
    for (Map.Entry<List<String>, CommandLine> c : commands().entrySet()) {
      String name = String.join(" ", c.getKey());
      var spec = c.getValue().getCommandSpec();
      if (TemporalOptions.NOT_TEMPORAL.contains(c.getKey().get(0))) {
        assertNull(spec.findOption("--address"), name + " talks to no Temporal of the user's");
        continue;
      }
      if (spec.findOption("--address") == null) {
        without.add(name);
        continue;
      }
      with++;
      // --port is the Temporal's, unless the command has a --port of its own (view's page, demo's server)
      assertTrue(spec.findOption("--port") != null, name);
      String text = CliFailuresTest.run(append(c.getKey(), "--help")).out();
      assertTrue(text.contains("--address=HOST:PORT") && text.contains("TEMPORAL_ADDRESS"), name + ":\n" + text);
    }
    assertEquals(List.of(), without, "commands that talk to Temporal without --address");
    assertTrue(with >= 20, "with --address: " + with);
    String list = CliFailuresTest.run("list", "--help").out();
    assertTrue(list.contains("--port=PORT") && list.contains("127.0.0.1:PORT"), list);
    String view = CliFailuresTest.run("view", "--help").out();
    assertTrue(view.contains("--address=HOST:PORT"), view);
  }

  @Test
  void theOptionIsTheVariableForEverythingTheCommandStarts() throws Exception {
    Map<String, String> seen = new HashMap<>();
    Environment.withCommandLine(Map.of("TEMPORAL_ADDRESS", "10.0.0.1:7233"), () -> {
      seen.putAll(Environment.variables());
      return null;
    });
    assertEquals("10.0.0.1:7233", seen.get("TEMPORAL_ADDRESS"));
    assertFalse("10.0.0.1:7233".equals(Environment.get("TEMPORAL_ADDRESS")), "only while the command runs");
  }

  private static String[] append(List<String> path, String arg) {
    List<String> args = new ArrayList<>(path);
    args.add(arg);
    return args.toArray(String[]::new);
  }

  private static Map<List<String>, CommandLine> commands() {
    Map<List<String>, CommandLine> out = new java.util.LinkedHashMap<>();
    collect(StarterMain.commandLine(), List.of(), out, new IdentityHashMap<>());
    return out;
  }

  private static void collect(CommandLine command, List<String> path, Map<List<String>, CommandLine> out,
      Map<CommandLine, Boolean> seen) {
    for (Map.Entry<String, CommandLine> e : command.getSubcommands().entrySet()) {
      if (seen.put(e.getValue(), true) == null) {
        List<String> sub = new ArrayList<>(path);
        sub.add(e.getKey());
        out.put(sub, e.getValue());
        collect(e.getValue(), sub, out, seen);
      }
    }
  }
}
