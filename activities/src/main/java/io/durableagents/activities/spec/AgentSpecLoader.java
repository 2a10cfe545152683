package io.durableagents.activities.spec;

import static io.durableagents.activities.spec.SpecFields.allowOnly;
import static io.durableagents.activities.spec.SpecFields.bool;
import static io.durableagents.activities.spec.SpecFields.integer;
import static io.durableagents.activities.spec.SpecFields.number;
import static io.durableagents.activities.spec.SpecFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.ReasoningPattern;
import io.durableagents.workflows.autonomous.TodoList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.durableagents.activities.tools.mcp.McpServerConfig;

/**
 * Reads an agent spec from YAML (InitRunner's format) and validates it into the {@link AgentSpec} an
 * {@code AutonomousAgent} run takes: every error names the field and the allowed values, and comes
 * before anything runs. Sub-agents' {@code role_file}s are read here, relative to the spec's
 * directory, and inlined: the worker never sees a path.
 *
 * <p>The pattern is auto-detected when {@code reasoning.pattern} is unset and {@code
 * reasoning.auto_detect} is true (the default), as InitRunner does: a todo tool and an {@code
 * autonomy} section give {@code todo_driven}; {@code reflection_rounds > 0} (or {@code
 * reflection_dimensions}) gives {@code reflexion}; anything else {@code react}.
 *
 * <p>A spec may name the worker's own registered tools and models as it names the built-in ones
 * ({@code - type: weather} in {@code tools}, {@code model: my-model}) when the loader is given them
 * ({@link RegisteredNames}); without, it knows the built-ins only. {@code spec.mcp_servers} gives the
 * agent the tools of MCP servers the registered names know ({@link RegisteredNames#withMcpTools}),
 * expanded into tool names ({@code fs_read_text_file}): the workflow sees names only, never a command,
 * a URL or a header.
 *
 * <pre>{@code
 * AgentSpec spec = AgentSpecLoader.load(Path.of("examples/todo-calculator.yaml"));
 * AgentSpec mine = AgentSpecLoader.load(Path.of("weather.yaml"),
 *     RegisteredNames.of(plugin.tools(), builder.modelNames()));
 * }</pre>
 */
public final class AgentSpecLoader {
  /** Tool types every spec may list; a worker's registered external tools come on top. */
  public static final List<String> TOOL_TYPES = List.of("think", "todo", "spawn", "calculator", "read_file");

  /** How deep role files may include role files (a guard against a file that includes itself). */
  static final int MAX_ROLE_FILE_NESTING = 8;


  private AgentSpecLoader() {}

  /**
   * Loads and validates the spec in {@code file}, which may name the built-in tools and models only.
   *
   * @throws AgentSpecException naming the field at fault and the allowed values
   */
  public static AgentSpec load(Path file) {
    return load(file, RegisteredNames.NONE);
  }

  /**
   * Loads and validates the spec in {@code file}, which may name the built-in tools and models and
   * those of {@code registered}.
   *
   * @throws AgentSpecException naming the field at fault and the allowed values
   */
  public static AgentSpec load(Path file, RegisteredNames registered) {
    return load(file, registered == null ? RegisteredNames.NONE : registered, 0);
  }

