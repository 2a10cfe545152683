package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo --view}: the view starts beside the demo's run (on a free port of 127.0.0.1), its address is
 * printed, it lists the demo's run, and it stays open after the run until the demo is stopped. The same
 * demo checks {@code demo --port} where nothing listens yet (what {@code DemoPortTest} does not repeat, a
 * demo being a server and a worker started): it starts a Temporal on that port, and the run starts once
 * demo's own worker polls.
 */
class DemoViewTest {
  private static final Pattern ADDRESS = Pattern.compile("View of 127\\.0\\.0\\.1:\\d+ on (http://127\\.0\\.0\\.1:\\d+/)");

  @TempDir
  static Path dir;

  @Test
  void demoServesTheViewBesideItsRunAndKeepsItOpen() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path log = dir.resolve("demo.log");
    Process demo = ChildProcesses.start("384m", log.toFile(), Map.of(LocalTemporal.SERVER_VARIABLE, "in-memory",
            LocalTemporal.DATA_DIR_VARIABLE, dir.toString(), "TEMPORAL_ADDRESS", "", "DURABLE_AGENTS_MODEL", "rules"),
        "demo", "--view", "--port", Integer.toString(port), "--steps", "2", "--citizens", "4", "--cops", "1",
        "--id", "demo-view", "--progress", "lines");
    // Chromium starts while the demo comes up (the browser's start is not what is tested)
    java.util.concurrent.CompletableFuture<HeadlessChromium> starting = HeadlessChromium.startInBackground(dir);
    try {
      String out = awaitLog(log, demo, "The view stays open until Ctrl-C");
      // demo --port where nothing listens: a Temporal is started there, and the run goes through its steps
      assertTrue(out.contains("Starting a Temporal on 127.0.0.1:" + port + " "), out);
      assertTrue(out.contains("listening on 127.0.0.1:" + port), out);
      assertTrue(out.lines().anyMatch(l -> l.startsWith("2/2")), "the run went through its steps:\n" + out);
      assertTrue(!out.contains("No worker polls"), "the run starts once demo's own worker polls:\n" + out);
      CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(0, out, ""));
      Matcher m = ADDRESS.matcher(out);
      assertTrue(m.find(), "the view's address is printed:\n" + out);
      HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(m.group(1) + "api/simulations")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, list.statusCode(), list.body());
      assertTrue(list.body().contains("\"id\":\"demo-view\"") && list.body().contains("completed"), list.body());
      // the finished run's page: its steps from its result, and its status
      HttpResponse<java.util.stream.Stream<String>> events = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(m.group(1) + "api/simulations/demo-view/events")).build(), HttpResponse.BodyHandlers.ofLines());
      StringBuilder seen = new StringBuilder();
      try (java.util.stream.Stream<String> lines = events.body()) {
        java.util.Iterator<String> it = lines.iterator();
        while (it.hasNext() && !seen.toString().contains("\"finished\":true")) {
          seen.append(it.next()).append('\n');
        }
      }
      String page = seen.toString();
      assertTrue(page.contains("\"status\":\"COMPLETED\"") && page.contains("\"step\":1,\"counts\"")
          && page.contains("\"step\":2,\"counts\""), page);
      assertTrue(demo.isAlive(), "demo waits while the view is open");

      // in a browser, as a user opens the printed address: the run, its grid, an agent's reasoning, a fork
      HeadlessChromium browser = HeadlessChromium.started(starting);
      browser.open(m.group(1));
      browser.awaitText("demo-view", "completed");
      browser.click("demo-view");
      browser.awaitLive("World after step 2\n", "citizen-0");
      browser.awaitScript("the world after step 2 drawn", "return World.shown() != null && World.shown().step === 2");
      assertEquals("10x10 grid, 5 agents, canvas shown", browser.script("const c = document.getElementById('world');"
          + " const w = World.shown(); return w.grid.width + 'x' + w.grid.height + ' grid, ' + w.agents.length"
          + " + ' agents, canvas ' + (!c.hidden && c.width > 0 ? 'shown' : 'hidden')"), "the grid drawn");
      browser.click("citizen-0");
      browser.awaitLive("Agent citizen-0 at step 2", "Reasoning", "LLM call 1");
      browser.type("#fork-steps", "4"); // the run ended at step 2: a fork from there needs a new total
      browser.click("Fork at this step");
      browser.awaitLive("Forked demo-view after step 2 as demo-view-fork-2-");
    } finally {
      starting.thenAccept(DemoViewTest::close); // now, or when it has started (a failure before it was used)
      demo.destroy();
      if (!demo.waitFor(30, TimeUnit.SECONDS)) {
        demo.descendants().forEach(ProcessHandle::destroyForcibly);
        demo.destroyForcibly().waitFor();
      }
    }
  }

  private static void close(HeadlessChromium browser) {
    try {
      browser.close();
    } catch (Exception e) {
      System.out.println("DemoViewTest: closing Chromium: " + e);
    }
  }

  private static String awaitLog(Path log, Process p, String line) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String text = Files.exists(log) ? Files.readString(log) : "";
      if (text.contains(line)) {
        return text;
      }
      if (!p.isAlive()) {
        throw new AssertionError("demo ended (exit " + p.exitValue() + "):\n" + text);
      }
      p.waitFor(200, TimeUnit.MILLISECONDS);
    }
    throw new AssertionError("no '" + line + "' within 120 s:\n" + Files.readString(log));
  }
}
