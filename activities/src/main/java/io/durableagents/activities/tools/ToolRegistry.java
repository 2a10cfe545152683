package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import io.durableagents.workflows.tools.ToolArgumentCheck;
import io.durableagents.workflows.tools.ToolPolicies;
import io.durableagents.workflows.tools.ToolPolicy;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every tool a worker knows, by name: its JSON schema (what the model sees, derived by LangChain4j
 * from the {@code @Tool}/{@code @P} annotations), its kind, the object and method that implement it,
 * and, for an external tool, the options of its calls ({@link ToolOptions}, {@link DurableTool}).
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder()
 *     .addWorldActions(new EpsteinActions())
 *     .addExternalTools(new CalculatorTool(), new FileReaderTool(Path.of("data")))
 *     .addExternalTool(new ReportTools(), ToolOptions.newBuilder().setMaximumAttempts(5).build())
 *     .addControlTools(new FinishTool())
 *     .build();
 * }</pre>
 *
 * <p>Registration checks each tool at once and fails naming it: two tools of one name, a parameter
 * without a name (compiled without {@code -parameters} and no {@code @P(name = ...)}), an object with
 * no {@code @Tool} method, options out of range.
 */
public final class ToolRegistry {
  /**
   * One registered tool.
   *
   * @param specification its schema, as models see it
   * @param kind who carries its calls out
   * @param target the object whose method implements it, or the {@link ToolInvoker} of a tool that
   *     is not a method (then {@code method} is null)
   * @param method the {@code @Tool} method, or null for a {@link ToolInvoker}
   * @param options the options of its calls (external tools; the defaults for other kinds)
   */
  public record Entry(ToolSpecification specification, ToolKind kind, Object target, Method method,
      ToolOptions options) {
    public Entry {
      options = options == null ? ToolOptions.defaults() : options;
    }

    /** A tool whose calls run with the default options. */
    public Entry(ToolSpecification specification, ToolKind kind, Object target, Method method) {
      this(specification, kind, target, method, null);
    }

    public String name() {
      return specification.name();
    }

    /** The invoker of a tool that is not a {@code @Tool} method (an MCP server's), else empty. */
    public Optional<ToolInvoker> invoker() {
      return method == null && target instanceof ToolInvoker invoker ? Optional.of(invoker) : Optional.empty();
    }
  }

  private final Map<String, Entry> entries;

  private ToolRegistry(Map<String, Entry> entries) {
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** The tool called {@code name}, if registered. */
  public Optional<Entry> find(String name) {
    return Optional.ofNullable(entries.get(name));
  }

  /** The worker's setting that names its MCP servers' files, which unknown tool names point to. */
  static final String MCP_SERVERS_VARIABLE = "DURABLE_AGENTS_MCP_SERVERS";

  /** Every tool name, in registration order. */
  public Set<String> names() {
    return entries.keySet();
  }

  /** The names of the external tools (those run as activities), in registration order. */
  public List<String> externalToolNames() {
    return entries.values().stream().filter(e -> e.kind() == ToolKind.EXTERNAL).map(Entry::name).toList();
  }

  /**
   * The options of every external tool's calls, as workflow code reads them: what the worker hands to
   * its workflows so that each call is scheduled with its tool's timeouts and retry policy.
   */
  public ToolPolicies policies() {
    Map<String, ToolPolicy> byTool = new LinkedHashMap<>();
    Map<String, String> callLabels = new LinkedHashMap<>();
    Set<String> requiringApproval = new LinkedHashSet<>();
    for (Entry e : entries.values()) {
      if (e.kind() == ToolKind.EXTERNAL) {
        byTool.put(e.name(), e.options().policy());
        e.invoker().map(ToolInvoker::callLabel).ifPresent(label -> callLabels.put(e.name(), label));
        if (e.options().requiresApproval()) {
          requiringApproval.add(e.name());
        }
      }
    }
    return ToolPolicies.of(byTool).withCallLabels(callLabels).withApprovalRequired(requiringApproval)
        .withArgumentCheck((tool, arguments) -> {
          Entry e = entries.get(tool);
          return e == null ? ToolArgumentCheck.OBJECT_ONLY.problems(tool, arguments)
              : ToolCallValidator.validate(e.specification(), arguments);
        });
  }

  /**
   * The schemas of the named tools, in the given order.
   *
   * @throws IllegalArgumentException naming the unknown tools and the known ones
   */
  public List<ToolSpecification> specifications(List<String> names) {
    List<ToolSpecification> specs = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String name : names) {
      Entry e = entries.get(name);
      if (e == null) {
        unknown.add(name);
      } else {
        specs.add(e.specification());
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown tools " + unknown + "; this worker's external tools: "
          + String.join(", ", externalToolNames()) + " (an MCP server's tools, <server>_<tool>, need that "
          + "server in the worker's " + MCP_SERVERS_VARIABLE + "; others, registerTool on its plugin)");
    }
    return specs;
  }

  /** Builds a {@link ToolRegistry}. */
  public static final class Builder {
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private Builder() {}

    /** Registers every {@code @Tool} method of each object as a world action. */
    public Builder addWorldActions(Object... declarations) {
      for (Object o : declarations) {
        add(o, ToolKind.WORLD_ACTION, ToolOptions.defaults());
      }
      return this;
    }

    /**
     * Registers every {@code @Tool} method of each object as an external tool, with the default options
     * and what its {@link DurableTool} annotation sets.
     *
     * @throws IllegalArgumentException naming the tool, when a name is taken, a parameter has no
     *     name, or the object has no {@code @Tool} method
     */
    public Builder addExternalTools(Object... tools) {
      for (Object o : tools) {
        addExternalTool(o, ToolOptions.defaults());
      }
      return this;
    }

