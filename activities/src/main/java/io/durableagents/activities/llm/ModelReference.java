package io.durableagents.activities.llm;

import java.util.Locale;

/**
 * A model reference as workflows name it: a name registered on the worker, such as {@code rules} (the
 * offline rule-based policy), or {@code <provider>:<model>} with provider {@code openai}, {@code
 * anthropic} or {@code ollama}.
 *
 * <pre>{@code
 * ModelReference.parse("openai:gpt-4o-mini");  // provider "openai", model "gpt-4o-mini"
 * ModelReference.parse("ollama:llama3.2:1b");  // provider "ollama", model "llama3.2:1b"
 * ModelReference.parse("rules");               // a registered name: provider null, model "rules"
 * ModelReference.parse("mistral:large");       // IllegalArgumentException naming the allowed forms
 * }</pre>
 *
 * @param provider the provider ({@link #OPENAI}, {@link #ANTHROPIC}, {@link #OLLAMA}), or null for a
 *     registered name
 * @param model the provider's model name, or the registered name
 */
public record ModelReference(String provider, String model) {
  public static final String OPENAI = "openai";
  public static final String ANTHROPIC = "anthropic";
  public static final String OLLAMA = "ollama";

  /** The allowed forms, for error messages. */
  public static final String ALLOWED =
      "a registered name such as 'rules', or openai:<model>, anthropic:<model>, ollama:<model>"
          + " (e.g. openai:gpt-4o-mini, ollama:llama3.2)";

  /**
   * Parses a reference. The provider is matched case-insensitively; the model name is kept as given
   * (it may contain colons, as Ollama's tags do).
   *
   * @throws IllegalArgumentException naming the allowed forms, when the reference is empty, names an
   *     unknown provider or has no model after the colon
   */
  public static ModelReference parse(String reference) {
    if (reference == null || reference.isBlank()) {
      throw new IllegalArgumentException("the model reference is empty; allowed: " + ALLOWED);
    }
    String text = reference.trim();
    int colon = text.indexOf(':');
    if (colon < 0) {
      if (text.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException(
            "model reference '" + reference + "' is not one of: " + ALLOWED);
      }
      return new ModelReference(null, text);
    }
    String provider = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
    String model = text.substring(colon + 1).trim();
    if (!(provider.equals(OPENAI) || provider.equals(ANTHROPIC) || provider.equals(OLLAMA))) {
      throw new IllegalArgumentException("model reference '" + reference + "' names an unknown provider '"
          + provider + "'; allowed: " + ALLOWED);
    }
    if (model.isEmpty()) {
      throw new IllegalArgumentException(
          "model reference '" + reference + "' names no model after the colon; allowed: " + ALLOWED);
    }
    return new ModelReference(provider, model);
  }

  /** True for a name registered on the worker (no provider). */
  public boolean isRegisteredName() {
    return provider == null;
  }

  @Override
  public String toString() {
    return provider == null ? model : provider + ":" + model;
  }
}
