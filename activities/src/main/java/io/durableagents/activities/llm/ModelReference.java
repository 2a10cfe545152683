package io.durableagents.activities.llm;

/**
 * A model reference as workflows name it: a registered name such as {@code rules}, or {@code
 * <provider>:<model>} with provider {@code openai}, {@code anthropic} or {@code ollama}.
 *
 * @param provider the provider, or null for a registered name
 * @param model the provider's model name, or the registered name
 */
public record ModelReference(String provider, String model) {
  public static final String OPENAI = "openai";
  public static final String ANTHROPIC = "anthropic";
  public static final String OLLAMA = "ollama";

  /** The allowed forms, for error messages. */
  public static final String ALLOWED =
      "rules, or openai:<model>, anthropic:<model>, ollama:<model>";

  /**
   * Parses a reference.
   *
   * @throws IllegalArgumentException naming the allowed forms
   */
  public static ModelReference parse(String reference) {
    if (reference == null || reference.isBlank()) {
      throw new IllegalArgumentException("empty model reference; allowed: " + ALLOWED);
    }
    int colon = reference.indexOf(':');
    if (colon < 0) {
      return new ModelReference(null, reference.trim());
    }
    String provider = reference.substring(0, colon).trim();
    String model = reference.substring(colon + 1).trim();
    if (!(provider.equals(OPENAI) || provider.equals(ANTHROPIC) || provider.equals(OLLAMA))
        || model.isEmpty()) {
      throw new IllegalArgumentException(
          "model reference '" + reference + "' is not one of: " + ALLOWED);
    }
    return new ModelReference(provider, model);
  }

  @Override
  public String toString() {
    return provider == null ? model : provider + ":" + model;
  }
}
