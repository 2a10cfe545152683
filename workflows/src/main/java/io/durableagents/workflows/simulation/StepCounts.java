package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** The variables recorded at the end of one step, e.g. active, quiet and jailed citizens. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StepCounts(int step, Map<String, Integer> counts) {}
