package io.durableagents.worker.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.workflows.llm.TokenUsage;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.api.enums.v1.RetryState;
import org.junit.jupiter.api.Test;

/** What the tracers put on spans: a failure's type and never its message, an agent's model, token usage. */
class SpanValuesTest {
  @Test
  void aFailuresTypeIsItsApplicationFailuresTypeOrItsClassNeverItsMessage() {
    ApplicationFailure typed = ApplicationFailure.newFailure("the prompt was ...", "RateLimited");
    assertEquals("RateLimited", SpanValues.errorType(typed));
    assertEquals("RateLimited", SpanValues.errorType(new ActivityFailure("failed", 5, 6, "LlmChat", "1",
        RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE, "worker", typed)));
    assertEquals("IllegalStateException", SpanValues.errorType(new IllegalStateException("secret")));
  }

  @Test
  void anAgentsModelIsNamedWithoutItsProviderAndUsageIsOmittedWhenThereIsNone() {
    AttributesBuilder a = Attributes.builder();
    SpanValues.invokeAgent(a, "cop-1", "openai:gpt-4o-mini");
    SpanValues.usage(a, new TokenUsage(12, 3));
    SpanValues.usage(a, null);
    Attributes built = a.build();
    assertEquals("gpt-4o-mini", built.get(TraceAttributes.GEN_AI_REQUEST_MODEL));
    assertEquals("openai:gpt-4o-mini", built.get(TraceAttributes.MODEL_REFERENCE));
    assertEquals("cop-1", built.get(TraceAttributes.GEN_AI_AGENT_NAME));
    assertEquals(12L, built.get(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS));
    assertEquals(7, SpanValues.parseLong("x", 7));
    assertEquals(3, SpanValues.parseLong("3", 7));
  }
}
