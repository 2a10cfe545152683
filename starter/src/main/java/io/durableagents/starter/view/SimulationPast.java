package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the view reads of a simulation's past: the world after a step and one agent at a step, read
 * from the recorded histories by replay, never from a worker or a model. JSON shapes: docs/viewing.md.
 */
public interface SimulationPast {
  /**
   * The world after {@code step}: {@code {"step": n, "grid": {"width": w, "height": h} or null,
   * "agents": [{"id", "role", "x", "y", "color", "shape", "label", "state", "attributes": {...}}],
   * "legend": [{"role", "color", "shape", "meaning", "label"}]}}: {@code state} as the legend names it
   * ({@code jailed (sentence 3)}).
   */
  JsonNode world(String simulationId, int step);

  /**
   * One agent at {@code step}: {@code {"agentId", "step", "workflowId", "temporalUi", "observation",
   * "memory", "plan", "remainingTtl", "llmCalls": [{"model", "purpose", "text", "inputTokens",
   * "outputTokens"}], "toolCalls": [{"name", "arguments", "result", "error"}], "actions": [...]}}; an agent
   * that took no step then has {@code "workflowId": null}, its {@code "state"} in the world it was in, a
   * {@code "note"} that says why and {@code "lastStep"}.
   */
  JsonNode agent(String simulationId, String agentId, int step);
}
