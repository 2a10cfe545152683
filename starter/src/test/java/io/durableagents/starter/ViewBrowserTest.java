package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.starter.view.ViewServer;
import io.durableagents.starter.view.history.ReplayedPast;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code durable-agents view} as a person uses it, in headless Chromium: Temporal's real dev server, a
 * worker (its rules model slowed to 150 ms a call, so that steps take a moment), an Epstein run started by
 * {@code simulate --no-wait}, and the view's server on a free port. The list shows the run; its page's
 * charts and counts grow step by step; Pause pauses it and Resume resumes it; an intervention is recorded
 * and a bad value refused with the validator's words; the slider goes back to step 2 and the world and an
 * agent there are read from the {@link SimulationPast} (a stand-in here: the real one reads the histories);
 * Fork at that step starts a new run from it. Screenshots: {@code target/view/screenshots}, and the
 * directory {@value #SCREENSHOTS_VARIABLE} names ({@code ../docs/images/view} for the manual).
 */
class ViewBrowserTest {
  static final String SCREENSHOTS_VARIABLE = "DURABLE_AGENTS_VIEW_SCREENSHOTS";
  private static final String SIM = "view-sim";
  private static final Pattern STEP = Pattern.compile("step (\\d+) of 200");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("view-browser");
  private static io.temporal.worker.WorkerFactory worker;
  private static DurableAgentsPlugin replayer;
  private static WorkflowClient client;
  private static WorkflowServiceStubs service;
  private static ViewServer view;
  private static HeadlessChromium browser;

  @BeforeAll
  static void start() throws Exception {
    Path cli = RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "view"));
    var starting = HeadlessChromium.startInBackground(dir); // while the worker and the view start
    try {
      TemporalConnection connection = TemporalConnection.fromEnvironment(temporal.env());
      service = TemporalCheck.connect(connection);
      client = connection.client(service);
      // the worker, in this JVM: the built-ins and the rules model as 'worker' has them, and the desk scenario
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(temporal.env(Map.of("DURABLE_AGENTS_RULES_DELAY_MS", "150")))
          .configureFromClasspath()
          .registerScenario(new DeskScenario(), new DeskScenario.Actions())
          .registerTool(new DeskScenario.Stamp())
          .registerModel("clerk", new DeskScenario.Clerk())
          .build();
      worker = WorkerFactory.newInstance(connection.client(service, "view-test-worker", plugin));
      worker.start();
      replayer = plugin;
      view = new ViewServer("127.0.0.1", 0, client, new ReplayedPast(client, plugin, null), null, address(), null);
    } finally { // closed after the class even where the setup fails
      browser = HeadlessChromium.started(starting);
    }
    assertTrue(cli != null);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (view != null) {
      view.close();
    }
    if (worker != null) {
      worker.shutdownNow();
      worker.awaitTermination(20, TimeUnit.SECONDS);
    }
    if (service != null) {
      service.shutdownNow();
    }
  }

  @Test
  void watchARunActOnItGoBackAndFork() throws Exception {
    CliFailuresTest.Run sim = cli("simulate", "--steps", "200", "--citizens", "12", "--cops", "2", "--id", SIM,
        "--no-wait");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    String home = "http://127.0.0.1:" + view.port() + "/";

    browser.open(home);
    String list = browser.awaitText(SIM, "epstein", "running");
    assertTrue(list.contains("Simulations"), list);
    shot("01-list");

    browser.click(SIM);
    browser.awaitText("Per step", "Counts");
    everyPanelShowsTheSameStepOrSaysItIsLoading();
    int first = awaitStepAbove(2);
    int drawnFirst = worldStep(browser.awaitLive("World after step "));
    int later = awaitStepAbove(first + 2);
    assertTrue(later > first, "the page follows the run");
    browser.await("the grid to follow the run", page -> worldStep(page) > drawnFirst);
    long rows = ((Number) browser.script("return document.querySelectorAll('#counts tbody tr').length")).longValue();
    assertTrue(rows >= later, "a row per step: " + rows + " rows at step " + later);
    long drawn = ((Number) browser.script("return document.querySelectorAll('#counts-chart canvas').length")).longValue();
    assertTrue(drawn >= 1, "uPlot drew the chart");
    browser.awaitScript("the page ready", "return document.documentElement.dataset.ready === 'true'");
    shot("02-simulation");

    browser.click("Pause");
    browser.awaitText("Pause requested: " + SIM);
    browser.await("the run to pause", page -> page.contains("paused"));
    browser.click("Resume");
    browser.awaitText("Resume requested: " + SIM);
    int resumed = step(browser.text());
    awaitStepAbove(resumed);

    browser.type("#intervene input[name=legitimacy]", "7");
    browser.click("Intervene");
    String refused = browser.await("the validator's refusal", page -> page.contains("legitimacy")
        && page.contains("Nothing was changed or recorded"));
    assertTrue(refused.contains("7"), refused);
    browser.type("#intervene input[name=legitimacy]", "0.3");
    browser.type("#intervene input[name=note]", "a crackdown");
    browser.click("Intervene");
    browser.awaitText("Intervention 1 on " + SIM + ": legitimacy -> 0.3 from step");
    browser.await("the intervention marked", page -> page.contains("Interventions: #1 from step"));

    // back in time: the world after the first step with a citizen in jail, drawn as fork reads it
    int latest = awaitStepAbove(step(browser.text()) + 1);
    int past = 0;
    String jailed = null;
    for (int k = 1; k < latest && jailed == null; k++) {
      for (JsonNode a : get("world?step=" + k).path("agents")) {
        if ("jailed".equals(a.path("attributes").path("condition").asText())) {
          past = k;
          jailed = a.path("id").asText();
          break;
        }
      }
    }
    assertTrue(jailed != null, "a citizen is jailed before step " + latest);
    browser.script("const s = document.getElementById('step'); s.value = " + past
        + "; s.dispatchEvent(new Event('input'));");
    browser.awaitLive("World after step " + past + "\n");
    browser.awaitScript("the world after step " + past + " drawn",
        "return World.shown() != null && World.shown().step === " + past);
    assertTrue(!(Boolean) browser.script("return document.getElementById('follow').checked"),
        "dragged back, the slider stops following");
    SimulationReplay replay = new SimulationReplay(client, replayer);
    Checkpoint forkReads;
    try {
      forkReads = replay.stateAfter(client, SIM, past);
    } finally {
      replay.close();
    }
    List<String> expected = new ArrayList<>();
    for (AgentPortrayal a : new EpsteinScenario().restore(forkReads.input().state().world()).portrayal().agents()) {
      expected.add(a.id() + " (" + a.x() + ", " + a.y() + ") " + a.color());
    }
    String world = (String) browser.script("return World.shown().agents.map(a => a.id + ' (' + a.x + ', ' + a.y"
        + " + ') ' + a.color).join('\\n')");
    assertEquals(String.join("\n", expected), world, "the world drawn after step " + past + " is fork's");

    // the jailed citizen: its step then, or (jailed before it) its last step, says why it rebelled
    browser.click(jailed);
    String panel = browser.awaitLive("Agent " + jailed + " at step " + past);
    if (panel.contains("took no step at step " + past)) {
      assertTrue(panel.contains(jailed + " was jailed (sentence "), "it says why: " + panel);
      Matcher last = Pattern.compile("Its last step: step (\\d+)").matcher(
          browser.awaitLive("Its last step: step "));
      assertTrue(last.find());
      browser.click("Its last step: step " + last.group(1));
      browser.awaitLive("Agent " + jailed + " at step " + last.group(1));
      browser.awaitScript("the world moved to its last step", "return World.shown().step === " + last.group(1));
      past = Integer.parseInt(last.group(1));
    }
    String why = browser.awaitLive("Reasoning", "above the threshold");
    assertTrue(why.contains("LLM call 1") && (why.contains("become active") || why.contains("stay active")), why);
    shot("03-past-step");
    browser.scrollTo("Per step", 10);
    shot("04-charts");

    // and a fork from the step shown
    int shown = past;
    browser.click("Fork at this step");
    String forked = browser.await("the fork", page -> page.contains("Forked " + SIM + " after step " + shown + " as " + SIM
        + "-fork-" + shown + "-"));
    Matcher id = Pattern.compile("as (" + SIM + "-fork-" + shown + "-\\w+)").matcher(forked);
    assertTrue(id.find(), forked);
    CliFailuresTest.Run described = cli("describe", id.group(1));
    assertEquals(0, described.exitCode(), described.out() + described.err());
    assertTrue(described.out().contains("fork of " + SIM + " after step " + shown), described.out());

    browser.click("Stop");
    browser.awaitText("Stop requested: " + SIM);
    browser.open(home);
    browser.awaitText(id.group(1));
    // the fork would go on for its 200 steps, taking this JVM's worker from the other tests
    assertEquals(0, cli("stop", id.group(1)).exitCode());
  }

  @Test
  void approveEditAndDenyWaitingCallsFromThePage() throws Exception {
    AgentOptions clerk = AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("clerk")
        .setApproval(ApprovalOptions.of("stamp")).build();
    WorkflowClient client = TemporalConnection.fromEnvironment(temporal.env()).client(service);
    SimulationWorkflow desk = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("view-desk").build());
    WorkflowClient.start(desk::run, SimulationInput.of(DeskScenario.NAME, 3, 1).withAgentOptions(clerk)
        .withRoleOptions(Map.of("clerk", clerk)).withSearchAttributes(true));

    browser.open("http://127.0.0.1:" + view.port() + "/simulation?id=view-desk");
    browser.awaitText("agent-clerk-0/step-1/1: stamp");
    shot("05-approval");
    browser.click("Approve");
    browser.awaitText("Call agent-clerk-0/step-1/1 (stamp) of view-desk: approved");

    browser.awaitText("agent-clerk-0/step-2/1: stamp");
    browser.type("#approvals textarea", "{\"form\":\"B-2\"}");
    browser.type("#approvals input", "the right form");
    browser.click("Approve");
    browser.awaitText("Call agent-clerk-0/step-2/1 (stamp) of view-desk: edited");

    browser.awaitText("agent-clerk-0/step-3/1: stamp");
    browser.click("Deny");
    browser.await("the deny refused without a reason", page -> page.contains("--reason is empty"));
    browser.type("#approvals input", "no stamps today");
    browser.click("Deny");
    browser.awaitText("Call agent-clerk-0/step-3/1 (stamp) of view-desk: denied");

    SimulationResult result = client.newUntypedWorkflowStub("view-desk").getResult(60, TimeUnit.SECONDS,
        SimulationResult.class);
    assertEquals(3, result.finalCounts().get("filed").intValue(), "each step filed after its decision");
    assertEquals(2, result.toolCalls(), "the approved and the edited call ran, the denied one did not");
  }

  @Test
  void twoOpenPagesShareOneReaderThatAsksOncePerStep() throws Exception {
    String id = "view-budget";
    CliFailuresTest.Run sim = cli("simulate", "--steps", "10", "--citizens", "4", "--cops", "1", "--id", id, "--no-wait");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.URI events = java.net.URI.create("http://127.0.0.1:" + view.port() + "/api/simulations/" + id + "/events");
    List<List<String>> pages = List.of(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
    java.util.concurrent.CountDownLatch allSteps = new java.util.concurrent.CountDownLatch(pages.size());
    long opened = System.nanoTime();
    List<java.util.concurrent.CompletableFuture<?>> streams = new ArrayList<>();
    for (List<String> page : pages) {
      streams.add(http.sendAsync(java.net.http.HttpRequest.newBuilder(events).build(),
          java.net.http.HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(line -> {
            page.add(line);
            if (line.contains("\"step\":10,\"counts\"")) { // the line the assertions below read
              allSteps.countDown();
            }
          })));
    }
    assertTrue(allSteps.await(3, TimeUnit.MINUTES), "both pages to see step 10: " + pages);
    double seconds = (System.nanoTime() - opened) / 1e9;
    Map<String, Long> asked = view.queries(id);
    streams.forEach(f -> f.cancel(true));
    assertTrue(asked.getOrDefault("describe", 0L) <= seconds * 1000 / ViewServer.TICK_MILLIS + 2,
        "one description a second for both pages together: " + asked + " in " + seconds + " s");
    for (String query : List.of("progress", "stepsAfter", "interventions")) {
      assertTrue(asked.getOrDefault(query, 0L) <= 11, query + "() at most once per step (and once to start): "
          + asked);
    }
    for (List<String> page : pages) {
      List<Integer> seen = new ArrayList<>();
      Matcher m = Pattern.compile("\"step\":(\\d+),\"counts\"").matcher(String.join("\n", page));
      while (m.find()) {
        seen.add(Integer.parseInt(m.group(1)));
      }
      assertEquals(java.util.stream.IntStream.rangeClosed(1, 10).boxed().toList(), seen,
          "every step once, in order, on each page");
    }
  }

  @Test
  void aRunThatDoesNotMoveIsNotQueriedEverySecond() throws Exception {
    String id = "view-quiet";
    CliFailuresTest.Run sim = cli("simulate", "--steps", "200", "--citizens", "4", "--cops", "1", "--id", id, "--no-wait");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    CliFailuresTest.Run paused = cli("pause", id);
    assertEquals(0, paused.exitCode(), paused.out() + paused.err());
    java.util.concurrent.CountDownLatch sawPaused = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CompletableFuture<?> stream = java.net.http.HttpClient.newHttpClient().sendAsync(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + view.port()
            + "/api/simulations/" + id + "/events")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(line -> {
          if (line.contains("\"paused\":true")) {
            sawPaused.countDown();
          }
        }));
    try {
      assertTrue(sawPaused.await(60, TimeUnit.SECONDS), "the page to see the run paused (by the CLI)");
      Map<String, Long> before = view.queries(id);
      long describedBefore = before.getOrDefault("describe", 0L);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (view.queries(id).getOrDefault("describe", 0L) < describedBefore + 8) {
        assertTrue(System.nanoTime() < deadline, "the reader to look 8 more times: " + view.queries(id));
        TimeUnit.MILLISECONDS.sleep(50);
      }
      Map<String, Long> after = view.queries(id);
      System.out.printf("ViewBrowserTest: a paused run, 8 looks: %s -> %s%n", before, after);
      // the step in progress when it was paused may still end in the window: once more for it
      long stepped = after.getOrDefault("stepsAfter", 0L) - before.getOrDefault("stepsAfter", 0L);
      assertTrue(stepped <= 1, "a paused run ends at most the step it was in: " + before + " -> " + after);
      assertTrue(after.getOrDefault("progress", 0L) - before.getOrDefault("progress", 0L) <= stepped + 2,
          "while no step ends, progress() every 5 s, not every second: " + before + " -> " + after);
    } finally {
      stream.cancel(true);
      cli("stop", id);
    }
  }

  /**
   * While the run goes on: whenever the page is ready, the header, the world and the counts show the same
   * step; while the world is read, it says so; the costs by role say which step they are of.
   */
  private static void everyPanelShowsTheSameStepOrSaysItIsLoading() throws Exception {
    String panels = "const t = id => document.getElementById(id).textContent;"
        + " const m = t('where').match(/step (\\d+) of/); const top = document.querySelector('#counts tbody td');"
        + " return [document.documentElement.dataset.ready, document.documentElement.dataset.loading || '-',"
        + " m ? m[1] : -1, t('shown-step'), top ? top.textContent : -1, document.getElementById('follow').checked,"
        + " t('world-loading') || '-', t('roles') + ' ' + t('roles-step')].join('|')";
    List<String> ready = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (ready.stream().map(s -> s.split("\\|")[2]).distinct().count() < 3) {
      assertTrue(System.nanoTime() < deadline, "three steps shown whole while the run goes on: " + seen);
      String sample = (String) browser.script(panels);
      seen.add(sample);
      String[] p = sample.split("\\|", -1);
      if (p[1].contains("world")) {
        assertTrue(p[6].contains("reading step"), "the world says it is loading: " + sample);
      }
      assertTrue(!p[7].contains("No LLM calls yet"), "the costs by role say which step they are of: " + sample);
      if (p[0].equals("true") && p[5].equals("true") && !p[2].equals("0")) {
        assertEquals(p[2], p[3], "the header and the world show one step: " + sample);
        assertEquals(p[2], p[4], "the header and the counts show one step: " + sample);
        ready.add(sample);
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    System.out.printf("ViewBrowserTest: %d looks at the page, %d of them ready%n", seen.size(), ready.size());
  }

  /** What the view's JSON endpoint {@code path} (under the simulation) answers. */
  private static JsonNode get(String path) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + view.port()
            + "/api/simulations/" + SIM + "/" + path)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }

  /** The step of the world the page shows ("World after step N"), or -1. */
  private static int worldStep(String page) {
    Matcher m = Pattern.compile("World after step (\\d+)").matcher(page);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private static int step(String page) {
    Matcher m = STEP.matcher(page);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private static int awaitStepAbove(int step) {
    return step(browser.await("a step after " + step, page -> step(page) > step));
  }

  private static CliFailuresTest.Run cli(String... args) {
    Map<String, String> overlay = new HashMap<>();
    overlay.putAll(temporal.env());
    overlay.put("DURABLE_AGENTS_MODEL", null);
    overlay.put("DURABLE_AGENTS_DEBUG", null);
    return CliFailuresTest.run(overlay, args);
  }

  private static String address() {
    return temporal.address();
  }

  private static void shot(String name) throws Exception {
    Path png = dir.resolve("screenshots").resolve(name + ".png");
    browser.screenshot(png);
    String copy = System.getenv(SCREENSHOTS_VARIABLE);
    if (copy != null && !copy.isBlank()) {
      Files.copy(png, Files.createDirectories(Path.of(copy)).resolve(png.getFileName()),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
