package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One call to a model, as the workflow asks for it.
 *
 * <p>It names tools and the model; it holds no tool schema and no secret. The activity resolves the
 * model name against the worker's configuration (where API keys live) and the tool names against its
 * tool registry.
 *
 * @param model a model reference: {@code rules}, or {@code <provider>:<model>} such as {@code
 *     openai:gpt-4o-mini}, {@code anthropic:claude-sonnet-4-5}, {@code ollama:llama3.2}
 * @param messages the conversation
 * @param tools the tools the model sees (possibly empty)
 * @param toolChoice whether it may, must or must not call them
 * @param temperature sampling temperature, or null for the provider's default
 * @param purpose a short label of why the call is made ({@code cot-reasoning}, {@code cot-execution}),
 *     shown in history and metrics
 * @param responseFormat {@link ResponseFormat#JSON} asks the provider for a JSON answer where it has
 *     such a mode (OpenAI-compatible servers, Ollama, models registered by name; not Anthropic, whose
 *     client rejects schemaless JSON); null or {@link ResponseFormat#TEXT}: plain text. A JSON request
 *     that offers tools with tool choice {@link ToolChoice#NONE} is a ReWOO planner call: the activity
 *     returns the plan's steps as {@link LlmResponse#toolCalls()} checked against the tools' schemas
 * @param agent the agent the call is made for, or null: the worker's logs name it (several agents'
 *     calls can share one workflow, see {@code AgentGroupStepWorkflow})
 * @param maxOutputTokens the run's or role's maximum output length in tokens ({@code
 *     AgentOptions.maxOutputTokens}; 0: send none), or null (omitted): the worker decides by its {@code
 *     DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS} and the default of the call's purpose. The number actually
 *     sent is {@link LlmResponse#maxOutputTokens()}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LlmRequest(
    String model,
    List<ChatTurn> messages,
    List<String> tools,
    ToolChoice toolChoice,
    Double temperature,
    String purpose,
    ResponseFormat responseFormat,
    String agent,
    Integer maxOutputTokens) {

  /** The form of answer a call asks for. */
  public enum ResponseFormat {
    TEXT,
    JSON
  }

  /** A request for a plain-text (or tool-calling) answer. */
  public LlmRequest(String model, List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice,
      Double temperature, String purpose) {
    this(model, messages, tools, toolChoice, temperature, purpose, null);
  }

  /** A request with no maximum output length of its own. */
  public LlmRequest(String model, List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice,
      Double temperature, String purpose, ResponseFormat responseFormat, String agent) {
    this(model, messages, tools, toolChoice, temperature, purpose, responseFormat, agent, null);
  }

  /** A request that names no agent. */
  public LlmRequest(String model, List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice,
      Double temperature, String purpose, ResponseFormat responseFormat) {
    this(model, messages, tools, toolChoice, temperature, purpose, responseFormat, null);
  }

  /** This request, made for {@code agent}. */
  public LlmRequest forAgent(String agent) {
    return new LlmRequest(
        model, messages, tools, toolChoice, temperature, purpose, responseFormat, agent, maxOutputTokens);
  }

  /** This request with the run's or role's maximum output length ({@code null}: the worker decides). */
  public LlmRequest withMaxOutputTokens(Integer maxOutputTokens) {
    return new LlmRequest(
        model, messages, tools, toolChoice, temperature, purpose, responseFormat, agent, maxOutputTokens);
  }

  public LlmRequest {
    messages = messages == null ? List.of() : List.copyOf(messages);
    tools = tools == null ? List.of() : List.copyOf(tools);
    toolChoice = toolChoice == null ? ToolChoice.PROVIDER_DEFAULT : toolChoice;
    if (maxOutputTokens != null && maxOutputTokens < 0) {
      throw new IllegalArgumentException("maxOutputTokens must be 0 (none sent) or more, was " + maxOutputTokens);
    }
  }
}
