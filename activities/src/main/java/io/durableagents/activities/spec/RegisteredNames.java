package io.durableagents.activities.spec;

import io.durableagents.activities.tools.ToolRegistry;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a worker has registered beyond the built-ins, by name, that an agent spec may name: external
 * tools (in {@code spec.tools}, as {@code - type: <name>}) and models (in {@code spec.model}). The
 * loader checks a spec against them, so that a misspelt name fails before anything runs, naming the
 * field and every allowed value.
 *
 * <pre>{@code
 * DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder()
 *     .registerTool(new WeatherTool())
 *     .registerModel("my-model", myChatModel);
 * DurableAgentsPlugin plugin = builder.build();
 * AgentSpec spec = AgentSpecLoader.load(Path.of("weather-agent.yaml"),
 *     RegisteredNames.of(plugin.tools(), builder.modelNames()));
 * }</pre>
 *
 * @param tools the names of the registered external tools
 * @param models the names of the registered models
 */
public record RegisteredNames(Set<String> tools, Set<String> models) {
  /** Nothing registered: a spec may name the built-in tools and model providers only. */
  public static final RegisteredNames NONE = new RegisteredNames(Set.of(), Set.of());

  public RegisteredNames {
    // in registration order, for messages that list them
    tools = tools == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(tools));
    models = models == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(models));
  }

  /** The external tools of {@code tools} (a worker's registry) and the models named {@code models}. */
  public static RegisteredNames of(ToolRegistry tools, Set<String> models) {
    return new RegisteredNames(new LinkedHashSet<>(tools.externalToolNames()), models);
  }
}
