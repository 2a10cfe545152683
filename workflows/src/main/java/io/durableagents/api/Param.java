package io.durableagents.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one parameter of a scenario: a component of its parameters record. The one declaration
 * from which the command line's {@code --param} values are read and checked, {@code help simulate
 * --scenario <name>} lists the parameter, and the workflow validates the value it gets.
 *
 * <pre>{@code
 * public record WealthParameters(
 *     @Param(value = "how many agents", min = 1, max = 10_000) int agents,
 *     @Param(value = "grid width", min = 1) int width,
 *     @Param(value = "money each agent starts with", min = 0) int startingMoney) {}
 * }</pre>
 *
 * <p>The parameter's name is the component's name in snake_case ({@code startingMoney} is {@code
 * starting_money}), in the command line, in the workflow input's JSON and in error messages.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD})
public @interface Param {
  /** What the parameter means, in a few words (shown by {@code help simulate --scenario}). */
  String value();

  /** The smallest allowed value of a numeric parameter (inclusive). */
  double min() default Double.NEGATIVE_INFINITY;

  /** The largest allowed value of a numeric parameter (inclusive). */
  double max() default Double.POSITIVE_INFINITY;

  /**
   * Whether the parameter may change while a simulation runs ({@code intervene <id> --param ...}, a
   * fork's {@code --param}): the scenario's {@link Scenario#adjust} applies the new value to the world
   * at a step boundary. Parameters that shape the world when it is made (its size, how many agents)
   * are not.
   */
  boolean adjustable() default false;
}
