package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every tool a worker knows, by name: its JSON schema (what the model sees, derived by LangChain4j
 * from the {@code @Tool}/{@code @P} annotations), its kind, and the object and method that implement
 * it.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder()
 *     .addWorldActions(new EpsteinActions())
 *     .addExternalTools(new CalculatorTool(), new FileReaderTool(Path.of("data")))
 *     .addControlTools(new FinishTool())
 *     .build();
 * }</pre>
 */
public final class ToolRegistry {
  /** One registered tool. */
  public record Entry(ToolSpecification specification, ToolKind kind, Object target, Method method) {
    public String name() {
      return specification.name();
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

  /** Every tool name, in registration order. */
  public Set<String> names() {
    return entries.keySet();
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
      throw new IllegalArgumentException(
          "unknown tools " + unknown + "; this worker knows " + entries.keySet());
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
        add(o, ToolKind.WORLD_ACTION);
      }
      return this;
    }

    /** Registers every {@code @Tool} method of each object as an external tool. */
    public Builder addExternalTools(Object... tools) {
      for (Object o : tools) {
        add(o, ToolKind.EXTERNAL);
      }
      return this;
    }

    /**
     * Registers every {@code @Tool} method of each object as a control tool ({@link ToolKind#CONTROL}):
     * its schema is offered to models, its calls are handled by the workflow.
     */
    public Builder addControlTools(Object... declarations) {
      for (Object o : declarations) {
        add(o, ToolKind.CONTROL);
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

    private void add(Object target, ToolKind kind) {
      if (target == null) {
        throw new IllegalArgumentException("a tool object is null");
      }
      for (Method method : target.getClass().getDeclaredMethods()) {
        if (!method.isAnnotationPresent(Tool.class)) {
          continue;
        }
        checkParameterNames(method);
        ToolSpecification spec = ToolSpecifications.toolSpecificationFrom(method);
        method.setAccessible(true);
        put(new Entry(spec, kind, target, method));
      }
    }

    private void put(Entry entry) {
      Entry existing = entries.get(entry.name());
      if (existing != null) {
        if (existing.kind() == entry.kind() && existing.method().equals(entry.method())) {
          return;
        }
        throw new IllegalArgumentException("two tools are named '" + entry.name() + "': "
            + describe(existing) + " and " + describe(entry) + "; rename one with @Tool(name = ...)");
      }
      entries.put(entry.name(), entry);
    }

    private static String describe(Entry e) {
      return e.method().getDeclaringClass().getName() + "." + e.method().getName() + " ("
          + e.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")";
    }

    /**
     * A parameter's name is what the model sees in the tool's schema: without {@code -parameters} (or
     * {@code @P(name = ...)}) it is {@code arg0}, and a model's correct call would not fit. Fail now,
     * naming the tool, instead of at the first call.
     */
    private static void checkParameterNames(Method method) {
      for (java.lang.reflect.Parameter p : method.getParameters()) {
        dev.langchain4j.agent.tool.P named = p.getAnnotation(dev.langchain4j.agent.tool.P.class);
        if (!p.isNamePresent() && (named == null || named.name().isBlank())) {
          throw new IllegalArgumentException("tool " + method.getDeclaringClass().getName() + "."
              + method.getName() + ": parameter " + p.getName() + " has no name: compile with "
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
