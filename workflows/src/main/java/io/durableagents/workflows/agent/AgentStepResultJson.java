package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.durableagents.api.WorldAction;
import io.durableagents.workflows.llm.TokenUsage;
import java.io.IOException;
import java.util.List;

/**
 * How an {@link AgentStepResult} is written to JSON (the agent step's result in history, and again in
 * the simulation's history): as its fields, except that a reasoning equal to the text of the plan the
 * step returns (every CoT step's, and a ReAct step's) is written once, in the plan, with {@code
 * "reasoningIsPlan": true} in its place. Read back, the result is the same; a result written before
 * (with {@code reasoning} beside the plan) reads as it always did.
 */
final class AgentStepResultJson {
  private AgentStepResultJson() {}

  /** The fields as they are written. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Wire(
      String agentId,
      int step,
      @JsonInclude(JsonInclude.Include.NON_NULL) String reasoning,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean reasoningIsPlan,
      List<WorldAction> actions,
      List<ToolOutcome> toolOutcomes,
      Plan plan,
      TokenUsage usage,
      int llmCalls,
      int toolCalls,
      String forcedFinish,
      boolean planMade,
      boolean planStepReused,
      int replans,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
      @JsonInclude(JsonInclude.Include.NON_NULL) String failure) {}

  static final class Serializer extends JsonSerializer<AgentStepResult> {
    @Override
    public void serialize(AgentStepResult r, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      boolean inPlan = r.reasoning() != null && r.plan() != null && r.reasoning().equals(r.plan().llmPlan());
      provider.defaultSerializeValue(new Wire(r.agentId(), r.step(), inPlan ? null : r.reasoning(), inPlan,
          r.actions(), r.toolOutcomes(), r.plan(), r.usage(), r.llmCalls(), r.toolCalls(), r.forcedFinish(),
          r.planMade(), r.planStepReused(), r.replans(), r.warnings(), r.failure()), gen);
    }
  }

  static final class Deserializer extends JsonDeserializer<AgentStepResult> {
    @Override
    public AgentStepResult deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Wire w = p.readValueAs(Wire.class);
      String reasoning = w.reasoningIsPlan() && w.plan() != null ? w.plan().llmPlan() : w.reasoning();
      return new AgentStepResult(w.agentId(), w.step(), reasoning, w.actions(), w.toolOutcomes(), w.plan(),
          w.usage(), w.llmCalls(), w.toolCalls(), w.forcedFinish(), w.planMade(), w.planStepReused(),
          w.replans(), w.warnings(), w.failure());
    }
  }
}
