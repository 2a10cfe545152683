package io.durableagents.worker;

import dev.langchain4j.model.chat.ChatModel;
import io.durableagents.activities.llm.ChatModelProvider;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.scenario.ScenarioRegistration;
import io.durableagents.activities.tools.CalculatorTool;
import io.durableagents.activities.tools.FileReaderTool;
import io.durableagents.activities.tools.FinishTool;
import io.durableagents.activities.tools.SpawnTools;
import io.durableagents.activities.tools.ThinkTool;
import io.durableagents.activities.tools.TodoTools;
import io.durableagents.activities.tools.ToolOptions;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.api.Scenario;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a plugin's builder has registered by name: scenarios, tools, MCP servers and models, each name
 * once (a duplicate fails at its registration, naming both), and the tool registry and the models that
 * the workers get from them.
 */
final class PluginRegistrations {
  private final Map<String, ScenarioRegistration> scenarios = new LinkedHashMap<>();
  private final List<UserTool> userTools = new ArrayList<>();
  private final List<ToolRegistry> toolRegistries = new ArrayList<>();
  private final Map<String, McpServerConfig> mcpServers = new LinkedHashMap<>();
  private final Map<String, ChatModel> models = new LinkedHashMap<>();

  /** A tool object registered with {@code registerTool}, and the options of its calls. */
  private record UserTool(Object tool, ToolOptions options) {}

  /** Adds a scenario, unless one of its name is registered already. */
  void addScenario(ScenarioRegistration registration) {
    String name = registration.scenario().name();
    ScenarioRegistration before = scenarios.get(name);
    if (before != null) {
      throw new IllegalArgumentException("registerScenario: a scenario named '" + name
          + "' is registered already (" + before.scenario().getClass().getName() + "); "
          + registration.scenario().getClass().getName() + " takes the same name");
    }
    scenarios.put(name, registration);
  }

  /** Adds the {@code @Tool} methods of {@code tool}, checked at once with every tool registered so far. */
  void addTool(Object tool, ToolOptions options, Path filesDirectory) {
    if (tool == null || options == null) {
      throw new IllegalArgumentException("registerTool: a tool object and its options are required");
    }
    userTools.add(new UserTool(tool, options));
    try {
      // Check now, so that the failure points at this call: names, parameters, options.
      toolRegistry(filesDirectory, McpToolSet.empty());
    } catch (IllegalArgumentException e) {
      userTools.remove(userTools.size() - 1);
      throw new IllegalArgumentException("registerTool: " + e.getMessage(), e);
    }
  }

  /** Adds every tool of a registry; a name taken twice fails when the tools are built. */
  void addTools(ToolRegistry tools) {
    toolRegistries.add(tools);
  }

  /** Adds an MCP server, unless one of its name is registered already. */
  void addMcpServer(McpServerConfig server) {
    if (server == null) {
      throw new IllegalArgumentException("registerMcpServer: a server configuration is required");
    }
    if (mcpServers.containsKey(server.name())) {
      throw new IllegalArgumentException("registerMcpServer: two MCP servers are named '" + server.name()
          + "': " + mcpServers.get(server.name()).describe() + " and " + server.describe());
    }
    mcpServers.put(server.name(), server);
  }

  /** Adds a named model, unless one of its name is registered already. */
  void addModel(String name, ChatModel model) {
    if (name == null || name.isBlank() || model == null) {
      throw new IllegalArgumentException("registerModel: a name and a model are required");
    }
    if (models.containsKey(name)) {
      throw new IllegalArgumentException("registerModel: a model named '" + name
          + "' is registered already (" + models.get(name).getClass().getName() + ")");
    }
    models.put(name, model);
  }

  /** The MCP servers registered so far, by name, in registration order. */
  Map<String, McpServerConfig> mcpServers() {
    return java.util.Collections.unmodifiableMap(mcpServers);
  }

  /** The scenarios registered so far, in registration order. */
  Collection<ScenarioRegistration> scenarioRegistrations() {
    return scenarios.values();
  }

  /** The scenarios registered so far, by name. */
  ScenarioRegistry scenarios() {
    List<Scenario<?>> all = new ArrayList<>();
    scenarios.values().forEach(r -> all.add(r.scenario()));
    return ScenarioRegistry.of(all);
  }

  /** The names of the models registered so far (and {@code rules}). */
  Set<String> modelNames() {
    Set<String> names = new java.util.LinkedHashSet<>();
    names.add(RulesChatModel.MODEL_NAME);
    names.addAll(models.keySet());
    return names;
  }

  /**
   * The models the workers call: the offline {@code rules} model playing the registered scenarios' rule
   * policies (unless a model registered under its name replaces it), then the registered ones.
   */
  ChatModelProvider chatModels(LlmSettings settings, long rulesDelayMillis) {
    ChatModelProvider.Builder provider = ChatModelProvider.newBuilder().settings(settings);
    if (!models.containsKey(RulesChatModel.MODEL_NAME)) {
      provider.register(RulesChatModel.MODEL_NAME,
          new RulesChatModel(ScenarioRegistration.policies(List.copyOf(scenarios.values())))
              .withDelay(rulesDelayMillis));
    }
    models.forEach(provider::register);
    return provider.build();
  }

  /**
   * Every tool the plugin will have: the registered scenarios' world actions, the built-in external
   * tools ({@code calculator}, {@code read_file}), the registered tools, the tools of the connected MCP
   * servers after them, and the control tools.
   *
   * @throws IllegalArgumentException naming a tool registered twice
   */
  ToolRegistry toolRegistry(Path filesDirectory, McpToolSet mcp) {
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
}
