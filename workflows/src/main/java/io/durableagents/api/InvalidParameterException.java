package io.durableagents.api;

/**
 * A scenario parameter whose value is not allowed. Its message names the scenario, the parameter, the
 * value and what is allowed; a simulation started with such a value fails at once, without retries,
 * with that message.
 *
 * <pre>{@code
 * if (p.citizens() + p.cops() > p.width() * p.height()) {
 *   throw new InvalidParameterException("citizens", p.citizens(),
 *       "at most width x height - cops = " + (p.width() * p.height() - p.cops()));
 * }
 * }</pre>
 */
public class InvalidParameterException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String parameter;
  private final String allowed;

  /**
   * @param parameter the parameter's name, as the user writes it ({@code max_jail_term})
   * @param value the value given
   * @param allowed what is allowed, in words ({@code "an integer from 0 to 1000"})
   */
  public InvalidParameterException(String parameter, Object value, String allowed) {
    super("parameter " + parameter + " = " + value + " is not allowed: " + allowed);
    this.parameter = parameter;
    this.allowed = allowed;
  }

  /** An error about the parameters as a whole, or with a message of the caller's own. */
  public InvalidParameterException(String parameter, String message) {
    super(message);
    this.parameter = parameter;
    this.allowed = null;
  }

  /** The parameter's name, or null when the error is about the parameters as a whole. */
  public String parameter() {
    return parameter;
  }

  /** What is allowed, or null. */
  public String allowed() {
    return allowed;
  }
}
