package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One person of the Boltzmann wealth model (Mesa's {@code MoneyAgent}): where it is and how much money
 * it has. Part of the world's snapshot, so it is a record Jackson reads back.
 *
 * @param id its id, {@code person-3}
 * @param cell the cell it is in
 * @param wealth the units of money it has
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Person(String id, Cell cell, int wealth) {
  Person movedTo(Cell to) {
    return new Person(id, to, wealth);
  }

  Person withWealth(int units) {
    return new Person(id, cell, units);
  }
}
