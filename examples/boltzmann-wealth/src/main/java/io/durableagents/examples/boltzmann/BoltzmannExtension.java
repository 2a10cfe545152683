package io.durableagents.examples.boltzmann;

import io.durableagents.worker.DurableAgentsExtension;
import io.durableagents.worker.DurableAgentsPlugin;

/**
 * Brings the Boltzmann wealth scenario to the {@code durable-agents} command line: listed in {@code
 * META-INF/services/io.durableagents.worker.DurableAgentsExtension}, it is applied by every command
 * that builds a plugin ({@code demo}, {@code simulate}, {@code help simulate --scenario}, {@code
 * worker}), so this project's jar on the command line's classpath adds {@code boltzmann-wealth}:
 *
 * <pre>{@code
 * java -jar target/boltzmann-wealth.jar demo --scenario boltzmann-wealth --steps 10
 * }</pre>
 */
public final class BoltzmannExtension implements DurableAgentsExtension {
  @Override
  public void configure(DurableAgentsPlugin.Builder plugin) {
    plugin.registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy());
  }
}
