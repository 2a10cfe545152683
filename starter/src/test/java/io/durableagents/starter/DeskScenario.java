package io.durableagents.starter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Param;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-role scenario whose clerks call an external tool ({@code stamp}), for tests of approvals in a
 * simulation: the {@link Clerk} model stamps a form, then files it (the world action), so a clerk's step
 * waits at its stamp when {@code stamp} requires approval.
 */
final class DeskScenario implements Scenario<DeskScenario.DeskParameters> {
  static final String NAME = "desk";

  record DeskParameters(@Param(value = "how many clerks", min = 1, max = 10) int clerks) {}

  record DeskSnapshot(Map<String, Integer> filed) {}

  @Override public String name() { return NAME; }
  @Override public List<String> roles() { return List.of("clerk"); }
  @Override public Class<DeskParameters> parametersType() { return DeskParameters.class; }
  @Override public DeskParameters defaults() { return new DeskParameters(1); }
  @Override public String roleDescription(String role) { return "You stamp forms and file them."; }
  @Override public String stepPrompt(String role) { return "Stamp the form, then file it."; }

  @Override
  public ScenarioWorld create(DeskParameters p, SeededRandom random) {
    Map<String, Integer> filed = new LinkedHashMap<>();
    for (int i = 0; i < p.clerks(); i++) {
      filed.put("clerk-" + i, 0);
    }
    return new Desk(filed);
  }

  @Override
  public ScenarioWorld restore(JsonNode snapshot) {
    return new Desk(Json.MAPPER.convertValue(snapshot, DeskSnapshot.class).filed());
  }

  static final class Desk implements ScenarioWorld {
    final Map<String, Integer> filed;

    Desk(Map<String, Integer> filed) {
      this.filed = new LinkedHashMap<>(filed);
    }

    @Override public List<String> agentIds() { return List.copyOf(filed.keySet()); }
    @Override public String roleOf(String id) { return "clerk"; }
    @Override public boolean canAct(String id) { return true; }
    @Override public Observation observe(String id, int step) {
      return new Observation(step, Map.of("id", id, "filed", filed.get(id)), Map.of());
    }
    @Override public List<String> toolsOf(String role) { return List.of("stamp", "file"); }
    @Override public List<String> worldActions() { return List.of("file"); }
    @Override public String apply(WorldAction action, SeededRandom random) {
      filed.merge(action.agentId(), 1, Integer::sum);
      return "file: done";
    }
    @Override public void endStep(int step, SeededRandom random) {}
    @Override public Map<String, Number> counts() {
      return Map.of("filed", filed.values().stream().mapToInt(Integer::intValue).sum());
    }
    @Override public Object snapshot() { return new DeskSnapshot(filed); }
  }

  /** The world action. */
  public static final class Actions {
    @Tool(name = "file", value = "Files the stamped form.")
    public String file() {
      return "requested";
    }
  }

  /** The external tool, run as an activity once approved. */
  public static final class Stamp {
    @Tool(name = "stamp", value = "Stamps a form.")
    public String stamp(@P("the form's number") String form) {
      return "stamped " + form;
    }
  }

  /** Stamps form A-38 first; once the stamp's result (or its refusal) is in, files. */
  static final class Clerk implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      boolean answered = request.messages().stream().anyMatch(m -> m instanceof ToolExecutionResultMessage);
      ToolExecutionRequest call = answered
          ? ToolExecutionRequest.builder().id("call_2").name("file").arguments("{}").build()
          : ToolExecutionRequest.builder().id("call_1").name("stamp").arguments("{\"form\":\"A-38\"}").build();
      return ChatResponse.builder().aiMessage(AiMessage.from(call)).modelName("clerk-1")
          .tokenUsage(new TokenUsage(50, 10)).finishReason(FinishReason.TOOL_EXECUTION).build();
    }
  }
}
