package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The input of a group step: the steps of several agents of one simulation step, run in one workflow.
 * Like {@link AgentStepInput}, it holds no prompt and no secret.
 *
 * @param agents one input per agent, in the simulation's agent order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentGroupStepInput(List<AgentStepInput> agents) {
  public AgentGroupStepInput {
    agents = agents == null ? List.of() : List.copyOf(agents);
  }
}
