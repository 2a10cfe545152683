package io.durableagents.activities.metrics;

import io.durableagents.workflows.llm.TokenUsage;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our own metrics, recorded by the activities: LLM calls, their latency and tokens by model and
 * strategy, tool calls and tool errors by tool. (Agent steps are counted by the workflows through
 * Temporal's replay-safe metrics scope; see {@link MetricNames}.) Prometheus names get a {@code _total}
 * or {@code _seconds} suffix.
 */
public final class AgentMetrics {
  private final MeterRegistry registry;
  private final Map<List<String>, AtomicInteger> slotCalls = new ConcurrentHashMap<>();

  public AgentMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Metrics that go nowhere. */
  public static AgentMetrics none() {
    return new AgentMetrics(new CompositeMeterRegistry());
  }

  /** One finished LLM call; {@code outcome} is {@code ok} or a failure type. */
  public void llmCall(String model, String purpose, String outcome, Duration latency, TokenUsage usage) {
    String strategy = strategyOf(purpose);
    registry.counter(MetricNames.LLM_CALLS, "model", model, "strategy", strategy, "outcome", outcome)
        .increment();
    registry.timer(MetricNames.LLM_LATENCY, "model", model, "strategy", strategy).record(latency);
    if (usage != null) {
      registry.counter(MetricNames.LLM_TOKENS, "model", model, "strategy", strategy, "direction", "input")
          .increment(usage.input());
      registry.counter(MetricNames.LLM_TOKENS, "model", model, "strategy", strategy, "direction", "output")
          .increment(usage.output());
    }
  }

  /** An LLM call of {@code model} waited {@code waited} for one of its model's slots. */
  public void llmSlotWait(String model, Duration waited) {
    registry.timer(MetricNames.LLM_SLOT_WAIT, "model", model).record(waited);
  }

  /**
   * The gauge of this worker's calls of {@code model} in {@code state} ({@code waiting} for a slot, or
   * {@code running} with one): increment it when a call enters the state, decrement it when it leaves.
   */
  public AtomicInteger llmSlotCalls(String model, String state) {
    return slotCalls.computeIfAbsent(List.of(model, state), k -> registry.gauge(MetricNames.LLM_SLOT_CALLS,
        Tags.of("model", model, "state", state), new AtomicInteger()));
  }

  /**
   * One answer cut at an output limit: {@code by} {@code model} (finish reason length: the maximum
   * output tokens sent, or the model's own limit) or {@code worker} ({@code DURABLE_AGENTS_MAX_OUTPUT_BYTES}).
   */
  public void llmCut(String model, String purpose, String by) {
    registry.counter(MetricNames.LLM_CUT_ANSWERS, "model", model, "purpose", purpose == null ? "none" : purpose,
        "by", by).increment();
  }

  /** One tool call; {@code error} when it could not serve the request or threw. */
  public void toolCall(String tool, boolean error) {
    registry.counter(MetricNames.TOOL_CALLS, "tool", tool).increment();
    if (error) {
      registry.counter(MetricNames.TOOL_ERRORS, "tool", tool).increment();
    }
  }

  /** {@code cot-reasoning} -> {@code cot}; purposes name their strategy first. */
  static String strategyOf(String purpose) {
    if (purpose == null || purpose.isBlank()) {
      return "none";
    }
    int dash = purpose.indexOf('-');
    return dash < 0 ? purpose : purpose.substring(0, dash);
  }
}
