package io.durableagents.worker;

import dev.langchain4j.model.chat.ChatModel;
import io.durableagents.activities.checkpoint.CheckpointStore;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.activities.scenario.ScenarioRegistration;
import io.durableagents.activities.tools.ToolOptions;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.api.RulePolicy;
import io.durableagents.api.Scenario;
import io.durableagents.worker.tracing.AgentTracing;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.SimplePlugin;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.nio.file.Path;
import java.util.Arrays;
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
 * <p>The built-in scenarios ({@code epstein}, {@code negotiation}) are an extension of the same kind, in
 * {@code durable-agents-scenarios}: {@code .apply(new BuiltinScenarios())} or {@link
 * Builder#configureFromClasspath()}.
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

  private final PluginParts parts;

  private DurableAgentsPlugin(Builder b) {
    super(NAME);
    this.parts = PluginParts.of(b.settings);
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

  /** A builder with no scenario, the built-in tools and the {@code rules} model, and every default. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** The scenarios this plugin's workers run, by name. */
  public ScenarioRegistry scenarios() {
    return parts.scenarios();
  }

  /** The names of the scenarios this plugin's workers run, in the order they were registered. */
  public List<String> scenarioNames() {
    return List.copyOf(parts.scenarios().names());
  }

  /** Every tool this plugin's workers know: world actions, external tools and control tools. */
  public ToolRegistry tools() {
    return parts.tools();
  }

  /** Platform workflow threads a worker may run without virtual threads: the setting, at least the cache. */
  public int workflowThreads() {
    return parts.tuning().workflowThreads();
  }

  /**
   * The connected MCP servers and their tools ({@link Builder#registerMcpServer}): what the worker's
   * {@code /health} asks about ({@link McpToolSet#problems()}).
   */
  public McpToolSet mcpTools() {
    return parts.mcpTools();
  }

  /** Stops the clients of the MCP servers, and the processes of stdio ones; call it when the worker stops. */
  public void closeMcpServers() {
    parts.mcpTools().close();
  }

  /** The tracing this plugin's workers do, if configured; close it when the workers stop. */
  public Optional<AgentTracing> tracing() {
    return Optional.ofNullable(parts.tracing());
  }

  @Override
  public void configureWorkflowClient(WorkflowClientOptions.Builder builder) {
    super.configureWorkflowClient(builder);
    parts.interceptors().configureWorkflowClient(builder);
  }

  @Override
  public void configureWorkerFactory(WorkerFactoryOptions.Builder builder) {
    super.configureWorkerFactory(builder);
    parts.interceptors().configureWorkerFactory(builder);
    parts.tuning().configureWorkerFactory(builder);
  }

  @Override
  public void configureWorker(String taskQueue, WorkerOptions.Builder builder) {
    parts.tuning().configureWorker(taskQueue, builder);
  }

  @Override
  public void initializeWorker(String taskQueue, Worker worker) {
    parts.queues().initializeWorker(taskQueue, worker);
  }

  @Override
  public void startWorkerFactory(WorkerFactory factory, Consumer<WorkerFactory> next) {
    TaskQueueRegistrations.createMissingWorkers(factory);
    super.startWorkerFactory(factory, next);
  }

  /** Builds a {@link DurableAgentsPlugin}; every setting has a default. */
  public static final class Builder extends PluginTuning {
    private Builder() {
      super(new PluginSettings());
    }

    /**
     * Takes every setting from the environment: model settings ({@code OPENAI_API_KEY}, ...) and
     * worker settings ({@code DURABLE_AGENTS_*}).
     *
     * @throws IllegalArgumentException naming a setting whose value is not allowed
     */
    public Builder configureFromEnvironment(Map<String, String> env) {
      PluginEnvironment.configure(this, env);
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
      settings.registrations.addMcpServer(server);
      return this;
    }

    /** The MCP servers registered so far, by name, in registration order. */
    public Map<String, McpServerConfig> mcpServers() {
      return settings.registrations.mcpServers();
    }

    /** Provider settings: keys, base URLs, time-outs. */
    public Builder setLlmSettings(LlmSettings llmSettings) {
      settings.llmSettings = llmSettings;
      return this;
    }

    /**
     * Adds every tool of {@code tools} (world actions, external and control tools, with their kinds) to
     * those the plugin has: the built-in ones, the registered scenarios' actions and tools registered
     * with {@link #registerTool}. A name registered twice for different methods fails at {@link #build()}.
     */
    public Builder setTools(ToolRegistry tools) {
      settings.registrations.addTools(tools);
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
      settings.registrations.addScenario(registration);
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
      settings.registrations.addTool(tool, options, settings.filesDirectory);
      return this;
    }

    /**
     * The names of the external tools the plugin will have, in registration order: the built-in ones
     * ({@code calculator}, {@code read_file}) and those registered so far. What a command line checks
     * an {@code agent} task's tools and a spec's {@code tools} against (with {@code
     * RegisteredNames}), as {@link #modelNames()} is for models.
     */
    public List<String> externalToolNames() {
      return settings.registrations.toolRegistry(settings.filesDirectory, McpToolSet.empty()).externalToolNames();
    }

    /**
     * Where simulation checkpoints go (default: the directory {@code checkpoints}, or
     * {@code DURABLE_AGENTS_CHECKPOINT_DIR}); your own store for object storage or a database.
     */
    public Builder setCheckpointStore(CheckpointStore store) {
      settings.checkpointStore = java.util.Objects.requireNonNull(store, "store");
      return this;
    }

    /** The only directory the built-in {@code read_file} tool may read (default {@code files}). */
    public Builder setFilesDirectory(Path filesDirectory) {
      settings.filesDirectory = filesDirectory;
      return this;
    }

    /**
     * Makes a named model (any LangChain4j {@link ChatModel} of your own) available as a model
     * reference: agents, roles and specs name it as they name {@code openai:gpt-4o-mini}. Registering
     * {@code rules} replaces the offline rules model.
     */
    public Builder registerModel(String name, ChatModel model) {
      settings.registrations.addModel(name, model);
      return this;
    }

    /** Applies {@code extension}: registers its scenarios, tools and models on this builder. */
    public Builder apply(DurableAgentsExtension extension) {
      extension.configure(this);
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
      ServiceLoader.load(DurableAgentsExtension.class, loader).forEach(this::apply);
      return this;
    }

    /** The scenarios registered so far, by name, in the order they were registered. */
    public ScenarioRegistry scenarios() {
      return settings.registrations.scenarios();
    }

    /** The names of the models registered so far with {@link #registerModel} (and {@code rules}). */
    public Set<String> modelNames() {
      return settings.registrations.modelNames();
    }

    /**
     * A codec that every payload of clients made with this plugin goes through (e.g. {@link
     * io.durableagents.worker.codec.AesGcmPayloadCodec}), after any converter they already have.
     */
    public Builder setPayloadCodec(PayloadCodec payloadCodec) {
      settings.payloadCodec = payloadCodec;
      return this;
    }

    /** The limit on model answers and tool outputs kept in history, and what to do over it. */
    public Builder setPayloadGuard(PayloadGuard payloadGuard) {
      settings.payloadGuard = payloadGuard;
      return this;
    }

    /** Where our own metrics (LLM calls, tokens, tool calls) go; by default nowhere. */
    public Builder setMeterRegistry(MeterRegistry meterRegistry) {
      settings.meterRegistry = meterRegistry;
      return this;
    }

    /**
     * Traces every simulation, simulation step, agent step, LLM call and tool call into {@code
     * tracing} (see {@link AgentTracing}); {@link #configureFromEnvironment} sets it from the standard
     * {@code OTEL_*} variables when they name an exporter. Null turns tracing off.
     */
    public Builder setTracing(AgentTracing tracing) {
      settings.tracing = tracing;
      return this;
    }

    public Builder addWorkerInterceptors(WorkerInterceptor... interceptors) {
      settings.interceptors.addAll(Arrays.asList(interceptors));
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
