package io.durableagents.workflows.tools;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One external tool call.
 *
 * @param toolCallId the model's id for the call
 * @param name the tool
 * @param arguments the arguments, as JSON
 * @param idempotencyKey {@code <workflow id>/<step>/<tool call id>}: the same on every retry of this
 *     call, so a tool with side effects can recognise a retry
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolExecutionRequest(
    String toolCallId, String name, JsonNode arguments, String idempotencyKey) {}
