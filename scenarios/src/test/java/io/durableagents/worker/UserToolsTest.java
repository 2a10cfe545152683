package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.activities.spec.AgentSpecException;
import io.durableagents.activities.spec.AgentSpecLoader;
import io.durableagents.activities.spec.RegisteredNames;
import io.durableagents.activities.tools.DurableTool;
import io.durableagents.activities.tools.ToolCallContext;
import io.durableagents.activities.tools.ToolOptions;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Param;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.failure.v1.Failure;
import io.temporal.api.history.v1.ActivityTaskScheduledEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.testing.TestWorkflowEnvironment;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's own tools, registered on the plugin with {@code registerTool}: each call an activity with
 * its tool's options (timeouts, retries, non-retryable exceptions), the idempotency key handed to the
 * tool, registration that fails naming the tool, and the tools given to an {@code agent} task, an
 * autonomous agent's YAML spec and a scenario role's agent step.
 */
class UserToolsTest {
  /** A retryable failure of the rate service. */
  public static class RateServiceDown extends RuntimeException {
    public RateServiceDown(String message) {
      super(message);
    }
  }

  /**
   * Exchange rates from a service that fails the first two attempts of every call, then answers.
   * Records each attempt as {@code <attempt> <idempotency key>}.
   */
  public static class Rates {
    final List<String> attempts = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> perKey = new ConcurrentHashMap<>();

    @Tool(name = "fetch_rate", value = "The exchange rate of a currency to the euro.")
    @DurableTool(startToClose = "PT2M", heartbeat = "PT5S", maximumAttempts = 4, initialInterval = "PT0.1S",
        backoffCoefficient = 1.5, maximumInterval = "PT0.2S")
    public String fetchRate(@P("an ISO currency code, e.g. USD") String currency, ToolCallContext call) {
      attempts.add(call.attempt() + " " + call.idempotencyKey());
      if (perKey.computeIfAbsent(call.idempotencyKey(), k -> new AtomicInteger()).incrementAndGet() < 3) {
        throw new RateServiceDown("rate service unavailable");
      }
      return currency + "=0.92";
    }
  }

  /** Every account problem; retrying cannot fix any of them. */
  public static class AccountProblem extends RuntimeException {
    public AccountProblem(String message) {
      super(message);
    }
  }

  public static class AccountClosed extends AccountProblem {
    public AccountClosed(String message) {
      super(message);
    }
  }

  /** Closing an account that is closed already: a permanent failure. */
  public static class Accounts {
    final AtomicInteger calls = new AtomicInteger();

    @Tool(name = "close_account", value = "Closes a bank account.")
    @DurableTool(initialInterval = "PT0.1S", nonRetryable = AccountProblem.class)
    public String close(@P("the account number") String account) {
      calls.incrementAndGet();
      throw new AccountClosed("account " + account + " is closed already");
    }
  }

  /** A tool given its options on the builder, not by annotation. */
  public static class Ledger {
    @Tool(name = "ledger_balance", value = "The balance of the ledger.")
    public String balance() {
      return "1200 EUR";
    }
  }

  static final ToolOptions LEDGER_OPTIONS = ToolOptions.newBuilder()
      .setStartToCloseTimeout(Duration.ofSeconds(90)).setHeartbeatTimeout(Duration.ofSeconds(3))
      .setMaximumAttempts(2).setInitialInterval(Duration.ofMillis(500)).setBackoffCoefficient(3.0)
      .setMaximumInterval(Duration.ofSeconds(4)).build();

  private final ScriptedChatModel model = new ScriptedChatModel();
  private final Rates rates = new Rates();
  private final Accounts accounts = new Accounts();
  private DurableAgentsPlugin.Builder builder;
  private TestWorkflowEnvironment env;

  @TempDir Path temp;

