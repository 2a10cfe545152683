package io.durableagents.activities.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import io.durableagents.activities.tools.ToolCallValidator;
import io.durableagents.workflows.llm.ToolCall;
import java.util.List;
import java.util.Map;

/**
 * Checks a tool call of the model against the tools it was offered: a tool that was not offered,
 * arguments that are not JSON, or arguments that do not fit the tool's schema come back as a {@link
 * ToolCall} with {@code error} set, for the agent to correct.
 */
final class ToolCallCheck {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ToolCallCheck() {}

  /** Checks one tool call of the model against the tools it was offered. */
  static ToolCall checkToolCall(
      ToolExecutionRequest r, int index, Map<String, ToolSpecification> offered) {
    // Deterministic, so that a replayed or retried step names the call the same way.
    String id = r.id() == null || r.id().isBlank() ? "call-" + (index + 1) : r.id();
    String name = r.name();
    String raw = r.arguments() == null || r.arguments().isBlank() ? "{}" : r.arguments();
    JsonNode args;
    String parseError = null;
    try {
      args = MAPPER.readTree(raw);
    } catch (JsonProcessingException e) {
      args = null;
      parseError = e.getOriginalMessage();
    }
    ToolSpecification spec = offered.get(name);
    if (spec == null) {
      return new ToolCall(id, name, args, args == null ? raw : null, "unknown tool '" + name
          + "'; available tools: " + (offered.isEmpty() ? "none" : String.join(", ", offered.keySet())));
    }
    if (args == null) {
      return new ToolCall(id, name, null, raw,
          "the arguments of " + name + " are not valid JSON (" + LlmFailures.firstLine(parseError) + ")");
    }
    List<String> problems = ToolCallValidator.validate(spec, args);
    if (!problems.isEmpty()) {
      return new ToolCall(id, name, args, null,
          "the arguments of " + name + " do not fit its schema: " + String.join("; ", problems));
    }
    return ToolCall.of(id, name, args);
  }
}
