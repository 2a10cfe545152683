package io.durableagents.workflows.tools;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What an external tool returned.
 *
 * @param toolCallId the call this answers
 * @param name the tool
 * @param output the tool's output, or the reason it could not run
 * @param error true when {@code output} explains an error the agent should correct
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolExecutionResult(String toolCallId, String name, String output, boolean error) {}
