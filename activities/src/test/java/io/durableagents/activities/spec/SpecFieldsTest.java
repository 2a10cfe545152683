package io.durableagents.activities.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

/** A spec's fields read with their names, types and ranges checked; each error names the field. */
class SpecFieldsTest {
  private static JsonNode yaml(String text) throws Exception {
    return new YAMLMapper().readTree(text);
  }

  @Test
  void aFieldNotAllowedIsNamedWithItsSectionAndTheAllowedOnes() throws Exception {
    AgentSpecException e = assertThrows(AgentSpecException.class,
        () -> SpecFields.allowOnly(yaml("max_iterations: 3\nmax_iteration: 4\n"), "spec.guardrails",
            "max_iterations", "timeout_seconds"));
    assertEquals("spec.guardrails.max_iteration", e.field());
    assertEquals("spec.guardrails.max_iteration: not a field here; allowed: max_iterations, timeout_seconds",
        e.getMessage());
  }

  @Test
  void valuesOutOfTypeOrRangeAreRefusedAndAbsentOnesTakeTheirDefault() throws Exception {
    JsonNode node = yaml("rounds: 4\ncritique: yes please\nname: x\ntemperature: 2.5\n");
    assertEquals("spec.reasoning.rounds: '4' is not an integer from 0 to 3", assertThrows(AgentSpecException.class,
        () -> SpecFields.integer(node, "spec.reasoning.rounds", "rounds", 0, 0, 3)).getMessage());
    assertEquals("critique: 'yes please' is not one of: true, false", assertThrows(AgentSpecException.class,
        () -> SpecFields.bool(node, "critique", false)).getMessage());
    assertEquals("spec.model.temperature: '2.5' is not a number from 0.0 to 2.0", assertThrows(
        AgentSpecException.class, () -> SpecFields.number(node, "spec.model.temperature", 0, 2)).getMessage());
    assertEquals(7, SpecFields.integer(node, "spec.x.absent", "absent", 7, 0, 10));
    assertEquals("x", SpecFields.text(node, "name", null));
    assertEquals("fallback", SpecFields.text(node, "absent", "fallback"));
  }
}
