package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The whole state of a {@link BoltzmannWorld}: the parameters and every person, in the world's order.
 * It travels in a continued run's input (continue-as-new) and answers the simulation's {@code world}
 * query.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BoltzmannSnapshot(BoltzmannParameters parameters, List<Person> people) {
  public BoltzmannSnapshot {
    people = people == null ? List.of() : List.copyOf(people);
  }
}
