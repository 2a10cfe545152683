package io.durableagents.workflows.agent.rewoo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One step of a ReWOO plan: a tool call whose arguments may reference earlier steps' outputs with
 * {@code {{En}}} placeholders, after jeevesagent's {@code ReWOOStep}.
 *
 * @param id the step's id, unique within the plan ({@code E1}, {@code E2}, ...)
 * @param tool the tool to call
 * @param args its arguments, a JSON object that may hold placeholders
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReWooStep(String id, String tool, JsonNode args) {}
