package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.api.Observation;
import io.durableagents.workflows.memory.AgentMemory;
import java.util.List;

/**
 * The input of one agent step. It holds no prompt and no secret: prompts are built inside the
 * workflow from the scenario, the role and the observation.
 *
 * @param simulationId the simulation's workflow id (or any run id, outside simulations)
 * @param scenario the scenario whose prompts the agent uses ({@code epstein})
 * @param agentId the agent
 * @param role its role in the scenario ({@code citizen}, {@code cop})
 * @param observation what it sees
 * @param plan the plan it holds from earlier steps, or null
 * @param tools every tool the agent has, by name
 * @param worldActions which of {@code tools} are world actions (applied by the simulation); the others
 *     are external tools run as activities
 * @param options strategy, model and tool settings
 * @param memory what the agent remembers (null: no memory), shown in its prompt
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentStepInput(
    String simulationId,
    String scenario,
    String agentId,
    String role,
    Observation observation,
    Plan plan,
    List<String> tools,
    List<String> worldActions,
    AgentOptions options,
    AgentMemory memory) {
  /**
   * The key of the observation's self state under which a simulation tells an agent what its last
   * actions did ({@code "moved to [1, 0]"}, {@code "blocked, cell [x, y] is taken"}).
   */
  public static final String LAST_ACTION_RESULTS = "last_action_results";


  /** An input without memory. */
  public AgentStepInput(String simulationId, String scenario, String agentId, String role,
      Observation observation, Plan plan, List<String> tools, List<String> worldActions,
      AgentOptions options) {
    this(simulationId, scenario, agentId, role, observation, plan, tools, worldActions, options, null);
  }

  public AgentStepInput {
    tools = tools == null ? List.of() : List.copyOf(tools);
    worldActions = worldActions == null ? List.of() : List.copyOf(worldActions);
    options = options == null ? AgentOptions.defaults() : options;
  }
}
