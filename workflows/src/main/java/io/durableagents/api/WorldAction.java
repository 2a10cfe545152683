package io.durableagents.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * An action an agent chose that changes the simulated world ({@code move_one_step}, {@code
 * arrest_citizen}, ...). The agent step only chooses it; the simulation workflow applies it, in a
 * seeded deterministic order, and tells the agent the outcome in its next observation.
 *
 * @param agentId who acts
 * @param toolCallId the model's id for the call
 * @param tool the world action's name
 * @param arguments its arguments, already checked against the action's schema
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WorldAction(String agentId, String toolCallId, String tool, JsonNode arguments) {}
