package io.durableagents.workflows.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.durableagents.api.Json;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A group's input written from its agents' parts is, byte for byte, what writing the group writes, and
 * each agent's input size is what writing it alone gives: the simulation's groups, sizes and waves do
 * not change when it writes each agent once.
 */
class AgentGroupInputPartsTest {
  private static List<AgentStepInput> citizens() {
    EpsteinParameters p = new EpsteinParameters(20, 20, 160, 40, 5, 0.5, 0.1, 2.3, 30);
    EpsteinWorld world = EpsteinWorld.create(p, new SeededRandom(7));
    AgentOptions options = AgentOptions.newBuilder().setStrategy(Strategy.COT).build();
    List<AgentStepInput> inputs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String id = "citizen-" + i;
      // plans, memories and text that JSON escapes or writes in several bytes, on some agents only
      Plan plan = i % 3 == 0 ? null : new Plan(1, "Thought: \"go\" \u00e9\u4e2d\n\tAction: move_one_step", 2);
      AgentMemory memory = i % 4 == 0 ? null : new AgentMemory(MemoryKind.SHORT_TERM,
          List.of(new MemoryEntry(1, "you did: move \u2192 East"), new MemoryEntry(2, "quiet", 3)), null, 0);
      inputs.add(new AgentStepInput("sim-parts", EpsteinScenario.NAME, id, EpsteinScenario.CITIZEN,
          world.observe(id, 2), plan, world.toolsOf(EpsteinScenario.CITIZEN), EpsteinScenario.WORLD_ACTIONS,
          options, memory));
    }
    return inputs;
  }

  @Test
  void sizesAndGroupsAreTheBytesOfWritingThemWhole() throws Exception {
    List<AgentStepInput> agents = citizens();
    AgentGroupInputParts parts = AgentGroupInputParts.of(agents);
    for (int i = 0; i < agents.size(); i++) {
      assertEquals(Json.MAPPER.writeValueAsBytes(agents.get(i)).length, parts.inputSize(i), "agent " + i);
    }
    for (int[] range : new int[][] {{0, 12}, {0, 1}, {3, 8}, {11, 12}}) {
      byte[] whole = Json.MAPPER.writeValueAsBytes(
          new AgentGroupStepInput(agents.subList(range[0], range[1])));
      assertArrayEquals(whole, parts.group(range[0], range[1]), range[0] + ".." + range[1]);
      assertEquals(new AgentGroupStepInput(agents.subList(range[0], range[1])),
          Json.MAPPER.readValue(parts.group(range[0], range[1]), AgentGroupStepInput.class));
    }
  }

  @Test
  void agentsThatDoNotShareTheirRolesPartAreWrittenWhole() {
    List<AgentStepInput> agents = new ArrayList<>(citizens());
    AgentStepInput last = agents.remove(agents.size() - 1);
    agents.add(new AgentStepInput(last.simulationId(), last.scenario(), last.agentId(), last.role(),
        last.observation(), last.plan(), List.of("move_one_step"), last.worldActions(), last.options(),
        last.memory()));
    assertNull(AgentGroupInputParts.of(agents));
    assertNull(AgentGroupInputParts.of(List.of()));
  }
}
