package io.durableagents.workflows.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Checks a tool call's arguments against the tool's JSON schema: what the worker hands to workflows (in
 * {@link ToolPolicies}) so that an approval's {@code edit} validator can refuse arguments that do not fit
 * before anything reaches the history. Pure and deterministic: it reads the schema and the arguments only.
 */
@FunctionalInterface
public interface ToolArgumentCheck {
  /** No schema known: any JSON object fits. */
  ToolArgumentCheck OBJECT_ONLY = (tool, arguments) -> arguments == null || arguments.isObject()
      ? List.of() : List.of("the arguments must be a JSON object, got " + arguments);

  /** What is wrong with {@code arguments} for {@code tool}; empty when they fit. */
  List<String> problems(String tool, JsonNode arguments);
}
