package io.durableagents.worker;

import io.durableagents.activities.scenario.ScenarioRegistration;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.api.Scenario;
import java.util.Collection;
import java.util.List;

/**
 * The check, when a plugin is built, that every tool a scenario's roles are offered is one its workers
 * will have; without it every step of such a role would fail at run time.
 */
final class RoleToolsCheck {
  private RoleToolsCheck() {}

  /**
   * Checks that every tool each role of each scenario is offered ({@code ScenarioWorld.toolsOf}, read
   * from a world made from the scenario's defaults) is one the workers will have: one of the scenario's
   * own world actions, or an external tool (built in, registered with {@link
   * DurableAgentsPlugin.Builder#registerTool}, or an MCP server's, listed by now).
   *
   * @throws IllegalArgumentException naming the scenario, the role, the tool and what is registered
   */
  static void check(Collection<ScenarioRegistration> registrations, ToolRegistry tools) {
    List<String> external = tools.externalToolNames();
    for (ScenarioRegistration r : registrations) {
      Scenario<?> scenario = r.scenario();
      io.durableagents.api.ScenarioWorld world;
      try {
        world = defaultWorld(scenario);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("scenario '" + scenario.name()
            + "': no world can be made from its defaults to check its roles' tools: " + e, e);
      }
      List<String> actions = r.actionNames();
      for (String role : scenario.roles()) {
        List<String> offered = world.toolsOf(role);
        if (offered == null) {
          continue;
        }
        for (String tool : offered) {
          if (!actions.contains(tool) && !external.contains(tool)) {
            throw new IllegalArgumentException("scenario '" + scenario.name() + "', role '" + role
                + "': its tools name '" + tool + "', which is not registered (its world actions: "
                + String.join(", ", actions)
                + "; external tools: " + String.join(", ", external) + "). Register it with registerTool, "
                + "or name the MCP server that has it (registerMcpServer, " + WorkerSettings.MCP_SERVERS
                + "), or remove it from toolsOf(\"" + role + "\")");
          }
        }
      }
    }
  }

  private static <P extends Record> io.durableagents.api.ScenarioWorld defaultWorld(
      Scenario<P> scenario) {
    return scenario.create(scenario.defaults(), new io.durableagents.api.SeededRandom(0));
  }
}
