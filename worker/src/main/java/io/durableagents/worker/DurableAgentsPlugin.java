package io.durableagents.worker;

import dev.langchain4j.model.chat.ChatModel;
import io.durableagents.activities.llm.ChatModelProvider;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.payload.PayloadGuard;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.activities.llm.LlmCallRateLimiter;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.rules.RulePolicy;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.scenario.BuiltinScenarioRegistrations;
import io.durableagents.activities.scenario.ScenarioRegistration;
import io.durableagents.activities.tools.CalculatorTool;
import io.durableagents.activities.tools.FileReaderTool;
import io.durableagents.activities.tools.FinishTool;
import io.durableagents.activities.tools.SpawnTools;
import io.durableagents.activities.tools.ThinkTool;
import io.durableagents.activities.tools.TodoTools;
import io.durableagents.activities.checkpoint.CheckpointActivitiesImpl;
import io.durableagents.activities.checkpoint.CheckpointStore;
import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolOptions;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpServerConfigs;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.LlmActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.worker.WorkflowImplementationOptions;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentGroupStepWorkflowImpl;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflowImpl;
import io.durableagents.workflows.scenario.Scenario;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.durableagents.workflows.tools.ToolPolicies;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.worker.tracing.AgentTracing;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.SimplePlugin;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.GlobalDataConverter;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Durable Agents as a Temporal worker plugin: add it to a client and every worker factory made from
 * that client runs our workflows and activities, on our two task queues ({@link TaskQueues#AGENTS}
 * for workflows and tools, {@link TaskQueues#LLM} for model calls). The workers for those queues are
 * created when the factory starts, unless the application created them already.
 *
 * <p>Register your own scenarios, tools and models on the builder; the calls compose in any order,
 * and a duplicate name fails at once:
 *
 * <pre>{@code
 * DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
 *     .configureFromEnvironment(System.getenv())
 *     .registerScenario(new WealthScenario(), new WealthActions(), new WealthRulePolicy())
 *     .registerTool(new WeatherTool())
 *     .registerModel("my-model", myChatModel)
 *     .build();
 * WorkflowClient client = WorkflowClient.newInstance(service,
 *     WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
 * WorkerFactory.newInstance(client).start();
 * }</pre>
 *
 * <p>The built-in scenarios ({@code epstein}, {@code negotiation}) are registered the same way, first.
 *
 * <p>On JVM 21 and later, workflow threads and activity threads are virtual threads.
 */
public final class DurableAgentsPlugin extends SimplePlugin {
  /**
   * How long workflow code may run without yielding before the SDK calls it a potential deadlock
   * (the SDK's default is 1 s): 20 s, under the workflow task timeout of a 10,000-agent simulation
   * (24 s, {@code SimulationTaskTimeout}).
   */
  public static final long DEADLOCK_DETECTION_TIMEOUT_MS = 20_000;

  /** The plugin's name. */
  public static final String NAME = "io.durableagents";

  /** Whether this JVM can run virtual threads (21+); below it the SDK's options throw. */
  static final boolean VIRTUAL_THREADS_AVAILABLE = Runtime.version().feature() >= 21;

  private final LlmActivitiesImpl llmActivities;
  private final ToolActivitiesImpl toolActivities;
  private final CheckpointActivitiesImpl checkpointActivities;
  private final boolean stickyExecution;
  private final boolean eagerLlmCalls;
  /** Activities one workflow task may take back eagerly with eager LLM calls: a group step's agents. */
  static final int EAGER_CALLS_PER_WORKFLOW_TASK = 100;
  private final Double llmCallsPerSecond;
  private final int llmConcurrency;
  private final int workflowCacheSize;
  private final int workflowThreads;
  private final int pollers;
  private final int workflowTaskSlots;
  private final boolean virtualThreads;
  private final List<WorkerInterceptor> interceptors;
  private final PayloadCodec payloadCodec;
  private final ScenarioRegistry scenarios;
  private final ToolRegistry tools;
  private final McpToolSet mcpTools;
  private final AgentTracing tracing;

  private DurableAgentsPlugin(Builder b) {
    super(NAME);
    this.scenarios = b.scenarios();
    // The tool lists of MCP servers are read once, here, when the worker is built.
    this.mcpTools = McpToolSet.connect(List.copyOf(b.mcpServers.values()));
    try {
      this.tools = b.toolRegistry(mcpTools);
      checkRoleTools(b.scenarios.values(), tools);
    } catch (RuntimeException e) {
      mcpTools.close();
      throw e;
    }
    ChatModelProvider.Builder models = ChatModelProvider.newBuilder().settings(b.llmSettings);
    if (!b.models.containsKey(RulesChatModel.MODEL_NAME)) {
      models.register(RulesChatModel.MODEL_NAME,
          new RulesChatModel(BuiltinScenarioRegistrations.policies(List.copyOf(b.scenarios.values())))
              .withDelay(b.rulesDelayMillis));
    }
    b.models.forEach(models::register);
    AgentMetrics metrics = new AgentMetrics(b.meterRegistry);
    this.llmActivities = new LlmActivitiesImpl(models.build(), tools, metrics, b.payloadGuard,
        LlmCallRateLimiter.perSecond(b.llmCallsPerSecond));
    this.toolActivities = new ToolActivitiesImpl(tools, metrics, b.payloadGuard);
    this.checkpointActivities = new CheckpointActivitiesImpl(b.checkpointStore);
    this.stickyExecution = b.stickyExecution;
    if (Boolean.TRUE.equals(b.eagerLlmCalls) && b.llmCallsPerSecond != null) {
      throw new IllegalArgumentException(WorkerSettings.EAGER_LLM_CALLS + "=true and "
          + WorkerSettings.LLM_RATE_LIMIT + " together: a rate across workers holds only on the LLM task queue, "
          + "which eager LLM calls leave; set one of them");
    }
    // Unset: eager unless a rate limit keeps the calls on their own queue.
    this.eagerLlmCalls = b.eagerLlmCalls != null ? b.eagerLlmCalls : b.llmCallsPerSecond == null;
    this.llmCallsPerSecond = b.llmCallsPerSecond;
    this.llmConcurrency = b.llmConcurrency;
    this.workflowCacheSize = b.workflowCacheSize;
    this.workflowThreads = b.workflowThreads;
    this.pollers = b.pollers;
    this.workflowTaskSlots = b.workflowTaskSlots;
    this.virtualThreads = b.virtualThreads && VIRTUAL_THREADS_AVAILABLE;
    this.tracing = b.tracing;
    List<WorkerInterceptor> all = new ArrayList<>(b.interceptors);
    if (tracing != null) {
      all.add(tracing.workerInterceptor());
    }
    this.interceptors = List.copyOf(all);
    this.payloadCodec = b.payloadCodec;
  }

  /**
   * Checks that every tool each role of each scenario is offered ({@code ScenarioWorld.toolsOf}, read
   * from a world made from the scenario's defaults) is one the workers will have: one of the scenario's
   * own world actions, or an external tool (built in, registered with {@link Builder#registerTool}, or an
   * MCP server's, listed by now). Without it every step of such a role would fail at run time.
   *
   * @throws IllegalArgumentException naming the scenario, the role, the tool and what is registered
   */
  static void checkRoleTools(java.util.Collection<ScenarioRegistration> registrations, ToolRegistry tools) {
    List<String> external = tools.externalToolNames();
    for (ScenarioRegistration r : registrations) {
      Scenario<?> scenario = r.scenario();
      io.durableagents.workflows.simulation.ScenarioWorld world;
      try {
        world = defaultWorld(scenario);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("scenario '" + scenario.name()
            + "': no world can be made from its defaults to check its roles' tools: " + e, e);
      }
      List<String> actions = r.actionNames();
      for (String role : scenario.roles()) {
        List<String> offered = world.toolsOf(role);
        if (offered == null) {
          continue;
        }
        for (String tool : offered) {
          if (!actions.contains(tool) && !external.contains(tool)) {
            throw new IllegalArgumentException("scenario '" + scenario.name() + "', role '" + role
                + "': its tools name '" + tool + "', which is not registered (its world actions: "
                + String.join(", ", actions)
                + "; external tools: " + String.join(", ", external) + "). Register it with registerTool, "
                + "or name the MCP server that has it (registerMcpServer, " + WorkerSettings.MCP_SERVERS
                + "), or remove it from toolsOf(\"" + role + "\")");
          }
        }
      }
    }
  }

  private static <P extends Record> io.durableagents.workflows.simulation.ScenarioWorld defaultWorld(
      Scenario<P> scenario) {
    return scenario.create(scenario.defaults(), new io.durableagents.workflows.simulation.SeededRandom(0));
  }

  /**
   * A plugin configured from the environment: model settings ({@code OPENAI_API_KEY}, ...) and
   * worker settings ({@code DURABLE_AGENTS_*}).
   *
   * @throws IllegalArgumentException naming a setting whose value is not allowed
   */
  public static DurableAgentsPlugin fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * As {@link #fromEnvironment()}, from the given variables. With {@code DURABLE_AGENTS_STICKY=auto}
   * sticky execution stays on; {@link WorkerMain} turns it off when it finds Temporal's test server.
   */
  public static DurableAgentsPlugin fromEnvironment(Map<String, String> env) {
    return newBuilder().configureFromEnvironment(env).build();
  }

  /** A builder with the built-in scenarios, tools and the {@code rules} model, and every default. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** The scenarios this plugin's workers run, by name. */
  public ScenarioRegistry scenarios() {
    return scenarios;
  }

  /** Every tool this plugin's workers know: world actions, external tools and control tools. */
  public ToolRegistry tools() {
    return tools;
  }

  /**
   * The platform workflow threads a worker with this plugin may run (below Java 21, or with virtual
   * threads off): the threads setting, never below the cache size.
   */
  public int workflowThreads() {
    return Math.max(workflowCacheSize, workflowThreads);
  }

  /**
   * The connected MCP servers and their tools ({@link Builder#registerMcpServer}): what the worker's
   * {@code /health} asks about ({@link McpToolSet#problems()}).
   */
  public McpToolSet mcpTools() {
    return mcpTools;
  }

  /** Stops the clients of the MCP servers, and the processes of stdio ones; call it when the worker stops. */
  public void closeMcpServers() {
    mcpTools.close();
  }

  /** The tracing this plugin's workers do, if configured; close it when the workers stop. */
  public Optional<AgentTracing> tracing() {
    return Optional.ofNullable(tracing);
  }

  @Override
  public void configureWorkflowClient(WorkflowClientOptions.Builder builder) {
    super.configureWorkflowClient(builder);
    if (tracing != null) {
      io.temporal.common.interceptors.WorkflowClientInterceptor[] existing = builder.build().getInterceptors();
      List<io.temporal.common.interceptors.WorkflowClientInterceptor> all = new ArrayList<>();
      if (existing != null) {
        all.addAll(Arrays.asList(existing));
      }
      all.add(tracing.clientInterceptor());
      builder.setInterceptors(all.toArray(new io.temporal.common.interceptors.WorkflowClientInterceptor[0]));
    }
    if (payloadCodec != null) {
      // wrap, don't replace: a converter (and codecs) the application already set keep working
      // (an unset converter is the SDK's default only once the client is built: wrap that one)
      builder.setDataConverter(new CodecDataConverter(
          java.util.Objects.requireNonNullElseGet(builder.build().getDataConverter(), GlobalDataConverter::get),
          List.of(payloadCodec)));
    }
  }

  @Override
  public void configureWorkerFactory(WorkerFactoryOptions.Builder builder) {
    super.configureWorkerFactory(builder);
    if (!interceptors.isEmpty()) {
      WorkerInterceptor[] existing = builder.build().getWorkerInterceptors();
      List<WorkerInterceptor> all = new ArrayList<>();
      if (existing != null) {
        all.addAll(Arrays.asList(existing));
      }
      all.addAll(interceptors);
      builder.setWorkerInterceptors(all.toArray(new WorkerInterceptor[0]));
    }
    // Every agent step of a simulation step is a workflow running at once: keep them all cached
    // (a workflow evicted from the cache replays its whole history at its next task). A group step
    // of ReAct or ReWOO agents holds a thread per agent (chain-of-thought agents share their group's
    // one): when the threads run out, the SDK evicts cached workflows to free some.
    builder.setWorkflowCacheSize(workflowCacheSize);
    builder.setMaxWorkflowThreadCount(Math.max(workflowThreads(),
        builder.build().getMaxWorkflowThreadCount()));
    if (virtualThreads) {
      builder.setUsingVirtualWorkflowThreads(true);
    }
  }

  @Override
  public void configureWorker(String taskQueue, WorkerOptions.Builder builder) {
    if (!isOurs(taskQueue)) {
      return;
    }
    if (!stickyExecution) {
      // The embedded test server never times out a sticky queue: without this a workflow whose
      // worker died would wait for it forever.
      builder.setStickyQueueScheduleToStartTimeout(Duration.ZERO);
    }
    if (TaskQueues.LLM.equals(taskQueue) && llmCallsPerSecond != null) {
      // The task queue's rate holds across workers on a real server; Temporal's test server (the
      // embedded default) ignores it. The worker's own rate holds everywhere, per worker process.
      builder.setMaxTaskQueueActivitiesPerSecond(llmCallsPerSecond);
      builder.setMaxWorkerActivitiesPerSecond(llmCallsPerSecond);
    }
    if (TaskQueues.LLM.equals(taskQueue) || eagerLlmCalls) {
      // A model call mostly waits on the network: many run at once (the SDK's default is 200). With
      // eager LLM calls the workflows' queue runs them, and eager dispatch needs a free slot there.
      builder.setMaxConcurrentActivityExecutionSize(llmConcurrency);
      // Heartbeats go out at least this often, well inside the calls' heartbeat timeout even on a
      // loaded worker (the SDK's default, 0.8 x the timeout, leaves a fifth of it).
      builder.setMaxHeartbeatThrottleInterval(io.durableagents.workflows.llm.LlmCallOptions.HEARTBEAT_THROTTLE);
    }
    if (eagerLlmCalls && TaskQueues.AGENTS.equals(taskQueue)) {
      // A group step schedules the first call of each of its agents in one workflow task: the SDK asks
      // for at most 3 of them eagerly unless told more.
      builder.setMaxEagerActivityReservationsPerWorkflowTask(EAGER_CALLS_PER_WORKFLOW_TASK);
    }
    if (!TaskQueues.LLM.equals(taskQueue)) {
      builder.setMaxConcurrentWorkflowTaskPollers(pollers);
      // A simulation step of thousands of agents builds their observations and writes their inputs
      // in one workflow task, and a fresh worker loads classes and warms Jackson in its first tasks:
      // on a busy machine either can pass the SDK's 1 s without yielding, which fails the task as a
      // "potential deadlock" (TMPRL1101) and retries it, for ever when the task is that large (a
      // 10,000-agent step, or the replay of its run on a worker that did not have it cached, took
      // over 5 s on 2 busy cores). The simulation's own workflow task timeout grows with its agents.
      builder.setDefaultDeadlockDetectionTimeout(DEADLOCK_DETECTION_TIMEOUT_MS);
      builder.setMaxConcurrentWorkflowTaskExecutionSize(workflowTaskSlots);
    }
    // With eager LLM calls the workflows' queue takes the calls the LLM queue's pollers took: as many
    // pollers again for them where the server does not hand them back eagerly (the in-memory one).
    builder.setMaxConcurrentActivityTaskPollers(
        eagerLlmCalls && TaskQueues.AGENTS.equals(taskQueue) ? 2 * pollers : pollers);
    if (virtualThreads) {
      builder.setUsingVirtualThreads(true);
    }
  }

  @Override
  public void initializeWorker(String taskQueue, Worker worker) {
    if (TaskQueues.AGENTS.equals(taskQueue)) {
      // The registries reach the workflows through their factories, never a static: two plugins in
      // one JVM can run different scenarios, and give one tool different options.
      ToolPolicies toolPolicies = tools.policies();
      WorkflowImplementationOptions options = workflowImplementationOptions(eagerLlmCalls);
      worker.registerWorkflowImplementationFactory(
          SimulationWorkflow.class, () -> new SimulationWorkflowImpl(scenarios), options);
      worker.registerWorkflowImplementationFactory(
          AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(scenarios, toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AgentGroupStepWorkflow.class, () -> new AgentGroupStepWorkflowImpl(scenarios, toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AgentTaskWorkflow.class, () -> new AgentTaskWorkflowImpl(toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AutonomousAgentWorkflow.class, () -> new AutonomousAgentWorkflowImpl(toolPolicies), options);
      worker.registerActivitiesImplementations(toolActivities, checkpointActivities);
      if (eagerLlmCalls) {
        worker.registerActivitiesImplementations(llmActivities);
      }
    } else if (TaskQueues.LLM.equals(taskQueue)) {
      worker.registerActivitiesImplementations(llmActivities);
    }
  }

  @Override
  public void startWorkerFactory(WorkerFactory factory, Consumer<WorkerFactory> next) {
    for (String queue : List.of(TaskQueues.AGENTS, TaskQueues.LLM)) {
      if (factory.tryGetWorker(queue) == null) {
        factory.newWorker(queue);
      }
    }
    super.startWorkerFactory(factory, next);
  }

  /**
   * The options our workflows are registered with: with eager LLM calls, every {@code LlmChat} activity
   * scheduled on the workflows' own task queue ({@link TaskQueues#AGENTS}) instead of {@link TaskQueues#LLM}
   * (the SDK merges these per-activity-type options over those the workflow code gives its stub). Replay
   * compares only an activity's id and type, never its task queue, so histories recorded either way
   * replay on a worker set either way.
   */
  static WorkflowImplementationOptions workflowImplementationOptions(boolean eagerLlmCalls) {
    if (!eagerLlmCalls) {
      return WorkflowImplementationOptions.getDefaultInstance();
    }
    return WorkflowImplementationOptions.newBuilder()
        .setActivityOptions(Map.of(LlmActivities.CHAT_ACTIVITY_TYPE,
            ActivityOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()))
        .build();
  }

  private static boolean isOurs(String taskQueue) {
    return TaskQueues.AGENTS.equals(taskQueue) || TaskQueues.LLM.equals(taskQueue);
  }

  /** Builds a {@link DurableAgentsPlugin}; every setting has a default. */
  public static final class Builder {
    private LlmSettings llmSettings = LlmSettings.newBuilder().build();
    private Path filesDirectory = Path.of("files");
    private CheckpointStore checkpointStore = new DirectoryCheckpointStore(Path.of("checkpoints"));
    private final Map<String, ScenarioRegistration> scenarios = new LinkedHashMap<>();
    private final List<UserTool> userTools = new ArrayList<>();
    private final List<ToolRegistry> toolRegistries = new ArrayList<>();
    private final Map<String, McpServerConfig> mcpServers = new LinkedHashMap<>();
    private final Map<String, ChatModel> models = new LinkedHashMap<>();
    private long rulesDelayMillis;
    private boolean stickyExecution = true;
    private Boolean eagerLlmCalls;
    private Double llmCallsPerSecond;
    private final List<WorkerInterceptor> interceptors = new ArrayList<>();
    private MeterRegistry meterRegistry = new CompositeMeterRegistry();
    private PayloadGuard payloadGuard = PayloadGuard.defaults();
    private PayloadCodec payloadCodec;
    private int llmConcurrency = WorkerSettings.DEFAULT_LLM_CONCURRENCY;
    private int workflowCacheSize = WorkerSettings.DEFAULT_WORKFLOW_CACHE;
    private int workflowThreads = WorkerSettings.DEFAULT_WORKFLOW_THREADS;
    private int pollers = WorkerSettings.DEFAULT_POLLERS;
    private int workflowTaskSlots = WorkerSettings.defaultWorkflowTaskSlots();
    private boolean virtualThreads = VIRTUAL_THREADS_AVAILABLE;
    private AgentTracing tracing;

    private Builder() {
      for (ScenarioRegistration builtin : BuiltinScenarioRegistrations.all()) {
        registerScenario(builtin);
      }
      interceptors.add(new AgentLogContext());
    }

    /**
     * Takes every setting from the environment: model settings ({@code OPENAI_API_KEY}, ...) and
     * worker settings ({@code DURABLE_AGENTS_*}).
     *
     * @throws IllegalArgumentException naming a setting whose value is not allowed
     */
    public Builder configureFromEnvironment(Map<String, String> env) {
      WorkerSettings settings = WorkerSettings.fromEnvironment(env);
      setLlmSettings(LlmSettings.fromEnvironment(env));
      setFilesDirectory(settings.filesDirectory());
      setCheckpointStore(DirectoryCheckpointStore.fromEnvironment(env));
      setStickyExecution(settings.sticky() != WorkerSettings.Sticky.OFF);
      this.eagerLlmCalls = WorkerSettings.eagerLlmCalls(env);
      setLlmCallsPerSecond(settings.llmCallsPerSecond());
      setPayloadGuard(settings.payloadGuard());
      setPayloadCodec(AesGcmPayloadCodec.fromEnvironment(env));
      setLlmConcurrency(WorkerSettings.positive(env, WorkerSettings.LLM_CONCURRENCY,
          WorkerSettings.DEFAULT_LLM_CONCURRENCY));
      setWorkflowCacheSize(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_CACHE,
          WorkerSettings.DEFAULT_WORKFLOW_CACHE));
      setWorkflowThreads(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_THREADS,
          WorkerSettings.DEFAULT_WORKFLOW_THREADS));
      setVirtualThreads(WorkerSettings.virtualThreads(env, VIRTUAL_THREADS_AVAILABLE));
      setPollers(WorkerSettings.positive(env, WorkerSettings.POLLERS, WorkerSettings.DEFAULT_POLLERS));
      setWorkflowTaskSlots(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_TASK_SLOTS,
          WorkerSettings.defaultWorkflowTaskSlots()));
      String delay = env.get(WorkerSettings.RULES_DELAY_MS);
      if (delay != null && !delay.isBlank()) {
        long millis;
        try {
          millis = Long.parseLong(delay.trim());
        } catch (NumberFormatException e) {
          millis = -1;
        }
        if (millis < 0) {
          throw new IllegalArgumentException(WorkerSettings.RULES_DELAY_MS + " '" + delay
              + "' is not allowed: milliseconds, 0 or more");
        }
        this.rulesDelayMillis = millis;
      }
      if (settings.executionJournal() != null) {
        addWorkerInterceptors(new ExecutionJournal(settings.executionJournal()));
      }
      String mcpFiles = env.get(WorkerSettings.MCP_SERVERS);
      if (mcpFiles != null && !mcpFiles.isBlank()) {
        // One file, or several separated as in a PATH (agent run adds its spec's servers so).
        for (String file : mcpFiles.strip().split(java.io.File.pathSeparator)) {
          if (file.isBlank()) {
            continue;
          }
          try {
            McpServerConfigs.load(Path.of(file.strip()), env).forEach(this::registerMcpServer);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(WorkerSettings.MCP_SERVERS + "=" + file.strip() + ": "
                + e.getMessage(), e);
          }
        }
      }
      AgentTracing.fromEnvironment(env).ifPresent(this::setTracing);
      return this;
    }

    /**
     * Offers the tools of an MCP server to this plugin's agents: when the plugin is built, the worker
     * connects to it (starting a stdio server's process), reads its tool list and registers each tool
     * as an external tool named {@code <server>_<tool>} (its {@link McpServerConfig#toolPrefix()}),
     * whose calls are activities shown as {@code tool: mcp <server>/<tool>}.
     *
     * <pre>{@code
     * builder.registerMcpServer(McpServerConfig.newBuilder("fs")
     *     .setCommand(List.of("npx", "-y", "@modelcontextprotocol/server-filesystem", "/data")).build());
     * }</pre>
     *
     * <p>{@link #build()} then fails with a {@link
     * io.durableagents.activities.tools.mcp.McpServerUnavailableException} naming a server that cannot
     * be reached, and with an {@link IllegalArgumentException} naming both tools when a name is taken.
     *
     * @throws IllegalArgumentException when a server of that name is registered already
     */
    public Builder registerMcpServer(McpServerConfig server) {
      if (server == null) {
        throw new IllegalArgumentException("registerMcpServer: a server configuration is required");
      }
      if (mcpServers.containsKey(server.name())) {
        throw new IllegalArgumentException("registerMcpServer: two MCP servers are named '" + server.name()
            + "': " + mcpServers.get(server.name()).describe() + " and " + server.describe());
      }
      mcpServers.put(server.name(), server);
      return this;
    }

    /** The MCP servers registered so far, by name, in registration order. */
    public Map<String, McpServerConfig> mcpServers() {
      return java.util.Collections.unmodifiableMap(mcpServers);
    }

    /** Provider settings: keys, base URLs, time-outs. */
    public Builder setLlmSettings(LlmSettings llmSettings) {
      this.llmSettings = llmSettings;
      return this;
    }

    /**
     * Adds every tool of {@code tools} (world actions, external and control tools, with their kinds) to
     * those the plugin has: the built-in ones, the registered scenarios' actions and tools registered
     * with {@link #registerTool}. A name registered twice for different methods fails at {@link #build()}.
     */
    public Builder setTools(ToolRegistry tools) {
      toolRegistries.add(tools);
      return this;
    }

    /**
     * Registers a scenario: the deterministic {@link Scenario} (world, parameters, prompts) and the
     * object whose LangChain4j {@code @Tool} methods declare its world actions to models. Without a
     * rule policy the offline {@code rules} model says, in the run's result, that it has none.
     *
     * @throws IllegalArgumentException when a scenario of that name is registered already, or the
     *     scenario or its actions are not valid (the message names them)
     */
    public Builder registerScenario(Scenario<?> scenario, Object actions) {
      return registerScenario(scenario, actions, null);
    }

    /**
     * Registers a scenario with its rule policy, which the offline {@code rules} model plays for it (so
     * it runs with no LLM, in every strategy).
     *
     * @throws IllegalArgumentException when a scenario of that name is registered already, or the
     *     scenario or its actions are not valid (the message names them)
     */
    public Builder registerScenario(Scenario<?> scenario, Object actions, RulePolicy rulePolicy) {
      return registerScenario(new ScenarioRegistration(scenario, actions, rulePolicy));
    }

    /** Registers a scenario given as a {@link ScenarioRegistration}. */
    public Builder registerScenario(ScenarioRegistration registration) {
      String name = registration.scenario().name();
      ScenarioRegistration before = scenarios.get(name);
      if (before != null) {
        throw new IllegalArgumentException("registerScenario: a scenario named '" + name
            + "' is registered already (" + before.scenario().getClass().getName() + "); "
            + registration.scenario().getClass().getName() + " takes the same name");
      }
      scenarios.put(name, registration);
      return this;
    }

    /**
     * Registers external tools: every LangChain4j {@code @Tool} method of each object becomes a tool
     * that agents can be given by name (an {@code agent} task's tools, a spec's {@code tools}, a
     * scenario role's tools). Each call runs as an activity ({@code tool: <name>} in the Temporal UI),
     * with the default options or those of the method's {@link io.durableagents.activities.tools.DurableTool}
     * annotation. A method that declares a {@link io.durableagents.activities.tools.ToolCallContext}
     * parameter gets the call's idempotency key ({@code <workflow>/<step>/<call id>}, equal across
     * retries), its attempt and heartbeats.
     *
     * <pre>{@code
     * public class Weather {
     *   @Tool(name = "forecast", value = "The forecast for a city.")
     *   @DurableTool(startToClose = "PT30S", maximumAttempts = 5, nonRetryable = UnknownCityException.class)
     *   public String forecast(@P("the city") String city, ToolCallContext call) { ... }
     * }
     * DurableAgentsPlugin.newBuilder().registerTool(new Weather()).build();
     * }</pre>
     *
     * @throws IllegalArgumentException naming the tool, when its name is taken (by a built-in tool, a
     *     world action or another registered tool), a parameter has no name (compiled without {@code
     *     -parameters} and no {@code @P(name = ...)}), an annotation's value is not allowed, or an
     *     object has no {@code @Tool} method
     */
    public Builder registerTool(Object... tools) {
      for (Object tool : tools) {
        registerTool(tool, ToolOptions.defaults());
      }
      return this;
    }

    /**
     * Registers the {@code @Tool} methods of {@code tool} as external tools whose calls run with {@code
     * options} (timeouts, retries, non-retryable exceptions); a method's {@link
     * io.durableagents.activities.tools.DurableTool} annotation sets its own over them.
     *
     * <pre>{@code
     * builder.registerTool(new BankTools(), ToolOptions.newBuilder()
     *     .setStartToCloseTimeout(Duration.ofMinutes(2)).setMaximumAttempts(5)
     *     .addNonRetryable(AccountClosedException.class).build());
     * }</pre>
     *
     * @throws IllegalArgumentException as {@link #registerTool(Object...)}
     */
    public Builder registerTool(Object tool, ToolOptions options) {
      if (tool == null || options == null) {
        throw new IllegalArgumentException("registerTool: a tool object and its options are required");
      }
      userTools.add(new UserTool(tool, options));
      try {
        // Check now, so that the failure points at this call: names, parameters, options.
        toolRegistry();
      } catch (IllegalArgumentException e) {
        userTools.remove(userTools.size() - 1);
        throw new IllegalArgumentException("registerTool: " + e.getMessage(), e);
      }
      return this;
    }

    /** A tool object registered with {@link #registerTool}, and the options of its calls. */
    private record UserTool(Object tool, ToolOptions options) {}

    /**
     * The names of the external tools the plugin will have, in registration order: the built-in ones
     * ({@code calculator}, {@code read_file}) and those registered so far. What a command line checks
     * an {@code agent} task's tools and a spec's {@code tools} against (with {@code
     * RegisteredNames}), as {@link #modelNames()} is for models.
     */
    public List<String> externalToolNames() {
      return toolRegistry().externalToolNames();
    }

    /**
     * Where simulation checkpoints go (default: the directory {@code checkpoints}, or
     * {@code DURABLE_AGENTS_CHECKPOINT_DIR}); your own store for object storage or a database.
     */
    public Builder setCheckpointStore(CheckpointStore store) {
      this.checkpointStore = java.util.Objects.requireNonNull(store, "store");
      return this;
    }

    /** The only directory the built-in {@code read_file} tool may read (default {@code files}). */
    public Builder setFilesDirectory(Path filesDirectory) {
      this.filesDirectory = filesDirectory;
      return this;
    }

    /**
     * Makes a named model (any LangChain4j {@link ChatModel} of your own) available as a model
     * reference: agents, roles and specs name it as they name {@code openai:gpt-4o-mini}. Registering
     * {@code rules} replaces the offline rules model.
     */
    public Builder registerModel(String name, ChatModel model) {
      if (name == null || name.isBlank() || model == null) {
        throw new IllegalArgumentException("registerModel: a name and a model are required");
      }
      if (models.containsKey(name)) {
        throw new IllegalArgumentException("registerModel: a model named '" + name
            + "' is registered already (" + models.get(name).getClass().getName() + ")");
      }
      models.put(name, model);
      return this;
    }

    /**
     * Applies every {@link DurableAgentsExtension} listed in {@code META-INF/services} on the
     * classpath, as the command line does: a project's jar brings its scenarios, tools and models.
     */
    public Builder configureFromClasspath() {
      return configureFromClasspath(Thread.currentThread().getContextClassLoader());
    }

    /** As {@link #configureFromClasspath()}, with the extensions {@code loader} finds. */
    public Builder configureFromClasspath(ClassLoader loader) {
      for (DurableAgentsExtension extension : ServiceLoader.load(DurableAgentsExtension.class, loader)) {
        extension.configure(this);
      }
      return this;
    }

    /** The scenarios registered so far, by name (the built-in ones first). */
    public ScenarioRegistry scenarios() {
      List<Scenario<?>> all = new ArrayList<>();
      scenarios.values().forEach(r -> all.add(r.scenario()));
      return ScenarioRegistry.of(all);
    }

    /** The names of the models registered so far with {@link #registerModel} (and {@code rules}). */
    public Set<String> modelNames() {
      Set<String> names = new java.util.LinkedHashSet<>();
      names.add(RulesChatModel.MODEL_NAME);
      names.addAll(models.keySet());
      return names;
    }

    /**
     * Every tool the plugin will have: the registered scenarios' world actions, the built-in external
     * tools ({@code calculator}, {@code read_file}), the registered tools and the control tools.
     *
     * @throws IllegalArgumentException naming a tool registered twice
     */
    ToolRegistry toolRegistry() {
      return toolRegistry(McpToolSet.empty());
    }

    /** As {@link #toolRegistry()}, with the tools of the connected MCP servers after the registered ones. */
    ToolRegistry toolRegistry(McpToolSet mcp) {
      ToolRegistry.Builder tools = ToolRegistry.newBuilder();
      for (ScenarioRegistration r : scenarios.values()) {
        tools.addWorldActions(r.actions());
      }
      tools.addExternalTools(new CalculatorTool(), new FileReaderTool(filesDirectory));
      for (UserTool user : userTools) {
        tools.addExternalTool(user.tool(), user.options());
      }
      for (ToolRegistry registry : toolRegistries) {
        tools.addAll(registry);
      }
      mcp.addTo(tools);
      tools.addControlTools(new FinishTool(), new ThinkTool(), new TodoTools(), new SpawnTools());
      return tools.build();
    }

    /** Whether to use sticky execution (turn it off against the embedded test server). */
    public Builder setStickyExecution(boolean stickyExecution) {
      this.stickyExecution = stickyExecution;
      return this;
    }

    /**
     * Whether LLM calls run on the workflows' own task queue, where a real Temporal server with eager
     * activity execution hands them back with the workflow task that scheduled them ({@code false}:
     * their own queue, {@link TaskQueues#LLM}; {@value WorkerSettings#EAGER_LLM_CALLS}). Unset, the
     * default: eager unless {@link #setLlmCallsPerSecond} is set, whose rate across workers holds only
     * on their own queue. {@code true} is refused together with a rate.
     */
    public Builder setEagerLlmCalls(boolean eagerLlmCalls) {
      this.eagerLlmCalls = eagerLlmCalls;
      return this;
    }

    /** Pollers per task queue (default {@value WorkerSettings#DEFAULT_POLLERS}). */
    public Builder setPollers(int pollers) {
      if (pollers < 1) {
        throw new IllegalArgumentException("pollers must be >= 1, was " + pollers);
      }
      this.pollers = pollers;
      return this;
    }

    /**
     * How many workflow tasks one worker runs at once (default {@link
     * WorkerSettings#defaultWorkflowTaskSlots()}; {@value WorkerSettings#WORKFLOW_TASK_SLOTS}).
     */
    public Builder setWorkflowTaskSlots(int slots) {
      if (slots < 1) {
        throw new IllegalArgumentException(WorkerSettings.WORKFLOW_TASK_SLOTS + " must be >= 1, was " + slots);
      }
      this.workflowTaskSlots = slots;
      return this;
    }

    /** How many LLM calls one worker runs at once (default {@value WorkerSettings#DEFAULT_LLM_CONCURRENCY}). */
    public Builder setLlmConcurrency(int llmConcurrency) {
      this.llmConcurrency = llmConcurrency;
      return this;
    }

    /** How many workflows one worker keeps cached (default {@value WorkerSettings#DEFAULT_WORKFLOW_CACHE}). */
    public Builder setWorkflowCacheSize(int workflowCacheSize) {
      this.workflowCacheSize = workflowCacheSize;
      return this;
    }

    /**
     * How many workflow threads one worker may run (default {@value
     * WorkerSettings#DEFAULT_WORKFLOW_THREADS}, and never fewer than the cache size; platform threads,
     * below Java 21): a group step of chain-of-thought agents holds one, a group of ReAct or ReWOO
     * agents one per agent and one more, and when they run out the SDK evicts cached workflows, which
     * then replay their histories.
     */
    public Builder setWorkflowThreads(int workflowThreads) {
      this.workflowThreads = workflowThreads;
      return this;
    }

    /**
     * Whether workflow and activity threads are virtual (default: on JVM 21 and later; ignored below,
     * where the SDK cannot use them).
     */
    public Builder setVirtualThreads(boolean virtualThreads) {
      this.virtualThreads = virtualThreads;
      return this;
    }

    /** A cap on LLM calls per second across every worker of the LLM task queue; null for none. */
    public Builder setLlmCallsPerSecond(Double llmCallsPerSecond) {
      this.llmCallsPerSecond = llmCallsPerSecond;
      return this;
    }

    /**
     * A codec that every payload of clients made with this plugin goes through (e.g. {@link
     * io.durableagents.worker.codec.AesGcmPayloadCodec}), after any converter they already have.
     */
    public Builder setPayloadCodec(PayloadCodec payloadCodec) {
      this.payloadCodec = payloadCodec;
      return this;
    }

    /** The limit on model answers and tool outputs kept in history, and what to do over it. */
    public Builder setPayloadGuard(PayloadGuard payloadGuard) {
      this.payloadGuard = payloadGuard;
      return this;
    }

    /** Where our own metrics (LLM calls, tokens, tool calls) go; by default nowhere. */
    public Builder setMeterRegistry(MeterRegistry meterRegistry) {
      this.meterRegistry = meterRegistry;
      return this;
    }

    /**
     * Traces every simulation, simulation step, agent step, LLM call and tool call into {@code
     * tracing} (see {@link AgentTracing}); {@link #configureFromEnvironment} sets it from the standard
     * {@code OTEL_*} variables when they name an exporter. Null turns tracing off.
     */
    public Builder setTracing(AgentTracing tracing) {
      this.tracing = tracing;
      return this;
    }

    public Builder addWorkerInterceptors(WorkerInterceptor... interceptors) {
      this.interceptors.addAll(Arrays.asList(interceptors));
      return this;
    }

    /**
     * Builds the plugin: connects the MCP servers and reads their tools, then checks every name.
     *
     * @throws IllegalArgumentException naming a tool registered twice, or a scenario's role offered a
     *     tool that is neither one of the scenario's world actions nor a registered or MCP tool (the
     *     message names the scenario, the role and the tool)
     * @throws io.durableagents.activities.tools.mcp.McpServerUnavailableException naming an MCP server
     *     that cannot be reached
     */
    public DurableAgentsPlugin build() {
      return new DurableAgentsPlugin(this);
    }
  }
}
