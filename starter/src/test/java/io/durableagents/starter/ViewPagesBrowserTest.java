package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.scenarios.BuiltinScenarios;
import io.durableagents.starter.view.ViewServer;
import io.durableagents.starter.view.history.ReplayedPast;
import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The view's pages of finished runs, as a person reads them in headless Chromium, on the in-memory
 * Temporal (a run's page reads the same there, and costs this machine far less than the dev server):
 * an Epstein run with citizens in jail, its fork, and a negotiation. The page marks itself ready; the
 * grid fills its panel, with a legend and whole agent ids; the agents' table has the portrayal's fields
 * as columns, rounded, and a jailed citizen's state; the step controls; a jailed citizen's page and its
 * last step; readable badges, no Intervene on a finished run, a fork that says what it came from; the
 * negotiation on its grid, with money on its own axis.
 */
class ViewPagesBrowserTest {
  private static final String EPSTEIN = "pages-epstein";
  private static final String NEGOTIATION = "pages-negotiation";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String READY = "return document.documentElement.dataset.ready === 'true'";

  private static Path dir;
  private static TestWorkflowEnvironment env;
  private static ViewServer view;
  private static ReplayedPast past;
  private static HeadlessChromium browser;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createDirectories(Path.of("target", "view-pages"));
    var starting = HeadlessChromium.startInBackground(dir); // while the runs are made
    try {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().apply(new BuiltinScenarios()).build();
      env = DurableAgentsTestEnvironment.start(plugin);
      WorkflowClient client = env.getWorkflowClient();
      // the demo's world and seed: citizens are jailed within a few steps
      DurableAgentsTestEnvironment.simulation(client, EPSTEIN).run(SimulationInput.of("epstein", 10, 42));
      DurableAgentsTestEnvironment.simulation(client, NEGOTIATION).run(SimulationInput.of("negotiation", 6, 3));
      past = new ReplayedPast(client, plugin, null);
      view = new ViewServer("127.0.0.1", 0, client, past, null, "in-memory", null);
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
    if (past != null) {
      past.close();
    }
    if (env != null) {
      env.close();
    }
  }

  @Test
  void aFinishedRunsPageIsReadyWholeReadableAndSteppable() throws Exception {
    browser.open(page(EPSTEIN));
    // 27: ready means every panel has its data: no waiting after the mark
    browser.awaitScript("the page marked ready", READY);
    assertEquals("10 10 10 true", browser.script("return [World.shown() && World.shown().step,"
        + " document.querySelectorAll('#counts tbody tr').length,"
        + " document.querySelector('#counts tbody td').textContent,"
        + " document.querySelector('#roles table') != null].join(' ')"), "drawn when marked ready");
    assertTrue(browser.text().contains("step 10 of 10"), browser.text());

    // 20: the grid fills its panel, a legend says what each colour and shape is, ids are not broken
    Number canvas = (Number) browser.script("return document.getElementById('world').getBoundingClientRect().width");
    Number panel = (Number) browser.script("return document.querySelector('.world-canvas').clientWidth");
    assertTrue(canvas.doubleValue() >= 500 && canvas.doubleValue() <= panel.doubleValue(),
        "the grid is " + canvas + " px wide in a panel of " + panel);
    String legend = (String) browser.script("return document.getElementById('legend').innerText");
    for (String entry : List.of("citizen, quiet", "citizen, active", "citizen, jailed (labelled with its sentence)",
        "cop")) {
      assertTrue(legend.contains(entry), "the legend names '" + entry + "': " + legend);
    }
    assertEquals(0L, browser.script("return [...document.querySelectorAll('#agent-table td.agent-id a')]"
        + ".filter(a => a.getClientRects().length !== 1).length"), "every agent id on one line");

    // 21: the portrayal's fields as columns, numbers rounded, a jailed citizen's state
    String head = (String) browser.script("return document.querySelector('#agent-table thead').innerText");
    for (String column : List.of("where", "state", "condition", "hardship", "risk_aversion", "grievance")) {
      assertTrue(head.contains(column), "a column '" + column + "': " + head);
    }
    String cells = (String) browser.script("return document.querySelector('#agent-table tbody').innerText");
    assertTrue(!Pattern.compile("\\d\\.\\d{4,}").matcher(cells).find(), "numbers rounded: " + cells);
    int jailedAt = -1;
    String jailed = null;
    int sentence = -1;
    for (int k = 1; k < 10 && jailed == null; k++) {
      for (JsonNode a : get(EPSTEIN, "world?step=" + k).path("agents")) {
        if (a.at("/attributes/jail_sentence").asInt() > 0) {
          jailedAt = k;
          jailed = a.get("id").asText();
          sentence = a.at("/attributes/jail_sentence").asInt();
          break;
        }
      }
    }
    assertTrue(jailed != null, "a citizen jailed before the last step");

    // 23: the step box, Back and Forward
    Number slider = (Number) browser.script("return document.getElementById('step').getBoundingClientRect().width");
    assertTrue(slider.doubleValue() >= 300, "a slider of " + slider + " px for 10 steps");
    browser.type("#step-box", jailedAt + "\n");
    awaitWorld(jailedAt);
    assertTrue(!(Boolean) browser.script("return document.getElementById('follow').checked"));
    String row = (String) browser.script("return document.querySelector('#agent-table tr[data-agent=\"" + jailed
        + "\"]').innerText");
    assertTrue(row.contains("jailed (sentence " + sentence + ")"), row);
    shot("06-world-legend");
    browser.click("Back");
    awaitWorld(jailedAt - 1);
    browser.click("Forward");
    awaitWorld(jailedAt);
    browser.click("Forward");
    awaitWorld(jailedAt + 1);

    // 24: in jail, it took no step: the page says so, and its last step moves the world there too
    browser.click(jailed);
    String note = browser.awaitLive("Agent " + jailed + " at step " + (jailedAt + 1), jailed + " was jailed (sentence "
        + sentence + ") after step " + jailedAt + ", and took no step at step " + (jailedAt + 1));
    Matcher last = Pattern.compile("Its last step: step (\\d+)").matcher(note);
    assertTrue(last.find(), note);
    int lastStep = Integer.parseInt(last.group(1));
    browser.click("Its last step: step " + lastStep);
    awaitWorld(lastStep);
    browser.awaitLive("Agent " + jailed + " at step " + lastStep, "Reasoning");
    assertEquals(String.valueOf(lastStep), browser.script("return document.getElementById('step-box').value"));
    assertTrue(browser.text().contains("World after step " + lastStep), browser.text());
    shot("07-jailed-agent");

    // 23: Play goes through the steps to the last, then follows
    browser.click("Play");
    browser.awaitScript("Play to reach step 10", "return World.shown().step === 10"
        + " && document.getElementById('follow').checked");

    // 25: a readable badge, and no Intervene on a finished run
    Number contrast = (Number) browser.script(CONTRAST, "#status");
    assertTrue(contrast.doubleValue() >= 4.5, "the badge's contrast is " + contrast);
    assertTrue(browser.text().contains("The run has completed: nothing to intervene on"), browser.text());
    assertEquals(Boolean.TRUE, browser.script("return document.querySelector('#intervene fieldset').disabled"));

    // 25: its fork says what it came from
    browser.type("#step-box", "4\n");
    awaitWorld(4);
    browser.type("#fork-steps", "12");
    browser.click("Fork at this step");
    Matcher fork = Pattern.compile("as (" + EPSTEIN + "-fork-4-\\w+)").matcher(browser.awaitLive("Forked " + EPSTEIN));
    assertTrue(fork.find(), browser.text());
    browser.open(page(fork.group(1)));
    browser.awaitLive("fork of " + EPSTEIN + " after step 4");
    assertEquals("/simulation?id=" + EPSTEIN, browser.script("return new URL(document.querySelector('#origin a')"
        + ".href).pathname + new URL(document.querySelector('#origin a').href).search"));

    browser.open("http://127.0.0.1:" + view.port() + "/");
    browser.awaitScript("the list marked ready", READY);
    assertTrue(browser.text().contains(EPSTEIN), browser.text());
    Number listed = (Number) browser.script(CONTRAST, "#simulations .badge");
    assertTrue(listed.doubleValue() >= 4.5, "the list's badge's contrast is " + listed);
  }

  @Test
  void theNegotiationIsDrawnOnItsGridWithMoneyOnItsOwnAxis() throws Exception {
    browser.open(page(NEGOTIATION));
    browser.awaitScript("the page marked ready", READY);
    assertEquals(Boolean.TRUE, browser.script("const c = document.getElementById('world');"
        + " return World.shown().grid != null && !c.hidden && c.width > 0"), "the grid drawn");
    String where = (String) browser.script("return [...document.querySelectorAll('#agent-table tbody tr')]"
        + ".map(r => r.cells[2].textContent).join('|')");
    assertTrue(Pattern.matches("(\\(\\d+, \\d+\\)\\|?)+", where), "every agent where it stands: " + where);
    String legend = (String) browser.script("return document.getElementById('legend').innerText");
    assertTrue(legend.contains("seller (labelled with its brand)") && legend.contains("buyer"), legend);
    shot("08-negotiation");
    JsonNode counts = get(NEGOTIATION, "world?step=6").path("counts");
    boolean sold = false;
    var names = counts.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      sold |= name.startsWith("sales_") && counts.get(name).asInt() > 0;
    }
    String chart = (String) browser.script("return document.getElementById('counts-chart').innerText");
    System.out.println("ViewPagesBrowserTest: the negotiation's counts after step 6: " + counts);
    if (sold) {
      assertTrue(chart.contains("money_left (right axis)") && !chart.contains("sales_seller-0 (right axis)"), chart);
    }
    // the rule itself, as the chart applies it: a tenfold jump is not enough, the largest go right
    assertEquals("money_left", browser.script("return Charts.rightAxisOf(['sales', 'money_left'],"
        + " [[0, 1, 3], [350, 340, 320]]).join(',')"));
    assertEquals("", browser.script("return Charts.rightAxisOf(['active', 'quiet'], [[0, 1], [12, 11]]).join(',')"));
  }

  /** The contrast ratio (WCAG) of the text of the element {@code arguments[0]} selects on its background. */
  private static final String CONTRAST = "const e = document.querySelector(arguments[0]); const s = getComputedStyle(e);"
      + " const lum = c => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(Number).map(v => { v /= 255;"
      + " return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g"
      + " + 0.0722 * b; };"
      + " const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);"
      + " return (a + 0.05) / (b + 0.05);";

  private static void awaitWorld(int step) {
    browser.awaitScript("the world after step " + step + " drawn", "return World.shown() != null"
        + " && World.shown().step === " + step + " && " + READY.substring("return ".length()));
  }

  private static void shot(String name) throws Exception {
    Path png = dir.resolve("screenshots").resolve(name + ".png");
    browser.screenshot(png);
    String copy = System.getenv(ViewBrowserTest.SCREENSHOTS_VARIABLE);
    if (copy != null && !copy.isBlank()) {
      Files.copy(png, Files.createDirectories(Path.of(copy)).resolve(png.getFileName()),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String page(String id) {
    return "http://127.0.0.1:" + view.port() + "/simulation?id=" + id;
  }

  private static JsonNode get(String id, String path) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + view.port() + "/api/simulations/" + id + "/" + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }
}
