package io.durableagents.activities.spec;

/**
 * A spec that cannot run: the message names the field ({@code spec.reasoning.pattern}) and what is
 * allowed there.
 */
public class AgentSpecException extends IllegalArgumentException {
  private final String field;

  public AgentSpecException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** The field at fault, as a dotted path from the document's root. */
  public String field() {
    return field;
  }
}
