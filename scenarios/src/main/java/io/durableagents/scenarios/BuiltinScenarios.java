package io.durableagents.scenarios;

import io.durableagents.scenarios.epstein.EpsteinActions;
import io.durableagents.scenarios.epstein.EpsteinRulePolicy;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.negotiation.NegotiationActions;
import io.durableagents.scenarios.negotiation.NegotiationRulePolicy;
import io.durableagents.scenarios.negotiation.NegotiationScenario;
import io.durableagents.worker.DurableAgentsExtension;
import io.durableagents.worker.DurableAgentsPlugin;

/**
 * The scenarios that come with Durable Agents, Epstein's civil violence model ({@code epstein}) and
 * Mesa-LLM's negotiation example ({@code negotiation}), registered as a user's own scenarios are: an
 * extension listed in {@code META-INF/services}, so every command of the command line and every
 * plugin built with {@link DurableAgentsPlugin.Builder#configureFromClasspath()} has them when this
 * jar is on the classpath. In code:
 *
 * <pre>{@code
 * DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
 *     .apply(new BuiltinScenarios())
 *     .build();
 * }</pre>
 */
public final class BuiltinScenarios implements DurableAgentsExtension {
  @Override
  public void configure(DurableAgentsPlugin.Builder plugin) {
    plugin.registerScenario(new EpsteinScenario(), new EpsteinActions(), new EpsteinRulePolicy());
    plugin.registerScenario(
        new NegotiationScenario(), new NegotiationActions(), new NegotiationRulePolicy());
  }
}
