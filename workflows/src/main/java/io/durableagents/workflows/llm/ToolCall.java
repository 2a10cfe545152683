package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool call a model asked for.
 *
 * <p>The LLM activity checks every call against the tool's JSON schema before it returns. A call
 * with an unknown tool name or arguments that don't fit the schema is returned with {@code error}
 * set: it is not executed, and the error goes back to the agent as an observation it can correct.
 *
 * @param id the provider's call id (made up by the activity when the provider gives none)
 * @param name the tool's name
 * @param arguments the arguments as JSON; null when the model's text was not JSON
 * @param rawArguments the model's argument text, kept only when it could not be parsed
 * @param error why the call cannot run, or null when it is valid
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCall(
    String id, String name, JsonNode arguments, String rawArguments, String error) {

  /** A valid call. */
  public static ToolCall of(String id, String name, JsonNode arguments) {
    return new ToolCall(id, name, arguments, null, null);
  }

  /** True when the activity found nothing wrong with the call. */
  public boolean valid() {
    return error == null;
  }

  /** The arguments as compact JSON text, for prompts and messages. */
  public String argumentsText() {
    if (arguments != null) {
      return arguments.toString();
    }
    return rawArguments == null ? "{}" : rawArguments;
  }
}