  static AgentSpec load(Path file, RegisteredNames registered, int nesting) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new AgentSpecException(file.toString(), "cannot read the spec: " + e.getMessage());
    }
    return parse(text, file.toString(), file.toAbsolutePath().getParent(), registered, nesting);
  }

  /**
   * Parses and validates a spec that may name the built-in tools and models only; {@code
   * baseDirectory} resolves sub-agents' role files.
   *
   * @throws AgentSpecException naming the field at fault and the allowed values
   */
  public static AgentSpec parse(String yaml, Path baseDirectory) {
    return parse(yaml, baseDirectory, RegisteredNames.NONE);
  }

  /**
   * Parses and validates a spec that may name the built-in tools and models and those of {@code
   * registered}; {@code baseDirectory} resolves sub-agents' role files.
   *
   * @throws AgentSpecException naming the field at fault and the allowed values
   */
  public static AgentSpec parse(String yaml, Path baseDirectory, RegisteredNames registered) {
    return parse(yaml, baseDirectory, registered == null ? RegisteredNames.NONE : registered, 0);
  }

  static AgentSpec parse(String yaml, Path baseDirectory, RegisteredNames registered, int nesting) {
    return parse(yaml, "(document)", baseDirectory, registered, nesting);
  }

  /** As {@link #parse(String, Path, RegisteredNames)}, with {@code source} (a file name) named in errors. */
  private static AgentSpec parse(String yaml, String source, Path baseDirectory, RegisteredNames registered,
      int nesting) {
    JsonNode root = SpecYaml.read(yaml, source);
    if (root == null || !root.isObject()) {
      throw new AgentSpecException("(document)", "a spec is a mapping with apiVersion, kind, metadata and spec");
    }
    allowOnly(root, "", "apiVersion", "kind", "metadata", "spec");
    String kind = text(root, "kind", "Agent");
    if (!kind.equals("Agent")) {
      throw new AgentSpecException("kind", "'" + kind + "' is not one of: Agent");
    }
    JsonNode metadata = root.path("metadata");
    allowOnly(metadata, "metadata", "name", "description");
    String name = text(metadata, "name", "agent");
    String description = text(metadata, "description", null);
    JsonNode spec = root.path("spec");
    if (!spec.isObject()) {
      throw new AgentSpecException("spec", "missing: the spec section holds role, model, tools, reasoning and guardrails");
    }
    allowOnly(spec, "spec", "role", "model", "tools", "mcp_servers", "reasoning", "autonomy", "guardrails",
        "requires_approval", "approval_timeout", "approval_default");
    String role = text(spec, "role", null);

    String model = "rules";
    Double temperature = null;
    Integer maxOutputTokens = null;
    JsonNode m = spec.path("model");
    if (m.isTextual()) {
      model = m.asText().strip();
    } else if (m.isObject()) {
      allowOnly(m, "spec.model", "provider", "name", "temperature", "max_output_tokens", "thinking");
      if (m.has("thinking")) {
        throw new AgentSpecException("spec.model.thinking", "not supported by Durable Agents yet; remove it "
            + "(allowed fields: provider, name, temperature, max_output_tokens)");
      }
      if (m.hasNonNull("max_output_tokens")) {
        maxOutputTokens = integer(m, "spec.model.max_output_tokens", "max_output_tokens", 0, 0, 1_000_000);
      }
      String provider = text(m, "provider", "rules");
      String modelName = text(m, "name", null);
      model = provider.equals("rules") || modelName == null ? provider : provider + ":" + modelName;
      if (m.has("temperature")) {
        temperature = number(m, "spec.model.temperature", 0, 2);
      }
    } else if (!m.isMissingNode()) {
      throw new AgentSpecException("spec.model", "a model reference (\"openai:gpt-4o-mini\") or {provider, name}");
    }

    checkModel("spec.model", model, registered.models());

    AgentSpec.Think think = null;
    AgentSpec.Todo todo = null;
    AgentSpec.Spawn spawn = null;
    List<String> external = new ArrayList<>();
    JsonNode tools = spec.path("tools");
    List<String> toolTypes = toolTypes(registered);
    if (!tools.isMissingNode() && !tools.isArray()) {
      throw new AgentSpecException("spec.tools", "a list of {type: ...}; types: " + String.join(", ", toolTypes));
    }
    for (int i = 0; i < tools.size(); i++) {
      JsonNode t = tools.get(i);
      String at = "spec.tools[" + i + "]";
      String type = text(t, "type", "");
      switch (type) {
        case "think":
          allowOnly(t, at, "type", "critique", "max_thoughts");
          think = new AgentSpec.Think(bool(t, "critique", false),
              integer(t, at + ".max_thoughts", "max_thoughts", AgentSpec.Think.DEFAULT_MAX_THOUGHTS, 1, 200));
          break;
        case "todo":
          allowOnly(t, at, "type", "max_items", "shared", "shared_path");
          if (bool(t, "shared", false)) {
            throw new AgentSpecException(at + ".shared", "shared todo lists are not supported; allowed: false");
          }
          todo = new AgentSpec.Todo(integer(t, at + ".max_items", "max_items", TodoList.DEFAULT_MAX_ITEMS, 1, 100));
          break;
        case "spawn":
          allowOnly(t, at, "type", "max_concurrent", "max_depth", "timeout_seconds", "agents");
          spawn = SubAgentSpecs.spawn(t, at, baseDirectory, registered, nesting);
          break;
        case "calculator":
        case "read_file":
          allowOnly(t, at, "type");
          external.add(type);
          break;
        default:
          if (!registered.tools().contains(type)) {
            throw new AgentSpecException(at + ".type", "'" + type + "' is not one of: " + String.join(", ", toolTypes));
          }
          // A tool registered on the worker: its options are the worker's, not the spec's.
          allowOnly(t, at, "type");
          if (!external.contains(type)) {
            external.add(type);
          }
      }
    }

    for (String tool : McpServerSpecs.mcpTools(spec.path("mcp_servers"), registered)) {
      if (!external.contains(tool)) {
        external.add(tool);
      }
    }

    JsonNode autonomy = spec.path("autonomy");
    allowOnly(autonomy, "spec.autonomy", "max_plan_steps");
    if (autonomy.has("max_plan_steps") && todo != null) {
      // A plan is the todo list: max_plan_steps caps it as max_items does.
      int steps = integer(autonomy, "spec.autonomy.max_plan_steps", "max_plan_steps", 20, 1, 100);
      todo = new AgentSpec.Todo(Math.min(todo.maxItems(), steps));
    }

    JsonNode r = spec.path("reasoning");
    allowOnly(r, "spec.reasoning", "pattern", "auto_plan", "reflection_rounds", "reflection_dimensions",
        "success_criteria", "auto_detect");
    List<AgentSpec.Dimension> dimensions = null;
    JsonNode dims = r.path("reflection_dimensions");
    if (!dims.isMissingNode() && !dims.isNull()) {
      if (!dims.isArray() || dims.isEmpty() || dims.size() > 3) {
        throw new AgentSpecException("spec.reasoning.reflection_dimensions", "1 to 3 {name, prompt} entries");
      }
      dimensions = new ArrayList<>();
      for (int i = 0; i < dims.size(); i++) {
        String at = "spec.reasoning.reflection_dimensions[" + i + "]";
        allowOnly(dims.get(i), at, "name", "prompt");
        String dn = text(dims.get(i), "name", null);
        String dp = text(dims.get(i), "prompt", null);
        if (dn == null || dn.isBlank() || dp == null || dp.isBlank()) {
          throw new AgentSpecException(at, "needs a name and a prompt");
        }
        dimensions.add(new AgentSpec.Dimension(dn.strip(), dp.strip()));
      }
    }
    int rounds = integer(r, "spec.reasoning.reflection_rounds", "reflection_rounds",
        dimensions == null ? 0 : dimensions.size(), 0, 3);
    List<String> criteria = null;
    JsonNode sc = r.path("success_criteria");
    if (!sc.isMissingNode() && !sc.isNull()) {
      if (!sc.isArray() || sc.isEmpty() || sc.size() > 10) {
        throw new AgentSpecException("spec.reasoning.success_criteria", "1 to 10 criteria when given");
      }
      criteria = new ArrayList<>();
      for (JsonNode c : sc) {
        criteria.add(c.asText().strip());
      }
    } else if (dimensions != null) {
      criteria = dimensions.stream().map(AgentSpec.Dimension::name).toList();
    }
    ReasoningPattern pattern;
    if (r.hasNonNull("pattern")) {
      try {
        pattern = ReasoningPattern.parse(r.get("pattern").asText());
      } catch (IllegalArgumentException e) {
        throw new AgentSpecException("spec.reasoning.pattern", e.getMessage());
      }
    } else if (!bool(r, "auto_detect", true)) {
      pattern = ReasoningPattern.REACT;
    } else if (todo != null && spec.has("autonomy")) {
      pattern = ReasoningPattern.TODO_DRIVEN;
    } else if (rounds > 0) {
      pattern = ReasoningPattern.REFLEXION;
    } else {
      pattern = ReasoningPattern.REACT;
    }
    if ((pattern == ReasoningPattern.TODO_DRIVEN || pattern == ReasoningPattern.PLAN_EXECUTE) && todo == null) {
      throw new AgentSpecException("spec.reasoning.pattern", pattern.label()
          + " needs a todo tool: add {type: todo} to spec.tools, or use one of: react, reflexion");
    }
    if (pattern == ReasoningPattern.REFLEXION && rounds == 0) {
      throw new AgentSpecException("spec.reasoning.reflection_rounds",
          "reflexion needs reflection_rounds from 1 to 3 (or reflection_dimensions), was 0");
    }
    AgentSpec.Reasoning reasoning = new AgentSpec.Reasoning(pattern, bool(r, "auto_plan", false),
        pattern == ReasoningPattern.REFLEXION ? rounds : 0, dimensions,
        pattern == ReasoningPattern.REFLEXION ? criteria : null);

    JsonNode g = spec.path("guardrails");
    allowOnly(g, "spec.guardrails", "max_iterations", "autonomous_token_budget", "timeout_seconds");
    int maxIterations = integer(g, "spec.guardrails.max_iterations", "max_iterations",
        AgentSpec.Guardrails.DEFAULT_MAX_ITERATIONS, 1, 10_000);
    Long budget = g.hasNonNull("autonomous_token_budget")
        ? (long) integer(g, "spec.guardrails.autonomous_token_budget", "autonomous_token_budget", 0, 1,
            Integer.MAX_VALUE) : null;
    Integer timeout = g.hasNonNull("timeout_seconds")
        ? integer(g, "spec.guardrails.timeout_seconds", "timeout_seconds", 0, 1, 7 * 24 * 3600) : null;
    ApprovalOptions approval = ApprovalSpecs.parse(spec, external);
    if (spawn != null && approval != null) {
      List<AgentSpec.SubAgent> inheriting = new ArrayList<>();
      for (AgentSpec.SubAgent a : spawn.agents()) {
        inheriting.add(new AgentSpec.SubAgent(a.name(), a.description(),
            a.spec().withApproval(ApprovalSpecs.inherit(approval, a.spec()))));
      }
      spawn = new AgentSpec.Spawn(spawn.maxConcurrent(), spawn.maxDepth(), spawn.timeoutSeconds(), inheriting);
    }
    return new AgentSpec(name, description, role, model, temperature, think, todo, spawn, external,
        reasoning, new AgentSpec.Guardrails(maxIterations, budget, timeout), approval, maxOutputTokens);
  }

  /**
   * The MCP servers a spec defines itself ({@code spec.mcp_servers} entries with a {@code command} or
   * a {@code url}), checked: what {@code agent run} connects and hands to the worker it starts. Entries
   * that only name a server (and maybe pick its {@code tools}) are the worker's and are not returned.
   *
   * @throws AgentSpecException naming the field at fault and what is allowed
   */
  public static List<McpServerConfig> mcpServerDefinitions(Path file, Map<String, String> env) {
    return McpServerSpecs.mcpServerDefinitions(file, env);
  }

  /**
   * The {@code mcp_servers} section of the spec in {@code file} as written (variables such as {@code
   * ${TOKEN}} not yet replaced), its definitions only, as a document {@code mcp_servers: {...}}: what
   * {@code agent run} gives the worker it starts, which reads it from {@code DURABLE_AGENTS_MCP_SERVERS}.
   * Null when the spec defines no server.
   */
  public static String mcpServerDefinitionsDocument(Path file) {
    return McpServerSpecs.mcpServerDefinitionsDocument(file);
  }

  /** Whether the spec in {@code file} has a {@code spec.mcp_servers} section with a server in it. */
  public static boolean hasMcpServers(Path file) {
    return McpServerSpecs.hasMcpServers(file);
  }

  /** The tool types a spec may list: the built-in ones, then the registered external tools. */
  private static List<String> toolTypes(RegisteredNames registered) {
    List<String> types = new ArrayList<>(TOOL_TYPES);
    for (String tool : registered.tools()) {
      if (!types.contains(tool)) {
        types.add(tool);
      }
    }
    return types;
  }

  /**
   * Checks a model reference: {@code rules}, or a provider and a model name.
   *
   * @throws AgentSpecException naming {@code field} and the allowed forms
   */
  public static void checkModel(String field, String model) {
    checkModel(field, model, Set.of());
  }

  /**
   * Checks a model reference: {@code rules}, a provider and a model name, or the name of a model
   * registered on the worker ({@code registeredModels}).
   *
   * @throws AgentSpecException naming {@code field} and the allowed forms
   */
  public static void checkModel(String field, String model, Set<String> registeredModels) {
    if (!model.equals("rules") && !model.matches("(openai|anthropic|ollama):.+")
        && !registeredModels.contains(model)) {
      List<String> allowed = new ArrayList<>(List.of("rules", "openai:<model>", "anthropic:<model>", "ollama:<model>"));
      registeredModels.stream().filter(m -> !allowed.contains(m)).forEach(allowed::add);
      throw new AgentSpecException(field, "'" + model + "' is not one of: " + String.join(", ", allowed));
    }
  }
}
