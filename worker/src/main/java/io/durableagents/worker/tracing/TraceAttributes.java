package io.durableagents.worker.tracing;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The attributes of our spans, in one place: the OpenTelemetry GenAI semantic conventions' {@code
 * gen_ai.*} (operation, model, token usage, tool name, agent), Temporal's ids under {@code temporal.*}
 * and ours under {@code durable_agents.*}. None of them ever holds a prompt, a model's answer, a tool's
 * arguments or output, or a key.
 */
public final class TraceAttributes {
  private TraceAttributes() {}

  /** {@code chat} for an LLM call, {@code execute_tool} for a tool call, {@code invoke_agent} for an agent. */
  public static final AttributeKey<String> GEN_AI_OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
  /** The model asked for: the name after the provider in a reference ({@code gpt-4o-mini} of {@code openai:gpt-4o-mini}). */
  public static final AttributeKey<String> GEN_AI_REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
  /** The provider of a {@code provider:model} reference ({@code openai}, {@code anthropic}, {@code ollama}). */
  public static final AttributeKey<String> GEN_AI_PROVIDER_NAME = AttributeKey.stringKey("gen_ai.provider.name");
  /** The model that answered, as the provider named it. */
  public static final AttributeKey<String> GEN_AI_RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
  /** Why the model stopped. */
  public static final AttributeKey<List<String>> GEN_AI_RESPONSE_FINISH_REASONS =
      AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
  /** Input (prompt) tokens of a call, or of all the calls of an agent step or a simulation. */
  public static final AttributeKey<Long> GEN_AI_USAGE_INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
  /** Output (completion) tokens. */
  public static final AttributeKey<Long> GEN_AI_USAGE_OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
  /** The tool a tool call runs. */
  public static final AttributeKey<String> GEN_AI_TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
  /** The model's id of the tool call. */
  public static final AttributeKey<String> GEN_AI_TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
  /** The agent of an agent step (its id in the simulation) or a spec's name. */
  public static final AttributeKey<String> GEN_AI_AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");

  /** The simulation's workflow id. */
  public static final AttributeKey<String> SIMULATION_ID = AttributeKey.stringKey("durable_agents.simulation.id");
  /** The simulation step (1-based). */
  public static final AttributeKey<Long> SIMULATION_STEP = AttributeKey.longKey("durable_agents.simulation.step");
  /** The scenario a simulation runs. */
  public static final AttributeKey<String> SCENARIO = AttributeKey.stringKey("durable_agents.scenario");
  /** The agent's id in its simulation. */
  public static final AttributeKey<String> AGENT_ID = AttributeKey.stringKey("durable_agents.agent.id");
  /** The agent's role. */
  public static final AttributeKey<String> AGENT_ROLE = AttributeKey.stringKey("durable_agents.agent.role");
  /** The reasoning strategy ({@code cot}, {@code react}, {@code rewoo}). */
  public static final AttributeKey<String> STRATEGY = AttributeKey.stringKey("durable_agents.strategy");
  /** The model reference as configured ({@code openai:gpt-4o-mini}, {@code rules}). */
  public static final AttributeKey<String> MODEL_REFERENCE = AttributeKey.stringKey("durable_agents.model");
  /** What an LLM call was for ({@code cot}, {@code react}, {@code memory}, ...): a label, never text. */
  public static final AttributeKey<String> LLM_PURPOSE = AttributeKey.stringKey("durable_agents.llm.purpose");
  /** The agent steps a simulation step ran. */
  public static final AttributeKey<Long> AGENT_STEPS = AttributeKey.longKey("durable_agents.agent_steps");
  /** The LLM calls of an agent step, a task or a simulation. */
  public static final AttributeKey<Long> LLM_CALLS = AttributeKey.longKey("durable_agents.llm_calls");
  /** The tool calls of an agent step, a task or a simulation. */
  public static final AttributeKey<Long> TOOL_CALLS = AttributeKey.longKey("durable_agents.tool_calls");
  /** How many agents a group step ran. */
  public static final AttributeKey<Long> AGENTS = AttributeKey.longKey("durable_agents.agents");
  /** Whether a tool call's result was an error the agent was told about. */
  public static final AttributeKey<Boolean> TOOL_ERROR = AttributeKey.booleanKey("durable_agents.tool.error");

  /** The workflow id of the workflow a span belongs to (the calling workflow's, for a call). */
  public static final AttributeKey<String> WORKFLOW_ID = AttributeKey.stringKey("temporal.workflow.id");
  /** The run id: for a workflow that continued as new, the run in which its span ended. */
  public static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("temporal.run.id");
  /** The workflow type. */
  public static final AttributeKey<String> WORKFLOW_TYPE = AttributeKey.stringKey("temporal.workflow.type");
  /** How many runs a workflow that continued as new took. */
  public static final AttributeKey<Long> RUNS = AttributeKey.longKey("temporal.workflow.runs");
  /** The activity id of a call. */
  public static final AttributeKey<String> ACTIVITY_ID = AttributeKey.stringKey("temporal.activity.id");
  /** The activity type of a call ({@code LlmChat}, {@code ToolExecute}, ...). */
  public static final AttributeKey<String> ACTIVITY_TYPE = AttributeKey.stringKey("temporal.activity.type");
  /** The attempt of a call (1 for the first; a retry has its own span). */
  public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("temporal.activity.attempt");

  /** The failure type of a span that ended in error (a failure type constant or an exception class). */
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
}