  private WorkflowClient start() {
    builder = Builtins.plugin().registerModel("scripted", model)
        .registerTool(rates, accounts).registerTool(new Ledger(), LEDGER_OPTIONS);
    env = TestWorkers.start(builder.build());
    return env.getWorkflowClient();
  }

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private AgentTaskResult task(String id, List<String> tools) {
    return env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new AgentTaskInput("What is a dollar in euros?", tools,
            AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("scripted").build()));
  }

  private static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
  }

  private static AiMessage finish(String answer) {
    return AiMessage.from(call("call_f", "finish", "{\"answer\":\"" + answer + "\"}"));
  }

  private static List<String> toolResults(ChatRequest request) {
    List<String> out = new ArrayList<>();
    for (ChatMessage m : request.messages()) {
      if (m instanceof ToolExecutionResultMessage r) {
        out.add(r.toolName() + " => " + r.text());
      }
    }
    return out;
  }

  private static List<String> offered(ChatRequest request) {
    return request.toolSpecifications() == null ? List.of()
        : request.toolSpecifications().stream().map(ToolSpecification::name).toList();
  }

  private static String summary(HistoryEvent e) {
    return DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
        e.getUserMetadata().getSummary(), String.class, String.class);
  }

  /** The tool activities of a workflow's history, by tool: their scheduled event. */
  private static Map<String, ActivityTaskScheduledEventAttributes> scheduledTools(WorkflowClient client, String id) {
    Map<String, ActivityTaskScheduledEventAttributes> out = new LinkedHashMap<>();
    for (HistoryEvent e : client.fetchHistory(id).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
          && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute")) {
        out.put(summary(e).replaceFirst("^tool: ", "").replaceFirst(" · .*$", ""),
            e.getActivityTaskScheduledEventAttributes());
      }
    }
    return out;
  }

  /** The events of the tool activity scheduled as {@code eventId}, by type. */
  private static Map<EventType, HistoryEvent> activityEvents(WorkflowClient client, String id, long scheduledId) {
    Map<EventType, HistoryEvent> out = new LinkedHashMap<>();
    for (HistoryEvent e : client.fetchHistory(id).getEvents()) {
      long of = switch (e.getEventType()) {
        case EVENT_TYPE_ACTIVITY_TASK_STARTED -> e.getActivityTaskStartedEventAttributes().getScheduledEventId();
        case EVENT_TYPE_ACTIVITY_TASK_COMPLETED -> e.getActivityTaskCompletedEventAttributes().getScheduledEventId();
        case EVENT_TYPE_ACTIVITY_TASK_FAILED -> e.getActivityTaskFailedEventAttributes().getScheduledEventId();
        default -> -1;
      };
      if (of == scheduledId) {
        out.put(e.getEventType(), e);
      }
    }
    return out;
  }

  private static long scheduledEventId(WorkflowClient client, String id, String tool) {
    for (HistoryEvent e : client.fetchHistory(id).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
          && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute")
          && summary(e).startsWith("tool: " + tool)) {
        return e.getEventId();
      }
    }
    throw new AssertionError("no call of " + tool + " in " + id);
  }

  // ---------------------------------------------------------------- failures and retries

  @Test
  void aTransientFailureIsRetriedAndTheModelSeesTheResultOfTheThirdAttempt() {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}")))
        .then(finish("1 USD = 0.92 EUR"));

    AgentTaskResult result = task("rates-transient", List.of("fetch_rate"));

    assertEquals("1 USD = 0.92 EUR", result.answer());
    assertEquals(List.of("fetch_rate", "finish"), offered(model.requests.get(0)));
    assertEquals(List.of("fetch_rate => USD=0.92"), toolResults(model.requests.get(1)),
        "the model sees the result, not the failures before it");
    ToolOutcome outcome = result.turns().get(0).outcomes().get(0);
    assertFalse(outcome.error());
    assertEquals(3, rates.attempts.size(), rates.attempts.toString());

    Map<EventType, HistoryEvent> events =
        activityEvents(client, "rates-transient", scheduledEventId(client, "rates-transient", "fetch_rate"));
    assertEquals(3, events.get(EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).getActivityTaskStartedEventAttributes()
        .getAttempt(), "the history's started event is the third attempt's");
    assertEquals(List.of("1", "2", "3"), rates.attempts.stream().map(a -> a.split(" ")[0]).toList(),
        "the tool saw the attempts in order");
    assertNotNull(events.get(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED));
  }

  @Test
  void aNonRetryableFailureIsReportedOnceAndTheModelSeesTheError() {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "close_account", "{\"account\":\"7\"}")))
        .then(finish("The account was closed already."));

    AgentTaskResult result = task("accounts-permanent", List.of("close_account"));

    assertEquals(1, accounts.calls.get(), "a non-retryable failure is never retried");
    String observation = toolResults(model.requests.get(1)).get(0);
    assertTrue(observation.startsWith("close_account => tool failed: close_account failed: ")
        && observation.contains("AccountClosed: account 7 is closed already"), observation);
    assertTrue(result.turns().get(0).outcomes().get(0).error());
    assertEquals("The account was closed already.", result.answer());

    Map<EventType, HistoryEvent> events = activityEvents(client, "accounts-permanent",
        scheduledEventId(client, "accounts-permanent", "close_account"));
    assertEquals(1, events.get(EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).getActivityTaskStartedEventAttributes()
        .getAttempt());
    Failure failure = events.get(EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED).getActivityTaskFailedEventAttributes()
        .getFailure();
    assertEquals(ToolFailureTypes.TOOL_FAILED_PERMANENTLY, failure.getApplicationFailureInfo().getType());
    assertTrue(failure.getApplicationFailureInfo().getNonRetryable());
  }

  @Test
  void theIdempotencyKeyReachesTheToolAndIsTheSameOnEveryAttemptOfACall() {
    start();
    model.then(AiMessage.from("Both rates.", List.of(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}"),
            call("call_2", "fetch_rate", "{\"currency\":\"GBP\"}"))))
        .then(finish("done"));

    task("rates-keys", List.of("fetch_rate"));

    List<String> usd = rates.attempts.stream().filter(a -> a.endsWith("/call_1")).toList();
    List<String> gbp = rates.attempts.stream().filter(a -> a.endsWith("/call_2")).toList();
    assertEquals(List.of("1 rates-keys/0/call_1", "2 rates-keys/0/call_1", "3 rates-keys/0/call_1"), usd,
        "<workflow>/<step>/<call id>, equal on every attempt: " + rates.attempts);
    assertEquals(List.of("1 rates-keys/0/call_2", "2 rates-keys/0/call_2", "3 rates-keys/0/call_2"), gbp);
  }

  @Test
  void eachToolsOptionsAreInItsScheduledEvent() {
    WorkflowClient client = start();
    model.then(AiMessage.from("Three tools.", List.of(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}"),
            call("call_2", "ledger_balance", "{}"), call("call_3", "calculator", "{\"expression\":\"2*3\"}"))))
        .then(finish("done"));

    task("options", List.of("fetch_rate", "ledger_balance", "calculator"));

    Map<String, ActivityTaskScheduledEventAttributes> scheduled = scheduledTools(client, "options");
    // @DurableTool on the method
    ActivityTaskScheduledEventAttributes annotated = scheduled.get("fetch_rate");
    assertEquals(120, annotated.getStartToCloseTimeout().getSeconds());
    assertEquals(5, annotated.getHeartbeatTimeout().getSeconds());
    assertEquals(4, annotated.getRetryPolicy().getMaximumAttempts());
    assertEquals(100_000_000, annotated.getRetryPolicy().getInitialInterval().getNanos());
    assertEquals(1.5, annotated.getRetryPolicy().getBackoffCoefficient());
    assertEquals(200_000_000, annotated.getRetryPolicy().getMaximumInterval().getNanos());
    // ToolOptions given to registerTool
    ActivityTaskScheduledEventAttributes built = scheduled.get("ledger_balance");
    assertEquals(90, built.getStartToCloseTimeout().getSeconds());
    assertEquals(3, built.getHeartbeatTimeout().getSeconds());
    assertEquals(2, built.getRetryPolicy().getMaximumAttempts());
    assertEquals(500_000_000, built.getRetryPolicy().getInitialInterval().getNanos());
    assertEquals(3.0, built.getRetryPolicy().getBackoffCoefficient());
    assertEquals(4, built.getRetryPolicy().getMaximumInterval().getSeconds());
    // a tool without options: today's defaults
    ActivityTaskScheduledEventAttributes builtin = scheduled.get("calculator");
    assertEquals(60, builtin.getStartToCloseTimeout().getSeconds());
    assertEquals(10, builtin.getHeartbeatTimeout().getSeconds());
    assertEquals(3, builtin.getRetryPolicy().getMaximumAttempts());
    assertEquals(1, builtin.getRetryPolicy().getInitialInterval().getSeconds());
    assertEquals(2.0, builtin.getRetryPolicy().getBackoffCoefficient());
    assertEquals(10, builtin.getRetryPolicy().getMaximumInterval().getSeconds());
  }

  // ---------------------------------------------------------------- registration

  /** Has the calculator's name. */
  public static class MyCalculator {
    @Tool(name = "calculator", value = "My own calculator.")
    public String calculate(@P("an expression") String expression) {
      return "42";
    }
  }

  public static class OtherRates {
    @Tool(name = "fetch_rate", value = "Another rate service.")
    public String rate(@P("a currency") String currency) {
      return "1";
    }
  }

  public static class NoTools {
    public String notATool() {
      return "";
    }
  }

  public static class BadDuration {
    @Tool(name = "slow_report", value = "A report.")
    @DurableTool(startToClose = "5 minutes")
    public String report() {
      return "";
    }
  }

  public static class HeartbeatLongerThanAttempt {
    @Tool(name = "odd_report", value = "A report.")
    @DurableTool(startToClose = "PT10S", heartbeat = "PT1M")
    public String report() {
      return "";
    }
  }

  @Test
  void aDuplicateNameFailsAtRegistrationNamingTheTool() {
    String builtin = assertThrows(IllegalArgumentException.class,
        () -> Builtins.plugin().registerTool(new MyCalculator())).getMessage();
    assertTrue(builtin.contains("two tools are named 'calculator'") && builtin.contains("CalculatorTool")
        && builtin.contains("MyCalculator"), builtin);

    DurableAgentsPlugin.Builder b = Builtins.plugin().registerTool(new Rates());
    String twice = assertThrows(IllegalArgumentException.class, () -> b.registerTool(new OtherRates()))
        .getMessage();
    assertTrue(twice.startsWith("registerTool: two tools are named 'fetch_rate'") && twice.contains("OtherRates"),
        twice);
    b.build(); // the refused registration left nothing behind
  }

  @Test
  void badRegistrationsFailNamingTheToolAndWhatIsWrong() {
    String none = assertThrows(IllegalArgumentException.class,
        () -> Builtins.plugin().registerTool(new NoTools())).getMessage();
    assertTrue(none.contains("NoTools has no @Tool method"), none);
    String duration = assertThrows(IllegalArgumentException.class,
        () -> Builtins.plugin().registerTool(new BadDuration())).getMessage();
    assertTrue(duration.contains("tool 'slow_report'")
        && duration.contains("@DurableTool startToClose '5 minutes' is not allowed"), duration);
    String heartbeat = assertThrows(IllegalArgumentException.class,
        () -> Builtins.plugin().registerTool(new HeartbeatLongerThanAttempt())).getMessage();
    assertTrue(heartbeat.contains("tool 'odd_report'") && heartbeat.contains("@DurableTool heartbeat PT1M"),
        heartbeat);
    String attempts = assertThrows(IllegalArgumentException.class,
        () -> ToolOptions.newBuilder().setMaximumAttempts(0).build()).getMessage();
    assertTrue(attempts.startsWith("maximumAttempts 0 is not allowed"), attempts);
  }

  /**
   * A class compiled here without {@code -parameters} (the build compiles with it): its parameter is
   * {@code arg0} to reflection, and a model could never call it right.
   */
  @Test
  void aToolCompiledWithoutParameterNamesFailsAtRegistrationNamingIt() throws Exception {
    Path src = Files.createDirectories(temp.resolve("src/unnamed"));
    Files.writeString(src.resolve("Lookup.java"), """
        package unnamed;

        public class Lookup {
          @dev.langchain4j.agent.tool.Tool(name = "unnamed_lookup", value = "Looks a key up.")
          public String lookup(String key) {
            return key;
          }
        }
        """);
    Path classes = Files.createDirectories(temp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK's compiler");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    int rc = javac.run(null, null, null, "-proc:none", "-classpath", classpath, "-d", classes.toString(),
        src.resolve("Lookup.java").toString());
    assertEquals(0, rc, "javac");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        UserToolsTest.class.getClassLoader())) {
      Class<?> type = loader.loadClass("unnamed.Lookup");
      assertFalse(type.getMethod("lookup", String.class).getParameters()[0].isNamePresent(),
          "compiled without -parameters");
      Constructor<?> c = type.getConstructor();
      Object tool = c.newInstance();
      String message = assertThrows(IllegalArgumentException.class,
          () -> Builtins.plugin().registerTool(tool)).getMessage();
      assertTrue(message.startsWith("registerTool: tool 'unnamed_lookup' (unnamed.Lookup.lookup): parameter arg0 "
          + "has no name: compile with -parameters"), message);
    }
  }

  // ---------------------------------------------------------------- agents that use them

  @Test
  void aYamlSpecNamingARegisteredToolLoadsAndRunsIt() throws Exception {
    WorkflowClient client = start();
    Path file = temp.resolve("rates.yaml");
    Files.writeString(file, """
        apiVersion: v1
        kind: Agent
        metadata:
          name: rates
        spec:
          role: You answer questions about exchange rates.
          model: scripted
          tools:
            - type: fetch_rate
            - type: calculator
          guardrails:
            max_iterations: 4
        """);
    AgentSpecException unknown = assertThrows(AgentSpecException.class, () -> AgentSpecLoader.load(file));
    assertTrue(unknown.getMessage().contains("spec.model") && unknown.getMessage().contains("'scripted'"),
        unknown.getMessage());
    RegisteredNames registered = RegisteredNames.of(builder.build().tools(), builder.modelNames());
    assertEquals(List.of("calculator", "read_file", "fetch_rate", "close_account", "ledger_balance"),
        builder.externalToolNames(), "what a command line checks names against");
    AgentSpec spec = AgentSpecLoader.load(file, registered);
    assertEquals(List.of("fetch_rate", "calculator"), spec.tools());
    assertEquals("scripted", spec.model());
    String misspelt = assertThrows(AgentSpecException.class, () -> AgentSpecLoader.parse(
        Files.readString(file).replace("type: fetch_rate", "type: fetch_rates"), temp, registered)).getMessage();
    assertTrue(misspelt.contains("spec.tools[0].type") && misspelt.contains("'fetch_rates' is not one of: think, "
        + "todo, spawn, calculator, read_file, fetch_rate, close_account, ledger_balance"), misspelt);

    model.then(AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}")))
        .then(AiMessage.from("A dollar is 0.92 euros."));
    AutonomousAgentResult result = client.newWorkflowStub(AutonomousAgentWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("auto-rates").build())
        .run(AutonomousAgentInput.root(spec, "What is a dollar in euros?"));

    assertEquals("A dollar is 0.92 euros.", result.answer());
    assertEquals(1, result.toolCalls());
    assertTrue(offered(model.requests.get(0)).containsAll(List.of("fetch_rate", "calculator")),
        offered(model.requests.get(0)).toString());
    assertEquals(List.of("fetch_rate => USD=0.92"), toolResults(model.requests.get(1)));
    assertEquals(List.of("1 auto-rates/1/call_1", "2 auto-rates/1/call_1", "3 auto-rates/1/call_1"), rates.attempts);
    assertEquals(5, scheduledTools(client, "auto-rates").get("fetch_rate").getHeartbeatTimeout().getSeconds(),
        "the autonomous workflow runs the tool with its options");
  }

  /** A scenario role whose tools ({@code ScenarioWorld.toolsOf}) name a registered tool. */
  private static AgentStepInput citizenWithRates(String simulationId) {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    List<String> tools = new ArrayList<>(EpsteinScenario.CITIZEN_TOOLS);
    tools.add("fetch_rate");
    return new AgentStepInput(simulationId, EpsteinScenario.NAME, "citizen-2", "citizen",
        world.observe("citizen-2", 1), null, tools, EpsteinScenario.WORLD_ACTIONS,
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("scripted").build());
  }

  @Test
  void aScenarioRolesAgentStepRunsARegisteredToolWithItsOptions() {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}")))
        .then(AiMessage.from(call("call_2", "move_one_step", "{\"direction\":\"North\"}")))
        .then(AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"GBP\"}")))
        .then(AiMessage.from(call("call_2", "move_one_step", "{\"direction\":\"North\"}")));

    AgentStepResult step = client.newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-rates/agent-citizen-2/step-1")
            .build()).step(citizenWithRates("sim-rates"));

    assertTrue(offered(model.requests.get(0)).contains("fetch_rate"), offered(model.requests.get(0)).toString());
    assertEquals(List.of("fetch_rate => USD=0.92"), toolResults(model.requests.get(1)));
    assertEquals(1, step.toolCalls());
    assertEquals("USD=0.92", step.toolOutcomes().get(0).output());
    assertEquals(List.of("move_one_step"), step.actions().stream().map(WorldAction::tool).toList());
    assertEquals(4, scheduledTools(client, "sim-rates/agent-citizen-2/step-1").get("fetch_rate")
        .getRetryPolicy().getMaximumAttempts(), "the agent step runs the tool with its options");

    // The same role in a group step, where several agents share one workflow.
    List<AgentStepResult> group = client.newWorkflowStub(AgentGroupStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-rates/step-1/group-1")
            .build()).steps(new AgentGroupStepInput(List.of(citizenWithRates("sim-rates"))));
    assertEquals("GBP=0.92", group.get(0).toolOutcomes().get(0).output());
    assertEquals(4, scheduledTools(client, "sim-rates/step-1/group-1").get("fetch_rate")
        .getRetryPolicy().getMaximumAttempts(), "the group step runs the tool with its options");
    assertTrue(rates.attempts.contains("3 sim-rates/step-1/group-1/agent-citizen-2/1/call_1"),
        rates.attempts.toString());
  }

  @Test
  void aToolCanBeCalledOutsideTemporalWithAContextOfItsOwn() {
    ToolCallContext context = ToolCallContext.of("fetch_rate", "test/1/c1");
    context.heartbeat("ignored outside an activity");
    assertEquals(1, context.attempt());
    assertEquals("test/1/c1", context.idempotencyKey());
    assertTrue(context.lastHeartbeatDetails(String.class).isEmpty());
    Rates direct = new Rates();
    assertThrows(RateServiceDown.class, () -> direct.fetchRate("EUR", context));
    assertThrows(RateServiceDown.class, () -> direct.fetchRate("EUR", context));
    assertEquals("EUR=0.92", direct.fetchRate("EUR", context));
    assertInstanceOf(AccountClosed.class, assertThrows(AccountProblem.class, () -> new Accounts().close("9")));
  }

  // ---------------------------------------------------------------- a scenario whose role has the tool

  /** Traders who look up the rate (an external tool) before they trade (a world action). */
  public record TradeParameters(@Param(value = "how many traders", min = 1, max = 10) int traders) {}

  public record TradeSnapshot(Map<String, Integer> trades) {}

  static final class TradeWorld implements ScenarioWorld {
    final Map<String, Integer> trades;

    TradeWorld(Map<String, Integer> trades) {
      this.trades = new LinkedHashMap<>(trades);
    }

    @Override public List<String> agentIds() { return List.copyOf(trades.keySet()); }
    @Override public String roleOf(String id) { return "trader"; }
    @Override public boolean canAct(String id) { return true; }
    @Override public Observation observe(String id, int step) {
      return new Observation(step, Map.of("id", id, "trades", trades.get(id)), Map.of());
    }
    @Override public List<String> toolsOf(String role) { return List.of("fetch_rate", "trade"); }
    @Override public List<String> worldActions() { return List.of("trade"); }
    @Override public String apply(WorldAction action, SeededRandom random) {
      trades.merge(action.agentId(), 1, Integer::sum);
      return "trade: done at " + action.arguments().path("rate").asText();
    }
    @Override public void endStep(int step, SeededRandom random) {}
    @Override public Map<String, Number> counts() {
      return Map.of("trades", trades.values().stream().mapToInt(Integer::intValue).sum());
    }
    @Override public Object snapshot() { return new TradeSnapshot(trades); }
  }

  public static class Trade implements Scenario<TradeParameters> {
    @Override public String name() { return "trade"; }
    @Override public List<String> roles() { return List.of("trader"); }
    @Override public Class<TradeParameters> parametersType() { return TradeParameters.class; }
    @Override public TradeParameters defaults() { return new TradeParameters(2); }
    @Override public ScenarioWorld create(TradeParameters p, SeededRandom random) {
      Map<String, Integer> trades = new LinkedHashMap<>();
      for (int i = 0; i < p.traders(); i++) {
        trades.put("trader-" + i, 0);
      }
      return new TradeWorld(trades);
    }
    @Override public ScenarioWorld restore(JsonNode snapshot) {
      return new TradeWorld(Json.MAPPER.convertValue(snapshot, TradeSnapshot.class).trades());
    }
    @Override public String roleDescription(String role) { return "You trade dollars."; }
    @Override public String stepPrompt(String role) { return "Look up the rate, then trade."; }
  }

  public static final class TradeActions {
    @Tool(name = "trade", value = "Trades at a rate.")
    public String trade(@P(name = "rate", value = "the rate") String rate) {
      return "requested";
    }
  }

  @Test
  void aSimulationRunsARegisteredToolThatAScenarioRoleNames() {
    AutonomousAgentWorkerTest.FunctionModel traders = new AutonomousAgentWorkerTest.FunctionModel(0, request -> {
      List<String> results = toolResults(request);
      return results.isEmpty() ? AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}"))
          : AiMessage.from(call("call_2", "trade", "{\"rate\":\"" + results.get(0).replace("fetch_rate => ", "")
              + "\"}"));
    });
    env = TestWorkers.start(Builtins.plugin().registerModel("traders", traders)
        .registerScenario(new Trade(), new TradeActions()).registerTool(rates).build());

    SimulationResult result = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-trade").build())
        .run(SimulationInput.of("trade", 1, 3).withAgentOptions(
            AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("traders").build()));

    assertEquals(2, result.finalCounts().get("trades").intValue(), "every trader traded after its lookup");
    assertEquals(2, result.toolCalls());
    List<String> done = rates.attempts.stream().filter(a -> a.startsWith("3 ")).sorted().toList();
    assertEquals(List.of("3 sim-trade/agent-trader-0/step-1/1/call_1", "3 sim-trade/agent-trader-1/step-1/1/call_1"), done,
        "each trader's call retried to its third attempt, keyed by its own step workflow: " + rates.attempts);
    assertEquals(4, scheduledTools(env.getWorkflowClient(), "sim-trade/agent-trader-0/step-1").get("fetch_rate")
        .getRetryPolicy().getMaximumAttempts());
  }
}

