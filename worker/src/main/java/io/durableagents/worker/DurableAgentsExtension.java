package io.durableagents.worker;

/**
 * A user's scenarios, tools and models, found on the classpath: the {@code durable-agents} command
 * line ({@code demo}, {@code simulate}, {@code worker}, {@code help simulate --scenario}) and {@link
 * DurableAgentsPlugin.Builder#configureFromClasspath()} apply every extension listed in {@code
 * META-INF/services/io.durableagents.worker.DurableAgentsExtension}, so a project's jar on the
 * command line's classpath brings its scenarios with it.
 *
 * <pre>{@code
 * public final class WealthExtension implements DurableAgentsExtension {
 *   @Override
 *   public void configure(DurableAgentsPlugin.Builder plugin) {
 *     plugin.registerScenario(new WealthScenario(), new WealthActions(), new WealthRulePolicy());
 *   }
 * }
 * }</pre>
 *
 * <p>An extension registers; it does not start anything. Its class needs a public no-argument
 * constructor.
 */
public interface DurableAgentsExtension {
  /** Registers this extension's scenarios, tools and models on {@code plugin}. */
  void configure(DurableAgentsPlugin.Builder plugin);
}
