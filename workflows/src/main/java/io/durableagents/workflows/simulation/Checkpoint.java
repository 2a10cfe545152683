package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A simulation as at one step boundary, complete: its input holding the whole state that
 * continue-as-new carries (the world, the random generator, plans, memory, per-step data, counters).
 * {@code simulate --from-checkpoint} starts a run from it; a fork starts one from the same record
 * derived from a recorded history.
 *
 * @param simulationId the workflow id of the simulation it was taken from
 * @param step the last completed step
 * @param input the input that goes on from there: {@code input.state().step() == step}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Checkpoint(String simulationId, int step, SimulationInput input) {}
