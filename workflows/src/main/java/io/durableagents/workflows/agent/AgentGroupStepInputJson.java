package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.durableagents.api.Observation;
import io.durableagents.workflows.memory.AgentMemory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How an {@link AgentGroupStepInput} is written to JSON: what every agent of the group shares (the
 * simulation, scenario, role, tools, world actions and options) once, in {@code shared}, and each agent
 * with only its own (id, observation, plan, memory) in {@code members}, instead of every agent's input
 * repeating the shared part. A group whose agents do not all share it is written as before, {@code
 * agents} with one whole input each; both forms read back as the same inputs.
 */
final class AgentGroupStepInputJson {
  private AgentGroupStepInputJson() {}

  /** What the agents of a group share. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Shared(String simulationId, String scenario, String role, List<String> tools, List<String> worldActions,
      AgentOptions options) {
    static Shared of(AgentStepInput in) {
      return new Shared(in.simulationId(), in.scenario(), in.role(), in.tools(), in.worldActions(), in.options());
    }
  }

  /** One agent's own part. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Member(String agentId, Observation observation, Plan plan, AgentMemory memory) {
    static Member of(AgentStepInput in) {
      return new Member(in.agentId(), in.observation(), in.plan(), in.memory());
    }
  }

  /**
   * The agents' own parts, when they all share the first one's {@link Shared} part; null when they do
   * not (or there are none), and the group is written whole.
   */
  static List<Member> members(List<AgentStepInput> agents) {
    if (agents.isEmpty()) {
      return null;
    }
    Shared shared = Shared.of(agents.get(0));
    List<Member> members = new ArrayList<>(agents.size());
    for (AgentStepInput in : agents) {
      if (!Objects.equals(shared, Shared.of(in))) {
        return null;
      }
      members.add(Member.of(in));
    }
    return members;
  }

  /** The fields as they are written: {@code shared} and {@code members}, or {@code agents}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Wire(Shared shared, List<Member> members, List<AgentStepInput> agents) {}

  static final class Serializer extends JsonSerializer<AgentGroupStepInput> {
    @Override
    public void serialize(AgentGroupStepInput group, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      List<AgentStepInput> agents = group.agents();
      List<Member> members = members(agents);
      gen.writeStartObject();
      if (members != null) {
        gen.writeFieldName("shared");
        provider.defaultSerializeValue(Shared.of(agents.get(0)), gen);
        gen.writeFieldName("members");
        provider.defaultSerializeValue(members, gen);
      } else {
        gen.writeFieldName("agents");
        provider.defaultSerializeValue(agents, gen);
      }
      gen.writeEndObject();
    }
  }

  static final class Deserializer extends JsonDeserializer<AgentGroupStepInput> {
    @Override
    public AgentGroupStepInput deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Wire w = p.readValueAs(Wire.class);
      if (w.shared() == null || w.members() == null) {
        return new AgentGroupStepInput(w.agents());
      }
      Shared s = w.shared();
      List<AgentStepInput> agents = new ArrayList<>();
      for (Member m : w.members()) {
        agents.add(new AgentStepInput(s.simulationId(), s.scenario(), m.agentId(), s.role(), m.observation(),
            m.plan(), s.tools(), s.worldActions(), s.options(), m.memory()));
      }
      return new AgentGroupStepInput(agents);
    }
  }
}
