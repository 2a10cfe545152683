package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.LocalStack;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.worker.codec.CodecServer;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Temporal UI as a person sees it after {@code demo}, read in headless Chromium: Temporal's real dev
 * server started by {@code dev-server}, a worker (in this JVM: the UI shows what it recorded, not how its
 * process runs), and runs started through the command line (a small Epstein simulation with the {@code
 * rules} model, an {@code agent} task that calls the calculator, a {@code fork}) and one agent task whose
 * calculator call waits for approval (started by the client here: it waits for ever, and {@code agent
 * --requires-approval} itself is {@code ApprovalEndToEndTest}'s); then the pages a user opens: the list
 * filtered by {@code Scenario="epstein"}, the simulation's child workflows, an agent step's history with
 * its {@code llm: rules} calls and their JSON, a {@code tool: calculator} call, {@code AwaitingApproval=true}
 * and {@code ForkedFrom="ui-sim"}. Then an encrypted run ({@code DURABLE_AGENTS_ENCRYPTION_KEYS}): unreadable
 * in the UI, and readable once the dev server is started again with {@code --ui-codec-endpoint} pointing
 * at the codec server ({@code codec-server}'s {@link CodecServer}, in this JVM). Each page is asserted on its rendered text and saved as a PNG in {@code
 * target/temporal-ui/screenshots} (and in the directory {@value #SCREENSHOTS_VARIABLE} names, such as
 * {@code ../docs/images/temporal-ui}, which is how the manual's screenshots are made).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TemporalUiBrowserTest {
  /** A directory to copy the screenshots to as well (the manual's: {@code ../docs/images/temporal-ui}). */
  static final String SCREENSHOTS_VARIABLE = "DURABLE_AGENTS_UI_SCREENSHOTS";
  private static final String SIM = "ui-sim";
  private static final String FORK = "ui-sim-fork";
  private static final String CALC = "ui-calculator";
  private static final String WAITING = "ui-approval";
  private static final String SECRET = "ui-encrypted";
  /** A payload as the UI shows what it cannot decode: its bytes in base64, quoted. */
  private static final Pattern ENCRYPTED = Pattern.compile("\"[A-Za-z0-9+/]{100,}={0,2}\"");

  private static Path dir;
  private static Path cli;
  private static int port;
  private static int uiPort;
  private static String ui;
  private static Process server;
  private static long devServerLogFrom;
  private static WorkflowServiceStubs service;
  private static WorkerInThisJvm worker;
  private static CodecServer codec;
  private static HeadlessChromium browser;
  private static final long classStarted = System.nanoTime();

  @BeforeAll
  static void start() throws Exception {
    cli = RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "temporal-ui"));
    for (String name : List.of("temporal.db", "temporal.db-wal", "temporal.db-shm")) {
      Files.deleteIfExists(dir.resolve(name));
    }
    port = RealDevServer.freePort();
    uiPort = RealDevServer.freePort();
    ui = "http://127.0.0.1:" + uiPort;
    // the dev server's JVM and the Temporal CLI come up while Chromium starts
    server = launchDevServer(null);
    browser = HeadlessChromium.start(dir);
    awaitDevServer(server, null);
    service = TemporalCheck.connect(TemporalConnection.fromEnvironment(Map.of("TEMPORAL_ADDRESS", address())));
    worker = startWorker(Map.of());
    log("dev server, worker and browser started");
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    stopWorker();
    if (service != null) {
      service.shutdownNow();
    }
    if (codec != null) {
      codec.close();
    }
    if (server != null) {
      kill(server);
    }
    log("done");
  }

  @Test
  @Order(1)
  void whatAUserSeesAfterDemo() throws Exception {
    CliFailuresTest.Run sim = cli(Map.of(), "simulate", "--steps", "3", "--citizens", "4", "--cops", "1", "--id", SIM);
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    CliFailuresTest.Run calc = cli(Map.of(), "agent", "--prompt", "What is 17 * 23?", "--tools", "calculator",
        "--strategy", "react", "--no-worker", "--id", CALC);
    assertEquals(0, calc.exitCode(), calc.out() + calc.err());
    // waits for a decision for ever: started as 'agent --requires-approval calculator' starts it, not waited on
    AgentOptions approval = AgentOptions.newBuilder().setStrategy(Strategy.REACT)
        .setApproval(ApprovalOptions.of("calculator").withSearchAttribute(true)).build();
    WorkflowClient client = TemporalConnection.fromEnvironment(Map.of("TEMPORAL_ADDRESS", address())).client(service);
    WorkflowClient.start(client.newWorkflowStub(AgentTaskWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(TaskQueues.AGENTS).setWorkflowId(WAITING).setStaticSummary("react with rules").build())::run,
        new AgentTaskInput("What is 6 * 7?", List.of("calculator"), approval));
    CliFailuresTest.Run fork = cli(Map.of(), "fork", SIM, "--at-step", "1", "--strategy", "react", "--id", FORK);
    assertEquals(0, fork.exitCode(), fork.out() + fork.err());
    log("runs done");

    browser.open(list("Scenario=\"epstein\""));
    String list = browser.awaitText(SIM + "/agent-citizen-0/step-3", "AgentStep", "Simulation");
    assertTrue(list.contains("Scenario = \"epstein\""), "the filter is shown as the query: " + list);
    assertFalse(list.contains(CALC), "an agent task has no scenario: " + list);
    shot("01-workflows-by-scenario");
    // the fork carries Scenario as the simulation it came from does (issue 36): the list's query, asked of
    // the server as the UI asks it (a page of its own cost a page load, the slow part of this class)
    String simulations = "Scenario=\"epstein\" AND WorkflowType=\"Simulation\"";
    long listDeadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    List<String> listed = List.of();
    while (!listed.containsAll(List.of(SIM, FORK)) && System.nanoTime() < listDeadline) {
      listed = client.listExecutions(simulations).map(e -> e.getExecution().getWorkflowId()).toList();
      if (!listed.containsAll(List.of(SIM, FORK))) {
        java.util.concurrent.TimeUnit.MILLISECONDS.sleep(200); // the server's visibility store catching up
      }
    }
    assertEquals(List.of(FORK, SIM), listed.stream().sorted(java.util.Comparator.reverseOrder()).toList(),
        simulations + " lists the simulation and its fork");

    browser.open(workflow(SIM));
    browser.awaitText("Relationships", "Simulation");
    browser.click("Relationships");
    browser.awaitText(SIM + "/agent-citizen-0/step-1", SIM + "/agent-cop-0/step-3");
    browser.scrollTo("Child Count", 330);
    shot("02-simulation-children");

    String step = SIM + "/agent-citizen-0/step-2";
    browser.open(workflow(step));
    browser.awaitText("Event History", "Parent Workflow");
    browser.click("Event History");
    browser.awaitText("llm: rules", "LlmChat");
    browser.openEventWith("llm: rules");
    String opened = browser.awaitText("\"model\": \"rules\"", "\"messages\": [", "\"role\": \"SYSTEM\"");
    // eager LLM calls (the default) are scheduled on the workflows' own task queue
    assertTrue(opened.contains("durable-agents") && !opened.contains("durable-agents-llm"), opened);
    shot("03-agent-step-llm-call");

    browser.open(workflow(CALC));
    browser.awaitText("Event History", "AgentTask");
    browser.click("Event History");
    browser.awaitText("tool: calculator", "ToolExecute");
    browser.openEventWith("tool: calculator");
    browser.awaitText("\"name\": \"calculator\"", "\"expression\": \"17 * 23\"");
    shot("04-tool-call");

    browser.open(list("AwaitingApproval=true"));
    String waiting = browser.awaitText(WAITING, "Running".toUpperCase());
    assertFalse(waiting.contains(CALC), "only the run that waits: " + waiting);
    shot("05-awaiting-approval");

    browser.open(list("ForkedFrom=\"" + SIM + "\""));
    String forks = browser.awaitText(FORK, "Simulation");
    assertFalse(forks.contains(SIM + "/"), "the fork, not the original's steps: " + forks);
    shot("06-forked-from");
    log("pages read");
  }

  @Test
  @Order(2)
  void encryptedPayloadsAreReadableThroughTheCodecServerOnly() throws Exception {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Map<String, String> keys = Map.of(AesGcmPayloadCodec.KEYS_VARIABLE, "k1:" + Base64.getEncoder().encodeToString(key));
    // a worker of the same task queues that encrypts (as 'worker' with the keys set): the plain one goes first
    stopWorker();
    worker = startWorker(keys);
    CliFailuresTest.Run secret = cli(keys, "agent", "--prompt", "What is 19 * 21?", "--tools", "calculator",
        "--strategy", "react", "--no-worker", "--id", SECRET);
    assertEquals(0, secret.exitCode(), secret.out() + secret.err());
    assertTrue(secret.out().contains("399"), secret.out());
    stopWorker(); // nothing is left to run: its pollers need not see the server go
    log("encrypted run done");

    browser.open(workflow(SECRET));
    browser.awaitText("Event History", "AgentTask");
    browser.click("Event History");
    // the summaries are encrypted too (Temporal encodes user metadata like any payload): no "tool: ..."
    browser.awaitText("ToolExecute", "LlmChat");
    browser.openEventWith("ToolExecute");
    String encrypted = browser.await("the tool call's input, encrypted",
        page -> page.contains("Activity ID") && ENCRYPTED.matcher(page).find());
    assertFalse(encrypted.contains("19 * 21") || encrypted.contains("tool: calculator")
        || encrypted.contains("rule-based"), "without the codec server the UI cannot read it: " + encrypted);
    shot("07-encrypted-without-codec");

    // what 'codec-server --ui-origin <the UI>' serves, with the same keys
    codec = new CodecServer("127.0.0.1", 0, AesGcmPayloadCodec.fromEnvironment(keys), ui, null);
    kill(server); // its runs are in its database already (what a graceful stop adds is not what is tested)
    String endpoint = "http://127.0.0.1:" + codec.port();
    server = awaitDevServer(launchDevServer(endpoint), endpoint);
    log("dev server started again with --ui-codec-endpoint");

    browser.open(workflow(SECRET));
    browser.awaitText("Event History", "AgentTask");
    browser.click("Event History");
    browser.awaitText("tool: calculator");
    browser.openEventWith("tool: calculator");
    String decoded = browser.awaitText("\"expression\": \"19 * 21\"", "\"name\": \"calculator\"");
    assertFalse(decoded.contains(AesGcmPayloadCodec.ENCODING), decoded);
    shot("08-decoded-through-codec-server");
    log("encrypted pages read");
  }

  /**
   * A worker of the task queues, in this JVM, as {@code worker} makes it from its environment: {@code env}
   * (the encryption keys, say) over the dev server's address.
   */
  private static WorkerInThisJvm startWorker(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(env);
    all.put("TEMPORAL_ADDRESS", address());
    return WorkerInThisJvm.start("ui-test-worker", all);
  }

  private static void stopWorker() {
    if (worker != null) {
      worker.close();
      worker = null;
    }
  }

  /**
   * kill -9 of the dev server and its Temporal CLI, waiting until both are gone: the next one takes their
   * ports and database (whose committed transactions a killed process keeps: they are in the file).
   */
  private static void kill(Process p) throws Exception {
    List<ProcessHandle> children = p.descendants().toList();
    RealDevServer.kill(p);
    for (ProcessHandle child : children) {
      child.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /**
   * Starts (or starts again, on the same database and ports) the dev server as a user does; {@link
   * #awaitDevServer} waits for it.
   */
  private static Process launchDevServer(String codecEndpoint) throws Exception {
    Path log = dir.resolve("dev-server.log");
    devServerLogFrom = Files.exists(log) ? Files.size(log) : 0;
    List<String> args = new ArrayList<>(List.of("dev-server", "--port", Integer.toString(port), "--ui-port",
        Integer.toString(uiPort), "--db-file", dir.resolve("temporal.db").toString(), "--temporal-cli", cli.toString(),
        // as RealDevServer's: a test's runs need not survive a power loss
        "--sqlite-pragma", "synchronous=off"));
    if (codecEndpoint != null) {
      args.addAll(List.of("--ui-codec-endpoint", codecEndpoint));
    }
    return ChildProcesses.start("256m", log.toFile(), Map.of(), args.toArray(String[]::new));
  }

  /** Waits until the dev server {@link #launchDevServer} started says it listens, and checks what it says. */
  private static Process awaitDevServer(Process p, String codecEndpoint) throws Exception {
    Path log = dir.resolve("dev-server.log");
    List<String> said = LocalStack.awaitAnnouncement(log, devServerLogFrom, p, 120_000);
    assertNotNull(said, "the dev server did not start: " + Files.readString(log));
    String last = said.get(said.size() - 1);
    assertTrue(last.startsWith("Temporal dev server") && last.contains("UI at " + ui), last);
    if (codecEndpoint != null) {
      assertTrue(last.contains(", decoding payloads through " + codecEndpoint + "; its log in "), last);
    }
    return p;
  }

  private static CliFailuresTest.Run cli(Map<String, String> env, String... args) {
    Map<String, String> overlay = new HashMap<>(env);
    overlay.put("TEMPORAL_ADDRESS", address());
    overlay.put("DURABLE_AGENTS_MODEL", null);
    overlay.put("DURABLE_AGENTS_DEBUG", null);
    return CliFailuresTest.run(overlay, args);
  }

  private static String address() {
    return "127.0.0.1:" + port;
  }

  private static String list(String query) {
    return ui + "/namespaces/default/workflows?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
  }

  private static String workflow(String id) {
    return ui + "/namespaces/default/workflows/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  private static void shot(String name) throws Exception {
    Path png = dir.resolve("screenshots").resolve(name + ".png");
    browser.screenshot(png);
    String copy = System.getenv(SCREENSHOTS_VARIABLE);
    if (copy != null && !copy.isBlank()) {
      Path target = Files.createDirectories(Path.of(copy)).resolve(png.getFileName());
      Files.copy(png, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void log(String what) {
    System.out.printf("TemporalUiBrowserTest: %s at %.1f s%n", what, (System.nanoTime() - classStarted) / 1e9);
  }
}
