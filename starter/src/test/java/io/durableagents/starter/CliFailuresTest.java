package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to every command, through the real {@link StarterMain} in this JVM: each case asserts the
 * exit code, a first line {@code <command>: <cause>} naming the cause, at most a hint and a usage
 * line after it, and no stack trace. Every case here fails before the command connects to anything
 * (the cases that need a Temporal are in {@link CliAgainstServerTest}).
 */
public class CliFailuresTest {
  @TempDir
  static Path dir;

  static Path aFile;

  @BeforeAll
  static void files() throws Exception {
    aFile = Files.writeString(dir.resolve("a-file.txt"), "x");
  }

  /** The output of one in-process run. */
  public record Run(int exitCode, String out, String err) {
    public List<String> errLines() {
      return err.isBlank() ? List.of() : List.of(err.strip().split("\\R"));
    }
  }

  public static Run run(String... args) {
    return run(java.util.Map.of(), args);
  }

  /**
   * Runs {@code durable-agents <args>} in this JVM with the process's environment variables overlaid by
   * {@code env} (a null value removes a variable), capturing what it prints.
   */
  public static synchronized Run run(java.util.Map<String, String> env, String... args) {
    try {
      return Environment.with(env, () -> capture(args));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Run capture(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      int code = StarterMain.commandLine()
          .setOut(new PrintWriter(o, true))
          .setErr(new PrintWriter(e, true))
          .execute(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    // usage errors: the error, the command's usage line, not the whole help
    cases.add(Arguments.of(List.of("simulate", "--bogus"), 2, "simulate: Unknown option: '--bogus'"));
    cases.add(Arguments.of(List.of("simulate", "--steps", "abc"), 2, "simulate: Invalid value for option '--steps'"));
    cases.add(Arguments.of(List.of("demo", "--progress", "sideways"), 2, "demo: Invalid value for option '--progress'"));
    cases.add(Arguments.of(List.of("nonsense"), 2, "durable-agents: 'nonsense' is not a command"));
    cases.add(Arguments.of(List.of("attach"), 2, "attach: Missing required parameter: 'WORKFLOW_ID'"));
    cases.add(Arguments.of(List.of("agent-state", "sim-1"), 2, "agent-state: Missing required parameter: 'AGENT_ID'"));
    cases.add(Arguments.of(List.of("list", "--limit", "many"), 2, "list: Invalid value for option '--limit'"));
    // checks of the simulation's options against its scenario, before anything starts
    for (String command : List.of("demo", "simulate")) {
      cases.add(Arguments.of(List.of(command, "--selected-tools", "fly"), 2,
          command + ": --selected-tools: the citizen agents of epstein do not have [fly]"));
      cases.add(Arguments.of(List.of(command, "--citizens", "0", "--cops", "0"), 2,
          command + ": the epstein world has no agents"));
      cases.add(Arguments.of(List.of(command, "--id", ""), 2, command + ": --id is empty"));
      cases.add(Arguments.of(List.of(command, "--id", " "), 2, command + ": --id is empty"));
      cases.add(Arguments.of(List.of(command, "--id", "x".repeat(1001)), 2,
          command + ": --id is 1001 characters long; Temporal allows 1000"));
      cases.add(Arguments.of(List.of(command, "--id", "a\nb"), 2, command + ": --id has leading or trailing spaces"));
      cases.add(Arguments.of(List.of(command, "--steps", "0"), 2, command + ": "));
      cases.add(Arguments.of(List.of(command, "--scenario", "atlantis"), 2, command + ": --scenario: "));
      cases.add(Arguments.of(List.of(command, "--model", "gpt"), 2, command + ": --model 'gpt' is not one of"));
      cases.add(Arguments.of(List.of(command, "--strategy", "tot"), 2, command + ": --strategy: "));
      cases.add(Arguments.of(List.of(command, "--param", "legitimacy=2"), 2, command + ": --param: "));
      cases.add(Arguments.of(List.of(command, "--sellers", "3"), 2,
          command + ": --sellers is not a parameter of scenario epstein"));
      cases.add(Arguments.of(List.of(command, "--csv", "DIR"), 5, command + ": --csv DIR is a directory"));
      cases.add(Arguments.of(List.of(command, "--chart", "FILE/x.png"), 5,
          command + ": --chart FILE/x.png: FILE is not a directory"));
      // a place its permissions call writable (to root) that refuses a file: checked by making one
      cases.add(Arguments.of(List.of(command, "--csv", "/proc/x.csv"), 5, command + ": --csv /proc/x.csv"));
      cases.add(Arguments.of(List.of(command, "--chart", "/proc/new-dir/x.png"), 5,
          command + ": --chart /proc/new-dir/x.png"));
    }
    cases.add(Arguments.of(List.of("attach", "sim-1", "--chart", "/proc/x.png"), 5, "attach: --chart /proc/x.png"));
    cases.add(Arguments.of(List.of("agent", "-p", "hi", "--id", ""), 2, "agent: --id is empty"));
    cases.add(Arguments.of(List.of("agent", "-p", "hi", "--tools", "shell"), 2, "agent: --tools: 'shell' is not one of"));
    cases.add(Arguments.of(List.of("attach", "sim-1", "--csv", "DIR"), 5, "attach: --csv DIR is a directory"));
    cases.add(Arguments.of(List.of("attach", "sim-1", "--csv", "FILE/x.csv"), 5,
        "attach: --csv FILE/x.csv: FILE is not a directory"));
    cases.add(Arguments.of(List.of("history", "sim-1", "-o", "DIR"), 5, "history: -o DIR is a directory"));
    cases.add(Arguments.of(List.of("history", "sim-1", "-o", "FILE/h.json"), 5,
        "history: -o FILE/h.json: FILE is not a directory"));
    cases.add(Arguments.of(List.of("history", "sim-1", "--all-runs"), 2,
        "history: --all-runs writes a file per run and needs a directory"));
    cases.add(Arguments.of(List.of("history", "sim-1", "--all-runs", "--run-id", "r", "-o", "DIR"), 2,
        "history: --all-runs and --run-id exclude each other"));
    cases.add(Arguments.of(List.of("history", "sim-1", "--all-runs", "-o", "FILE"), 5,
        "history: -o FILE is a file, not a directory"));
    cases.add(Arguments.of(List.of("list", "--limit", "-1"), 2, "list: --limit must be at least 1, was -1"));
    cases.add(Arguments.of(List.of("list", "--limit", "0"), 2, "list: --limit must be at least 1, was 0"));
    cases.add(Arguments.of(List.of("dev-server", "--port", "-1"), 2, "dev-server: --port -1 is not a port"));
    cases.add(Arguments.of(List.of("dev-server", "--port", "99999"), 2, "dev-server: --port 99999 is not a port"));
    cases.add(Arguments.of(List.of("dev-server", "--port", "BUSY"), 5, "dev-server: cannot listen on 127.0.0.1:BUSY"));
    cases.add(Arguments.of(List.of("dev-server", "--sqlite-pragma", "synchronous"), 2,
        "dev-server: --sqlite-pragma must be NAME=VALUE, such as synchronous=off, was 'synchronous'"));
    cases.add(Arguments.of(List.of("dev-server", "--dynamic-config-value", "suggestContinueAsNew"), 2,
        "dev-server: --dynamic-config-value must be KEY=VALUE, such as limit.historyCount.suggestContinueAsNew=1000, "
            + "was 'suggestContinueAsNew'"));
    cases.add(Arguments.of(List.of("dev-server", "--in-memory", "--dynamic-config-value", "a.b=1"), 2,
        "dev-server: --dynamic-config-value configures the dev server; the in-memory Temporal has none"));
    cases.add(Arguments.of(List.of("dev-server", "--ui-codec-endpoint", "localhost:8888"), 2,
        "dev-server: --ui-codec-endpoint must be an http(s) address such as http://127.0.0.1:8888, was 'localhost:8888'"));
    cases.add(Arguments.of(List.of("dev-server", "--in-memory", "--ui-codec-endpoint", "http://127.0.0.1:8888"), 2,
        "dev-server: --ui-codec-endpoint needs the dev server's UI; the in-memory Temporal has none"));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badInputIsOneLineAndAnExitCode(List<String> template, int exitCode, String firstLine) throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = Integer.toString(busy.getLocalPort());
      String[] args = template.stream().map(a -> substitute(a, port)).toArray(String[]::new);
      Run r = run(args);
      String expected = substitute(firstLine, port);
      assertEquals(exitCode, r.exitCode(), r.err());
      List<String> lines = r.errLines();
      assertFalse(lines.isEmpty(), "nothing on stderr");
      assertTrue(lines.get(0).startsWith(expected), "first line: " + lines.get(0) + "\nexpected: " + expected);
      assertTrue(lines.size() <= 3, "a cause, a hint and a usage line at most:\n" + r.err());
      assertNoTrace(r);
      assertFalse(r.out().contains("Started "), "a run was started:\n" + r.out());
    }
  }

  private static String substitute(String text, String busyPort) {
    return text.replace("DIR", dir.toString()).replace("FILE", aFile.toString()).replace("BUSY", busyPort);
  }

  public static void assertNoTrace(Run r) {
    Pattern frame = Pattern.compile("^\\s+at [\\w.$]+\\(", Pattern.MULTILINE);
    assertFalse(frame.matcher(r.err()).find(), "a stack trace:\n" + r.err());
    assertFalse(frame.matcher(r.out()).find(), "a stack trace:\n" + r.out());
    assertFalse(r.err().contains("Exception") && !r.err().contains("IllegalArgument"),
        "an exception's name:\n" + r.err());
  }

  @Test
  void aUsageErrorPrintsTheUsageLineNotTheHelp() {
    Run r = run("simulate", "--bogus");
    assertEquals(List.of("simulate: Unknown option: '--bogus'",
        "  Usage: durable-agents simulate [OPTIONS]; 'durable-agents help simulate' lists its options."),
        r.errLines());
    Run typo = run("simulate", "--stesp", "3");
    assertTrue(typo.err().contains("Did you mean: --steps"), typo.err());
  }

  @Test
  void theBenchmarkRefusesANegativeWarmUpBeforeItStartsAnything() {
    Run r = run("benchmark", "--parts", "scale", "--warmup-agent-steps", "-1");
    assertEquals(2, r.exitCode());
    assertEquals(List.of("benchmark: --warmup-agent-steps must be >= 0, was -1"), r.errLines());
  }

  @Test
  void verboseOrDebugPrintsTheTrace() {
    Run r = run("list", "--limit", "0", "--verbose");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().startsWith("list: --limit must be at least 1, was 0"), r.err());
    assertTrue(r.err().contains("at io.durableagents.starter.StartChecks.atLeastOne"), r.err());
  }
}
