package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.api.Observation;
import io.durableagents.workflows.memory.AgentMemory;
import java.util.List;

/**
 * One agent of a running simulation, as the {@code agent} query answers.
 *
 * @param agentId the agent
 * @param role its role
 * @param canAct whether it takes the next step (a jailed citizen does not)
 * @param observation what it will see at the next step (its private attributes included)
 * @param plan the plan it holds and how much of it is left
 * @param memory what it remembers (null without memory)
 * @param lastActionResults the outcomes of its last actions, shown in its next observation
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentState(
    String agentId,
    String role,
    boolean canAct,
    Observation observation,
    AgentPlanStatus plan,
    AgentMemory memory,
    List<String> lastActionResults) {}
