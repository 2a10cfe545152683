package io.durableagents.activities.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.mcp.client.McpCallContext;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.service.tool.ToolExecutionResult;
import io.durableagents.activities.tools.ToolCallContext;
import io.durableagents.activities.tools.ToolInvoker;
import java.util.Map;

/**
 * One tool of an MCP server as the tool activity runs it: the call goes through the worker's shared
 * client of the server, with the idempotency key in its {@code _meta} and, when the tool's schema has
 * the argument, in that argument too.
 *
 * <p>What the server says decides what the agent reads: a result is the tool's output; an error the
 * tool reports ({@code isError}) or arguments the server rejects are an error observation, never
 * retried; a timeout, a lost connection or a server that died fail the attempt, and Temporal retries
 * it (a stdio server is started again first).
 */
final class McpTool implements ToolInvoker {
  /** The text LangChain4j's client answers a timed-out call with (it does not throw). */
  static final String TIMEOUT_MESSAGE = "durable-agents: the MCP call timed out";

  /** JSON-RPC's "invalid params": the server rejects the arguments, which a retry cannot fix. */
  static final int INVALID_PARAMS = -32602;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String KEY_PARAMETER = "io.durableagents.idempotencyKey";

  private final McpServerConnection server;
  private final String tool;
  private final boolean takesIdempotencyKey;

  McpTool(McpServerConnection server, String tool, boolean takesIdempotencyKey) {
    this.server = server;
    this.tool = tool;
    this.takesIdempotencyKey = takesIdempotencyKey;
  }

  @Override
  public String invoke(JsonNode arguments, ToolCallContext call) {
    ObjectNode args = arguments instanceof ObjectNode o ? o.deepCopy() : MAPPER.createObjectNode();
    String key = call == null ? null : call.idempotencyKey();
    if (takesIdempotencyKey && key != null) {
      args.put(server.config().idempotencyArgument(), key);
    }
    dev.langchain4j.agent.tool.ToolExecutionRequest request = dev.langchain4j.agent.tool.ToolExecutionRequest
        .builder().name(tool).arguments(args.toString()).build();
    InvocationContext context = InvocationContext.builder()
        .invocationParameters(key == null ? new InvocationParameters() : InvocationParameters.from(KEY_PARAMETER, key))
        .build();
    McpClient client = server.current();
    ToolExecutionResult result;
    try {
      result = client.executeTool(request, context);
    } catch (ToolArgumentsException e) {
      throw new IllegalArgumentException(label() + ": " + e.getMessage(), e);
    } catch (ToolExecutionException e) {
      if (e.errorCode() == null || e.errorCode() == INVALID_PARAMS) {
        // The tool ran and reported an error, or the server rejected the arguments: the agent reads it.
        throw new IllegalArgumentException(label() + " reported an error: " + e.getMessage(), e);
      }
      server.reconnectIfGone(client);
      throw new McpCallFailedException(label() + " failed (error " + e.errorCode() + "): " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // A lost connection or a server that died: retried, on a fresh process for a stdio server.
      server.reconnectIfGone(client);
      throw new McpCallFailedException(label() + " failed: " + McpServerConnection.rootMessage(e), e);
    }
    String text = result.resultText();
    if (TIMEOUT_MESSAGE.equals(text)) {
      server.reconnectIfGone(client);
      throw new McpCallFailedException(label() + " did not answer within " + server.config().callTimeout()
          + " (the server's call timeout)", null);
    }
    if (result.isError()) {
      throw new IllegalArgumentException(label() + " reported an error: " + text);
    }
    return text == null ? "" : text;
  }

  /** The server's own name for the tool. */
  String tool() {
    return tool;
  }

  @Override
  public String origin() {
    return "MCP server '" + server.config().name() + "', tool '" + tool + "'";
  }

  @Override
  public String callLabel() {
    return label();
  }

  /** {@code mcp <server>/<tool>}: how the Temporal UI names its calls. */
  String label() {
    return "mcp " + server.config().name() + "/" + tool;
  }

  /** The {@code _meta} of a request: the idempotency key of the call it belongs to, if any. */
  static Map<String, Object> meta(McpCallContext context) {
    if (context == null || context.invocationContext() == null
        || context.invocationContext().invocationParameters() == null) {
      return Map.of();
    }
    Object key = context.invocationContext().invocationParameters().get(KEY_PARAMETER);
    return key == null ? Map.of() : Map.of(McpToolSet.IDEMPOTENCY_META_KEY, key);
  }

  /** A call that failed in a way a retry may fix: retried by Temporal, with the same idempotency key. */
  static final class McpCallFailedException extends RuntimeException {
    McpCallFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
