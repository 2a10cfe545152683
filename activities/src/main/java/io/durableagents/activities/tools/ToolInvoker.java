package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An external tool that is not a {@code @Tool} method: one whose schema arrives at run time, as the
 * tools of an MCP server do ({@link io.durableagents.activities.tools.mcp.McpToolSet}). Registered with
 * {@link ToolRegistry.Builder#addExternalTool(dev.langchain4j.agent.tool.ToolSpecification, ToolInvoker,
 * ToolOptions)}, its calls run as tool activities like every other external tool's, with the same
 * heartbeats, retries and idempotency key.
 *
 * <p>What it throws is read as a {@code @Tool} method's exception is: an {@link IllegalArgumentException}
 * is an error observation for the agent (bad input, never retried), an exception of a type its options
 * call non-retryable fails the call at once, anything else is retried.
 *
 * <pre>{@code
 * ToolInvoker echo = new ToolInvoker() {
 *   public String invoke(JsonNode arguments, ToolCallContext call) { return arguments.path("text").asText(); }
 *   public String origin() { return "the echo service"; }
 * };
 * }</pre>
 */
public interface ToolInvoker {
  /**
   * Runs one call.
   *
   * @param arguments the call's arguments, already checked against the tool's schema
   * @param call the call's idempotency key, attempt and heartbeats
   * @return the text the agent reads
   */
  String invoke(JsonNode arguments, ToolCallContext call) throws Exception;

  /** Where the tool comes from, for messages: {@code MCP server 'fs', tool 'read_text_file'}. */
  String origin();

  /**
   * How the Temporal UI names its calls ({@code tool: <label>}), e.g. {@code mcp fs/read_text_file};
   * null: by the tool's name.
   */
  default String callLabel() {
    return null;
  }
}
