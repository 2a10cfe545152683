package io.durableagents.activities.llm;

import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * Provider settings of a worker: keys, base URLs and the per-call time-out, read from its environment.
 * Immutable; {@link #newBuilder()} holds every default. {@link #toString()} never shows a key.
 */
public final class LlmSettings {
  public static final String OPENAI_API_KEY = "OPENAI_API_KEY";
  public static final String OPENAI_BASE_URL = "OPENAI_BASE_URL";
  public static final String ANTHROPIC_API_KEY = "ANTHROPIC_API_KEY";
  public static final String ANTHROPIC_BASE_URL = "ANTHROPIC_BASE_URL";
  public static final String OLLAMA_BASE_URL = "OLLAMA_BASE_URL";
  public static final String LLM_TIMEOUT = "DURABLE_AGENTS_LLM_TIMEOUT";

  public static final String DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
  public static final String DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1/";
  public static final String DEFAULT_OLLAMA_BASE_URL = "http://localhost:11434";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

  private final String openAiApiKey;
  private final String openAiBaseUrl;
  private final String anthropicApiKey;
  private final String anthropicBaseUrl;
  private final String ollamaBaseUrl;
  private final Duration timeout;

  private LlmSettings(Builder b) {
    this.openAiApiKey = blankToNull(b.openAiApiKey);
    this.openAiBaseUrl = url(OPENAI_BASE_URL, b.openAiBaseUrl, DEFAULT_OPENAI_BASE_URL);
    this.anthropicApiKey = blankToNull(b.anthropicApiKey);
    this.anthropicBaseUrl = url(ANTHROPIC_BASE_URL, b.anthropicBaseUrl, DEFAULT_ANTHROPIC_BASE_URL);
    this.ollamaBaseUrl = url(OLLAMA_BASE_URL, b.ollamaBaseUrl, DEFAULT_OLLAMA_BASE_URL);
    this.timeout = b.timeout == null ? DEFAULT_TIMEOUT : b.timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(LLM_TIMEOUT + " must be positive, was " + timeout);
    }
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /**
   * Reads the settings from environment variables.
   *
   * @throws IllegalArgumentException naming the variable whose value is not allowed
   */
  public static LlmSettings fromEnvironment(Map<String, String> env) {
    return newBuilder()
        .openAiApiKey(env.get(OPENAI_API_KEY))
        .openAiBaseUrl(env.get(OPENAI_BASE_URL))
        .anthropicApiKey(env.get(ANTHROPIC_API_KEY))
        .anthropicBaseUrl(env.get(ANTHROPIC_BASE_URL))
        .ollamaBaseUrl(env.get(OLLAMA_BASE_URL))
        .timeout(parseTimeout(env.get(LLM_TIMEOUT)))
        .build();
  }

  static Duration parseTimeout(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String t = text.trim();
    try {
      if (t.matches("\\d+(\\.\\d+)?s?")) {
        return Duration.ofMillis((long) (Double.parseDouble(t.replace("s", "")) * 1000));
      }
      return Duration.parse(t);
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new IllegalArgumentException(LLM_TIMEOUT + "='" + text
          + "' is not a duration: give seconds (120, 120s) or ISO-8601 (PT2M)");
    }
  }

  private static String url(String variable, String value, String fallback) {
    String v = blankToNull(value);
    if (v == null) {
      return fallback;
    }
    try {
      URI uri = URI.create(v);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
        throw new IllegalArgumentException("not an http(s) URL");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(variable + "='" + v
          + "' is not an http:// or https:// URL (e.g. http://localhost:8000/v1)");
    }
    return v;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  public String openAiApiKey() {
    return openAiApiKey;
  }

  public String openAiBaseUrl() {
    return openAiBaseUrl;
  }

  /** Whether the OpenAI-compatible server is OpenAI's own, which always needs a key. */
  public boolean isOpenAiItself() {
    return openAiBaseUrl.startsWith("https://api.openai.com");
  }

  public String anthropicApiKey() {
    return anthropicApiKey;
  }

  public String anthropicBaseUrl() {
    return anthropicBaseUrl;
  }

  public String ollamaBaseUrl() {
    return ollamaBaseUrl;
  }

  public Duration timeout() {
    return timeout;
  }

  @Override
  public String toString() {
    return "LlmSettings{openAiBaseUrl=" + openAiBaseUrl + ", openAiApiKey="
        + (openAiApiKey == null ? "unset" : "set") + ", anthropicBaseUrl=" + anthropicBaseUrl
        + ", anthropicApiKey=" + (anthropicApiKey == null ? "unset" : "set") + ", ollamaBaseUrl="
        + ollamaBaseUrl + ", timeout=" + timeout + "}";
  }

  /** Builds {@link LlmSettings}. */
  public static final class Builder {
    private String openAiApiKey;
    private String openAiBaseUrl;
    private String anthropicApiKey;
    private String anthropicBaseUrl;
    private String ollamaBaseUrl;
    private Duration timeout;

    private Builder() {}

    public Builder openAiApiKey(String v) {
      openAiApiKey = v;
      return this;
    }

    public Builder openAiBaseUrl(String v) {
      openAiBaseUrl = v;
      return this;
    }

    public Builder anthropicApiKey(String v) {
      anthropicApiKey = v;
      return this;
    }

    public Builder anthropicBaseUrl(String v) {
      anthropicBaseUrl = v;
      return this;
    }

    public Builder ollamaBaseUrl(String v) {
      ollamaBaseUrl = v;
      return this;
    }

    public Builder timeout(Duration v) {
      timeout = v;
      return this;
    }

    public LlmSettings build() {
      return new LlmSettings(this);
    }
  }
}
