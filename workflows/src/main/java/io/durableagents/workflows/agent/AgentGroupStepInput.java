package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * The input of a group step: the steps of several agents of one simulation step, run in one workflow.
 * Like {@link AgentStepInput}, it holds no prompt and no secret.
 *
 * <p>In JSON what the agents share is written once ({@link AgentGroupStepInputJson}).
 *
 * @param agents one input per agent, in the simulation's agent order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonSerialize(using = AgentGroupStepInputJson.Serializer.class)
@JsonDeserialize(using = AgentGroupStepInputJson.Deserializer.class)
public record AgentGroupStepInput(List<AgentStepInput> agents) {
  public AgentGroupStepInput {
    agents = agents == null ? List.of() : List.copyOf(agents);
  }
}
