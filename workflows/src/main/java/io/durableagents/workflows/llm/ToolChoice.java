package io.durableagents.workflows.llm;

/**
 * Whether the model may, must or must not call tools, after Mesa-LLM's {@code tool_calls} choice.
 *
 * <ul>
 *   <li>{@link #PROVIDER_DEFAULT}: Mesa-LLM's {@code None}; the provider decides (usually like AUTO
 *       when tools are given);
 *   <li>{@link #NONE}: never call a tool, answer in text;
 *   <li>{@link #AUTO}: call tools or answer in text;
 *   <li>{@link #REQUIRED}: call one or more tools.
 * </ul>
 */
public enum ToolChoice {
  PROVIDER_DEFAULT,
  NONE,
  AUTO,
  REQUIRED;

  /**
   * Parses Mesa-LLM's spelling ({@code none}, {@code auto}, {@code required}, {@code default}) or
   * the constant name, case-insensitively.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static ToolChoice parse(String value) {
    if (value == null) {
      return PROVIDER_DEFAULT;
    }
    String v = value.trim().toLowerCase(java.util.Locale.ROOT);
    switch (v) {
      case "none":
        return NONE;
      case "auto":
        return AUTO;
      case "required":
        return REQUIRED;
      case "default":
      case "provider_default":
      case "null":
        return PROVIDER_DEFAULT;
      default:
        throw new IllegalArgumentException(
            "tool choice '" + value + "' is not one of: none, auto, required, default");
    }
  }
}
