package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.Json;
import io.durableagents.starter.view.ViewServer;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRun;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The view's experiment page in headless Chromium, on Temporal's real dev server with a worker in this
 * JVM: the list shows the experiment; its page counts its runs by status, draws a chosen final count
 * against a parameter (a point per run, the mean a line), lists every run with its values, seed, status
 * and counts (a failed one with why), and a point leads to that run's own page. A running experiment's
 * page follows it until it ends.
 */
class ExperimentViewBrowserTest {
  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("experiment-view-browser");
  private static WorkerFactory worker;
  private static WorkflowClient client;
  private static WorkflowServiceStubs service;
  private static ViewServer view;
  private static HeadlessChromium browser;

  @BeforeAll
  static void start() throws Exception {
    RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "experiment-view"));
    var starting = HeadlessChromium.startInBackground(dir); // while the worker and the view start
    try {
      String address = temporal.address();
      TemporalConnection connection = TemporalConnection.fromEnvironment(temporal.env());
      service = TemporalCheck.connect(connection);
      client = connection.client(service);
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(temporal.env(Map.of("DURABLE_AGENTS_RULES_DELAY_MS", "20")))
          .configureFromClasspath().build();
      worker = WorkerFactory.newInstance(connection.client(service, "experiment-view-worker", plugin));
      worker.start();
      view = new ViewServer("127.0.0.1", 0, client, null, null, address, null);
    } finally { // closed after the class even where the setup fails
      browser = HeadlessChromium.started(starting);
    }
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

  private static ExperimentWorkflow experiment(String id) {
    return client.newWorkflowStub(ExperimentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  private static ExperimentInput input(int steps, List<String> legitimacies) {
    SimulationInput base = new SimulationInput("epstein", steps, 1,
        io.durableagents.scenarios.epstein.EpsteinParameters.DEFAULTS.withAgents(10, 2),
        AgentOptions.newBuilder().setStrategy(Strategy.COT).build(), null, null);
    List<ExperimentRun> runs = new ArrayList<>();
    for (String legitimacy : legitimacies) {
      for (long seed = 1; seed <= 2; seed++) {
        ObjectNode params = Json.MAPPER.createObjectNode().put("legitimacy", Double.parseDouble(legitimacy));
        runs.add(new ExperimentRun(runs.size() + 1, Map.of("legitimacy", legitimacy), seed, params, null, null, null));
      }
    }
    return new ExperimentInput("legitimacy", base, runs, 2, null, null, null, null, null, null, null);
  }

  @Test
  void theExperimentPageChartsItsRunsAndLeadsToEach() throws Exception {
    // legitimacy 7 is refused by the scenario's check: those two runs fail, and say why
    ExperimentResult done = experiment("exp-view").run(input(2, List.of("0.2", "0.9", "7")));
    assertEquals(4, done.count(RunStatus.COMPLETED));
    assertEquals(2, done.count(RunStatus.FAILED));

    String home = "http://127.0.0.1:" + view.port() + "/";
    browser.open(home);
    browser.awaitText("Experiments", "exp-view");
    browser.click("exp-view");
    browser.awaitScript("the page to say it is ready", "return document.documentElement.dataset.ready === 'true'");
    String page = browser.awaitText("exp-view: legitimacy", "6 runs: 4 completed, 2 failed", "Outcome against a parameter");
    assertTrue(page.contains("epstein, 2 steps a run"), page);
    assertTrue(page.contains("legitimacy"), page);
    // a point per completed run, the mean a line through the two values
    long points = ((Number) browser.script("return document.querySelectorAll('#chart .run-point').length")).longValue();
    assertEquals(4, points);
    String mean = (String) browser.script("return document.querySelector('#chart polyline.mean').getAttribute('points')");
    assertEquals(2, mean.trim().split(" ").length, mean);
    // the table: every run, the failed ones with the scenario's words
    long rows = ((Number) browser.script("return document.querySelectorAll('#runs tbody tr').length")).longValue();
    assertEquals(6, rows);
    assertTrue(page.contains("exp-view/run-001"), page);
    assertTrue(page.contains("failed"), page);
    assertTrue(page.contains("legitimacy"), page);
    String failedReason = done.runs().get(4).reason();
    assertTrue(page.contains(failedReason.substring(0, Math.min(40, failedReason.length()))), page);
    // another count: the chart follows the choice
    browser.script("const s = document.getElementById('count'); s.value = s.options[s.options.length - 1].value;"
        + " s.dispatchEvent(new Event('change'));");
    assertEquals(4L, ((Number) browser.script("return document.querySelectorAll('#chart .run-point').length")).longValue());
    screenshot("experiment");
    // a point leads to its run's own page
    browser.script("document.querySelector('#chart .run-point[data-run=\"exp-view/run-003\"]').dispatchEvent("
        + "new MouseEvent('click', {bubbles: true}))");
    browser.await("the run's page", text -> browser.currentUrl().contains("/simulation?id=exp-view%2Frun-003"));
  }

  @Test
  void aRunningExperimentsPageFollowsItToItsEnd() throws Exception {
    ExperimentWorkflow running = experiment("exp-view-running");
    WorkflowClient.start(running::run, input(400, List.of("0.5")));
    browser.open("http://127.0.0.1:" + view.port() + "/experiment?id=exp-view-running");
    browser.awaitText("running", "2 runs:");
    running.stop();
    String page = browser.awaitLive("completed", "2 runs: 2 stopped");
    assertTrue(page.contains("stopped"), page);
    ExperimentResult result = WorkflowStub.fromTyped(running).getResult(ExperimentResult.class);
    assertTrue(result.stopped());
  }

  private static void screenshot(String name) throws Exception {
    browser.screenshot(dir.resolve("screenshots").resolve(name + ".png"));
  }
}
