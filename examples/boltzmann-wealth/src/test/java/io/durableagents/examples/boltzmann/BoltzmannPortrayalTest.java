package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The world as a view draws it: the torus, each person in its cell, coloured by its money. */
class BoltzmannPortrayalTest {
  @Test
  void drawsEachPersonInItsCellColouredByWealth() {
    List<Person> people = List.of(new Person("person-0", new Cell(0, 1), 0),
        new Person("person-1", new Cell(4, 4), 2), new Person("person-2", new Cell(4, 4), 5));
    BoltzmannWorld world = BoltzmannWorld.restore(
        new BoltzmannSnapshot(new BoltzmannParameters(3, 5, 6, 2, 2), people));

    Portrayal drawn = world.portrayal();

    assertEquals(new Portrayal.Grid(5, 6), drawn.grid());
    assertEquals(List.of("#d62728", "#1f77b4", "#2ca02c"), drawn.agents().stream().map(AgentPortrayal::color).toList());
    AgentPortrayal rich = drawn.agents().get(2);
    assertEquals(List.of(4, 4, "5", 5), List.of(rich.x(), rich.y(), rich.label(), rich.attributes().get("wealth")));
    assertEquals("person", rich.role());
  }
}