    /**
     * Registers every {@code @Tool} method of {@code tool} as an external tool whose calls run with
     * {@code options}, and what its {@link DurableTool} annotation sets over them.
     *
     * @throws IllegalArgumentException naming the tool, when a name is taken, a parameter has no
     *     name, an option is out of range, or the object has no {@code @Tool} method
     */
    public Builder addExternalTool(Object tool, ToolOptions options) {
      if (add(tool, ToolKind.EXTERNAL, options == null ? ToolOptions.defaults() : options) == 0) {
        throw new IllegalArgumentException(tool.getClass().getName() + " has no @Tool method: "
            + "a tool is a public method annotated with LangChain4j's @Tool");
      }
      return this;
    }

    /**
     * Registers an external tool that is not a {@code @Tool} method, such as an MCP server's: {@code
     * specification} is what models see, {@code invoker} runs its calls (as activities, like every
     * external tool's), with {@code options}.
     *
     * @throws IllegalArgumentException naming both tools when the name is taken
     */
    public Builder addExternalTool(ToolSpecification specification, ToolInvoker invoker, ToolOptions options) {
      if (specification == null || invoker == null) {
        throw new IllegalArgumentException("addExternalTool: a specification and an invoker are required");
      }
      put(new Entry(specification, ToolKind.EXTERNAL, invoker, null, options));
      return this;
    }

    /**
     * Registers every {@code @Tool} method of each object as a control tool ({@link ToolKind#CONTROL}):
     * its schema is offered to models, its calls are handled by the workflow.
     */
    public Builder addControlTools(Object... declarations) {
      for (Object o : declarations) {
        add(o, ToolKind.CONTROL, ToolOptions.defaults());
      }
      return this;
    }

    /** Adds every tool of {@code registry}, with its kind. */
    public Builder addAll(ToolRegistry registry) {
      for (Entry e : registry.entries.values()) {
        put(e);
      }
      return this;
    }

    /** Adds the object's {@code @Tool} methods; returns how many. */
    private int add(Object target, ToolKind kind, ToolOptions options) {
      if (target == null) {
        throw new IllegalArgumentException("a tool object is null");
      }
      int added = 0;
      for (Method method : target.getClass().getDeclaredMethods()) {
        DurableTool durable = method.getAnnotation(DurableTool.class);
        if (!method.isAnnotationPresent(Tool.class)) {
          if (durable != null) {
            throw new IllegalArgumentException(describe(method) + " has @DurableTool but no @Tool");
          }
          continue;
        }
        checkParameterNames(method);
        ToolSpecification spec = ToolSpecifications.toolSpecificationFrom(method);
        ToolOptions own = options;
        if (durable != null) {
          if (kind != ToolKind.EXTERNAL) {
            throw new IllegalArgumentException("tool '" + spec.name() + "' (" + describe(method) + ") is a "
                + label(kind) + ": @DurableTool applies to external tools only, whose calls are activities");
          }
          try {
            own = options.with(durable);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "tool '" + spec.name() + "' (" + describe(method) + "): " + e.getMessage(), e);
          }
        }
        method.setAccessible(true);
        put(new Entry(spec, kind, target, method, own));
        added++;
      }
      return added;
    }

    private void put(Entry entry) {
      Entry existing = entries.get(entry.name());
      if (existing != null) {
        if (existing.kind() == entry.kind() && existing.method() != null
            && existing.method().equals(entry.method())) {
          return;
        }
        if (existing.kind() == entry.kind() && existing.method() == null && existing.target() == entry.target()) {
          return;
        }
        throw new IllegalArgumentException("two tools are named '" + entry.name() + "': "
            + describe(existing) + " and " + describe(entry) + "; rename one "
            + (existing.method() == null || entry.method() == null
                ? "(an MCP server's tools with its tool_prefix, a method with @Tool(name = ...))"
                : "with @Tool(name = ...)"));
      }
      entries.put(entry.name(), entry);
    }

    private static String describe(Entry e) {
      if (e.method() == null) {
        return e.invoker().map(ToolInvoker::origin).orElse(String.valueOf(e.target())) + " (" + label(e.kind()) + ")";
      }
      return describe(e.method()) + " (" + label(e.kind()) + ")";
    }

    private static String describe(Method method) {
      return method.getDeclaringClass().getName() + "." + method.getName();
    }

    private static String label(ToolKind kind) {
      return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** The name models call the tool by: {@code @Tool(name = ...)}, else the method's. */
    private static String toolName(Method method) {
      Tool tool = method.getAnnotation(Tool.class);
      return tool != null && !tool.name().isBlank() ? tool.name() : method.getName();
    }

    /**
     * A parameter's name is what the model sees in the tool's schema: without {@code -parameters} (or
     * {@code @P(name = ...)}) it is {@code arg0}, and a model's correct call would not fit. Fail now,
     * naming the tool, instead of at the first call. A {@link ToolCallContext} parameter is not in the
     * schema and needs no name.
     */
    private static void checkParameterNames(Method method) {
      for (java.lang.reflect.Parameter p : method.getParameters()) {
        dev.langchain4j.agent.tool.P named = p.getAnnotation(dev.langchain4j.agent.tool.P.class);
        if (!p.isNamePresent() && (named == null || named.name().isBlank())
            && p.getType() != ToolCallContext.class) {
          throw new IllegalArgumentException("tool '" + toolName(method) + "' (" + describe(method)
              + "): parameter " + p.getName() + " has no name: compile with "
              + "-parameters (maven-compiler-plugin <parameters>true</parameters>) or name it with "
              + "@P(name = \"...\", value = \"...\")");
        }
      }
    }

    public ToolRegistry build() {
      return new ToolRegistry(entries);
    }
  }
}
