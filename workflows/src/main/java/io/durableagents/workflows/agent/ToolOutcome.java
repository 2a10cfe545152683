package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What became of one tool call during an agent step: an external tool's output, or the reason a call
 * was rejected (unknown tool, arguments that don't fit, a tool that kept failing).
 *
 * @param toolCallId the model's id for the call
 * @param tool the tool's name
 * @param output the output or the error, as the agent sees it
 * @param error true when {@code output} is an error
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolOutcome(String toolCallId, String tool, String output, boolean error) {}
