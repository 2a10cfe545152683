package io.durableagents.starter;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import java.util.List;
import java.util.Set;

/**
 * What this command line knows of scenarios and models: the built-in ones and those of every {@link
 * io.durableagents.worker.DurableAgentsExtension} on its classpath, as the workers it starts know them.
 */
public final class LocalCatalog {
  private static volatile LocalCatalog instance;

  private final ScenarioRegistry scenarios;
  private final Set<String> models;
  private final List<String> tools;

  private LocalCatalog(DurableAgentsPlugin.Builder builder) {
    this.scenarios = builder.scenarios();
    this.models = builder.modelNames();
    this.tools = List.copyOf(builder.externalToolNames());
  }

  /** The catalog of this JVM's classpath (read once). */
  public static LocalCatalog get() {
    LocalCatalog c = instance;
    if (c == null) {
      synchronized (LocalCatalog.class) {
        if (instance == null) {
          instance = new LocalCatalog(DurableAgentsPlugin.newBuilder().configureFromClasspath());
        }
        c = instance;
      }
    }
    return c;
  }

  public ScenarioRegistry scenarios() {
    return scenarios;
  }

  /** The names of the external tools: the built-in ones and those extensions register. */
  public List<String> tools() {
    return tools;
  }

  /** The names of registered models ({@code rules} and those extensions register). */
  public Set<String> models() {
    return models;
  }
}
