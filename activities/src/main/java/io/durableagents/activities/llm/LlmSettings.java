package io.durableagents.activities.llm;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A worker's model-provider settings: API keys, base URLs and the per-call time-out, usually read from
 * its environment. Immutable; every default is in the constants below and nowhere else. A malformed
 * value fails when the settings are built, with a message that names the variable and what is allowed.
 * {@link #toString()} never shows a key.
 *
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>Variable</th><th>Default</th><th>Meaning</th></tr>
 *   <tr><td>{@code OPENAI_API_KEY}</td><td>none</td><td>key for {@code openai:<model>}; optional when
 *       {@code OPENAI_BASE_URL} points to a server other than OpenAI's</td></tr>
 *   <tr><td>{@code OPENAI_BASE_URL}</td><td>{@value #DEFAULT_OPENAI_BASE_URL}</td><td>any
 *       OpenAI-compatible server: vLLM, Ollama's {@code /v1}, LM Studio, llama.cpp</td></tr>
 *   <tr><td>{@code ANTHROPIC_API_KEY}</td><td>none</td><td>key for {@code anthropic:<model>}</td></tr>
 *   <tr><td>{@code ANTHROPIC_BASE_URL}</td><td>{@value #DEFAULT_ANTHROPIC_BASE_URL}</td><td></td></tr>
 *   <tr><td>{@code OLLAMA_BASE_URL}</td><td>{@value #DEFAULT_OLLAMA_BASE_URL}</td><td>Ollama's native
 *       API, for {@code ollama:<model>}</td></tr>
 *   <tr><td>{@code DURABLE_AGENTS_LLM_TIMEOUT}</td><td>60 s</td><td>per-attempt time-out: seconds
 *       ({@code 90}, {@code 90s}) or ISO-8601 ({@code PT90S})</td></tr>
 *   <tr><td>{@code DURABLE_AGENTS_LLM_RETRY_BUDGET}</td><td>60 s</td><td>how long failing calls are
 *       retried, per model: {@code 60,openai:gpt-4o=300} (see {@link LlmRetryBudget})</td></tr>
 *   <tr><td>{@code DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS}</td><td>per kind of call</td><td>the maximum
 *       output length sent, per model and kind of call: {@code 512,rewoo-plan=768,ollama:qwen3=2048}
 *       (see {@link LlmMaxOutputTokens})</td></tr>
 * </table>
 *
 * <pre>{@code
 * LlmSettings settings = LlmSettings.fromEnvironment(System.getenv());
 * LlmSettings local = LlmSettings.newBuilder()
 *     .openAiBaseUrl("http://localhost:8000/v1")   // a vLLM server: no key needed
 *     .timeout(Duration.ofSeconds(30))
 *     .build();
 * }</pre>
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
  /**
   * 60 s: one clock with the default retry budget ({@link LlmRetryBudget#DEFAULT}), so that by default a
   * call ends within a minute, its retries included. A slower model needs more (see {@link #callBudget}).
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private static final String OPENAI_HOST = "api.openai.com";
  private static final Pattern SECONDS = Pattern.compile("(\\d{1,9}(?:\\.\\d+)?)\\s*s?");
  private static final String TIMEOUT_FORMS = "give seconds (120, 120s) or ISO-8601 (PT2M)";

  private final String openAiApiKey;
  private final String openAiBaseUrl;
  private final String anthropicApiKey;
  private final String anthropicBaseUrl;
  private final String ollamaBaseUrl;
  private final Duration timeout;
  private final LlmRetryBudget retryBudget;
  private final LlmMaxOutputTokens maxOutputTokens;

  private LlmSettings(Builder b) {
    this.retryBudget = b.retryBudget == null ? LlmRetryBudget.defaults() : b.retryBudget;
    this.maxOutputTokens = b.maxOutputTokens == null ? LlmMaxOutputTokens.defaults() : b.maxOutputTokens;
    this.openAiApiKey = blankToNull(b.openAiApiKey);
    this.openAiBaseUrl = url(OPENAI_BASE_URL, b.openAiBaseUrl, DEFAULT_OPENAI_BASE_URL);
    this.anthropicApiKey = blankToNull(b.anthropicApiKey);
    this.anthropicBaseUrl = url(ANTHROPIC_BASE_URL, b.anthropicBaseUrl, DEFAULT_ANTHROPIC_BASE_URL);
    this.ollamaBaseUrl = url(OLLAMA_BASE_URL, b.ollamaBaseUrl, DEFAULT_OLLAMA_BASE_URL);
    this.timeout = b.timeout == null ? DEFAULT_TIMEOUT : b.timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          LLM_TIMEOUT + " must be a positive duration, was " + timeout + "; " + TIMEOUT_FORMS);
    }
  }

  /** A builder with every value at its default. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /**
   * Reads the settings from environment variables; a variable that is absent or blank keeps its
   * default.
   *
   * @throws IllegalArgumentException naming the variable whose value is not allowed, and what is
   */
  public static LlmSettings fromEnvironment(Map<String, String> env) {
    return newBuilder()
        .openAiApiKey(env.get(OPENAI_API_KEY))
        .openAiBaseUrl(env.get(OPENAI_BASE_URL))
        .anthropicApiKey(env.get(ANTHROPIC_API_KEY))
        .anthropicBaseUrl(env.get(ANTHROPIC_BASE_URL))
        .ollamaBaseUrl(env.get(OLLAMA_BASE_URL))
        .timeout(parseTimeout(env.get(LLM_TIMEOUT)))
        .retryBudget(LlmRetryBudget.parse(env.get(LlmRetryBudget.VARIABLE)))
        .maxOutputTokens(LlmMaxOutputTokens.parse(env.get(LlmMaxOutputTokens.VARIABLE)))
        .build();
  }

  /**
   * Parses {@code DURABLE_AGENTS_LLM_TIMEOUT}: seconds ({@code 120}, {@code 120s}, {@code 2.5}) or an
   * ISO-8601 duration ({@code PT2M}); null when blank.
   *
   * @throws IllegalArgumentException naming the variable and the allowed forms
   */
  static Duration parseTimeout(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String t = text.trim();
    try {
      Matcher seconds = SECONDS.matcher(t);
      if (seconds.matches()) {
        return Duration.ofMillis(Math.round(Double.parseDouble(seconds.group(1)) * 1000));
      }
      return Duration.parse(t.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException(
          LLM_TIMEOUT + "='" + text + "' is not a duration; " + TIMEOUT_FORMS);
    }
  }

  private static String url(String variable, String value, String fallback) {
    String v = blankToNull(value);
    if (v == null) {
      return fallback;
    }
    String problem = null;
    try {
      URI uri = new URI(v);
      if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
        problem = "it does not start with http:// or https://";
      } else if (uri.getHost() == null) {
        problem = "it names no host";
      } else if (uri.getQuery() != null || uri.getFragment() != null) {
        problem = "a base URL takes no query or fragment";
      }
    } catch (URISyntaxException e) {
      problem = "it is not a URL (" + e.getReason() + ")";
    }
    if (problem != null) {
      throw new IllegalArgumentException(variable + "='" + v + "' is not allowed: " + problem
          + "; give an http:// or https:// base URL such as http://localhost:8000/v1");
    }
    return v;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** The OpenAI key, or null. */
  public String openAiApiKey() {
    return openAiApiKey;
  }

  /** The base URL of the OpenAI-compatible server. */
  public String openAiBaseUrl() {
    return openAiBaseUrl;
  }

  /**
   * Whether the OpenAI-compatible server is OpenAI's own, which always needs {@code OPENAI_API_KEY}.
   * Other servers (vLLM, Ollama's {@code /v1}, LM Studio, llama.cpp) may run without a key.
   */
  public boolean isOpenAiItself() {
    return OPENAI_HOST.equalsIgnoreCase(URI.create(openAiBaseUrl).getHost());
  }

  /** The Anthropic key, or null. */
  public String anthropicApiKey() {
    return anthropicApiKey;
  }

  /** The base URL of Anthropic's API. */
  public String anthropicBaseUrl() {
    return anthropicBaseUrl;
  }

  /** The base URL of the Ollama server (its native API, not {@code /v1}). */
  public String ollamaBaseUrl() {
    return ollamaBaseUrl;
  }

  /** The time-out of one model call (connect and read). */
  public Duration timeout() {
    return timeout;
  }

  /** How long each model's failing calls keep being retried ({@code DURABLE_AGENTS_LLM_RETRY_BUDGET}). */
  public LlmRetryBudget retryBudget() {
    return retryBudget;
  }

  /** The maximum output length of each call ({@code DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS} and the defaults). */
  public LlmMaxOutputTokens maxOutputTokens() {
    return maxOutputTokens;
  }

  /**
   * The longest a call of {@code model} may take, its attempts and the backoffs between them (not its
   * waits for a slot): its retry budget, raised to the per-attempt {@link #timeout()} when shorter, so
   * that no attempt outlives the budget and a first attempt always has its whole time-out. A budget of 0
   * stays 0: one attempt (with its time-out), never retried.
   */
  public Duration callBudget(String model) {
    Duration budget = retryBudget.of(model);
    return budget.isZero() || budget.compareTo(timeout) >= 0 ? budget : timeout;
  }

  /**
   * {@code text} with every configured key replaced by {@code ***}, for messages that quote a
   * provider's answer.
   */
  public String redact(String text) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (String key : new String[] {openAiApiKey, anthropicApiKey}) {
      if (key != null && key.length() >= 4) {
        out = out.replace(key, "***");
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "LlmSettings{openAiBaseUrl=" + openAiBaseUrl + ", openAiApiKey=" + shown(openAiApiKey)
        + ", anthropicBaseUrl=" + anthropicBaseUrl + ", anthropicApiKey=" + shown(anthropicApiKey)
        + ", ollamaBaseUrl=" + ollamaBaseUrl + ", timeout=" + timeout + ", retryBudget=" + retryBudget + ", maxOutputTokens=" + maxOutputTokens + "}";
  }

  private static String shown(String key) {
    return key == null ? "unset" : "set";
  }

  /** Builds {@link LlmSettings}; a value left null or blank keeps its default. */
  public static final class Builder {
    private String openAiApiKey;
    private String openAiBaseUrl;
    private String anthropicApiKey;
    private String anthropicBaseUrl;
    private String ollamaBaseUrl;
    private Duration timeout;
    private LlmRetryBudget retryBudget;
    private LlmMaxOutputTokens maxOutputTokens;

    private Builder() {}

    /** The maximum output length of each call, per model and kind of call (default: per kind of call). */
    public Builder maxOutputTokens(LlmMaxOutputTokens v) {
      maxOutputTokens = v;
      return this;
    }

    /** How long failing calls keep being retried, per model (default: 60 s for every model). */
    public Builder retryBudget(LlmRetryBudget v) {
      retryBudget = v;
      return this;
    }

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

    /**
     * Checks the values and builds the settings.
     *
     * @throws IllegalArgumentException naming the variable whose value is not allowed
     */
    public LlmSettings build() {
      return new LlmSettings(this);
    }
  }
}
