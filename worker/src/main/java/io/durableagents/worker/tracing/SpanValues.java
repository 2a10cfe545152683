package io.durableagents.worker.tracing;

import io.durableagents.workflows.llm.TokenUsage;
import io.opentelemetry.api.common.AttributesBuilder;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;

/**
 * What the tracers put on spans besides their own: an {@code invoke_agent} span's agent and model, token
 * usage, a failure's type (never its message), and a number read from a trace header.
 */
final class SpanValues {
  private SpanValues() {}

  /** The GenAI attributes of an {@code invoke_agent} span: the agent and its model. */
  static void invokeAgent(AttributesBuilder a, String agent, String model) {
    a.put(TraceAttributes.GEN_AI_OPERATION_NAME, "invoke_agent");
    a.put(TraceAttributes.GEN_AI_AGENT_NAME, String.valueOf(agent));
    if (model != null) {
      int colon = model.indexOf(':');
      a.put(TraceAttributes.GEN_AI_REQUEST_MODEL, colon > 0 ? model.substring(colon + 1) : model);
      a.put(TraceAttributes.MODEL_REFERENCE, model);
    }
  }

  /** Input and output tokens, when there is a usage. */
  static void usage(AttributesBuilder a, TokenUsage usage) {
    if (usage != null) {
      a.put(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS, usage.input());
      a.put(TraceAttributes.GEN_AI_USAGE_OUTPUT_TOKENS, usage.output());
    }
  }

  /** A failure's type: its application failure's type, else the exception's class. */
  static String errorType(Throwable e) {
    if (e instanceof ApplicationFailure f && f.getType() != null) {
      return f.getType();
    }
    if (e instanceof TemporalFailure && e.getCause() instanceof ApplicationFailure f && f.getType() != null) {
      return f.getType();
    }
    return e.getClass().getSimpleName();
  }

  /** {@code value} as a number, or {@code otherwise}. */
  static long parseLong(String value, long otherwise) {
    try {
      return value == null ? otherwise : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }
}
