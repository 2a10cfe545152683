package io.durableagents.activities.llm;

/**
 * The form shared by the per-model settings of the worker ({@link LlmRetryBudget}, {@link LlmSlotLimits},
 * {@link LlmMaxOutputTokens}): comma-separated entries, each a bare value (for every model) or {@code
 * key=value} (the key a model reference, or what else the setting allows), e.g. {@code
 * 60,openai:gpt-4o=300}. A key may itself hold {@code =} no more than a value may: the last {@code =}
 * splits an entry.
 */
final class SettingEntries {
  private SettingEntries() {}

  /** Takes one entry; throws {@link IllegalArgumentException} saying what is wrong with it. */
  interface Entry {
    /** {@code key} is null for a bare value. */
    void accept(String key, String value);
  }

  /**
   * Hands each entry of {@code text} to {@code each}, in order, skipping empty ones.
   *
   * @param emptyKey what an entry with nothing before its {@code =} is told
   * @throws IllegalArgumentException naming {@code variable}, its value, what was wrong and {@code forms}
   */
  static void parse(String variable, String text, String forms, String emptyKey, Entry each) {
    for (String entry : text.split(",")) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.lastIndexOf('=');
      try {
        if (eq < 0) {
          each.accept(null, e);
        } else {
          String key = e.substring(0, eq).trim();
          if (key.isEmpty()) {
            throw new IllegalArgumentException(emptyKey);
          }
          each.accept(key, e.substring(eq + 1).trim());
        }
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException(
            variable + "='" + text + "' is not allowed (" + bad.getMessage() + "); " + forms);
      }
    }
  }
}
