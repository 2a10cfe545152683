package io.durableagents.worker;

import io.durableagents.activities.payload.PayloadGuard;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The worker's own settings, read from the environment and checked at start-up: a bad value fails
 * fast with a message that names the variable and what it allows. (Temporal's address and namespace
 * follow Temporal's envconfig conventions, {@code TEMPORAL_ADDRESS} and {@code TEMPORAL_NAMESPACE};
 * model settings are in {@code LlmSettings}.)
 *
 * @param sticky whether workflow tasks go to this worker's sticky queue: {@code on}, {@code off}, or
 *     {@code auto} (the default), which turns it off only against Temporal's bare test server, whose
 *     sticky queues never time out, so that a killed worker's workflows are picked up by the next
 *     worker instead of waiting forever. The embedded Temporal ({@code dev-server}) times sticky queues
 *     out as a real server does, so {@code auto} keeps it on there.
 * @param filesDirectory the directory the {@code read_file} tool may read
 * @param executionJournal a file to which every activity execution is appended, or null
 * @param llmCallsPerSecond a cap on LLM calls per second across all workers, or null for none
 * @param metricsPort the port of the Prometheus endpoint ({@code /metrics}, {@code /health}), or null
 * @param payloadGuard the limit on model answers and tool outputs, and what to do over it
 */
public record WorkerSettings(
    Sticky sticky,
    Path filesDirectory,
    Path executionJournal,
    Double llmCallsPerSecond,
    Integer metricsPort,
    PayloadGuard payloadGuard) {

  /** The sticky execution setting. */
  public enum Sticky {
    ON,
    OFF,
    AUTO
  }

  public static final String STICKY = "DURABLE_AGENTS_STICKY";
  public static final String FILES_DIR = "DURABLE_AGENTS_FILES_DIR";
  public static final String EXECUTION_LOG = "DURABLE_AGENTS_EXECUTION_LOG";
  /** A YAML or JSON file of MCP servers whose tools the worker offers ({@code mcp_servers:}). */
  public static final String MCP_SERVERS = "DURABLE_AGENTS_MCP_SERVERS";
  public static final String LLM_RATE_LIMIT = "DURABLE_AGENTS_LLM_RATE_LIMIT";
  /**
   * How many calls of each model one worker runs at once, e.g. {@code openai:smollm2=1} or {@code 2}: a
   * local model server's slots (see {@code LlmSlotLimits}). A call over them waits in the worker, and its
   * wait counts against none of its time limits.
   */
  public static final String LLM_SLOTS = io.durableagents.activities.llm.LlmSlotLimits.VARIABLE;
  /** Milliseconds the offline rules model waits before each answer (default 0), for tests and demos. */
  public static final String RULES_DELAY_MS = "DURABLE_AGENTS_RULES_DELAY_MS";
  public static final String METRICS_PORT = "DURABLE_AGENTS_METRICS_PORT";
  public static final String MAX_OUTPUT_BYTES = "DURABLE_AGENTS_MAX_OUTPUT_BYTES";
  public static final String OVERSIZE_OUTPUT = "DURABLE_AGENTS_OVERSIZE_OUTPUT";
  /** LLM calls one worker runs at once (its slots on the LLM task queue). */
  public static final String LLM_CONCURRENCY = "DURABLE_AGENTS_LLM_CONCURRENCY";
  /** Pollers per task queue: workflow task pollers on the agents queue, activity pollers on both. */
  public static final String POLLERS = "DURABLE_AGENTS_POLLERS";
  /** Workflows one worker keeps in its cache. */
  public static final String WORKFLOW_CACHE = "DURABLE_AGENTS_WORKFLOW_CACHE";

  /**
   * Workflow threads one worker may run (default {@value #DEFAULT_WORKFLOW_THREADS}, at least the
   * cache size; platform threads, below Java 21, where virtual ones have no limit). A group step of
   * chain-of-thought agents holds one; a group of ReAct or ReWOO agents holds one per agent and one
   * more while its agents run, so a simulation step of n such agents in groups needs about n + n /
   * group threads: with fewer, the SDK evicts cached workflows to free threads, and each evicted one
   * replays its whole history at its next task.
   */
  public static final String WORKFLOW_THREADS = "DURABLE_AGENTS_WORKFLOW_THREADS";

  /**
   * As many as the default cache. More threads stop evictions when thousands of threaded agents run
   * at once, but every platform thread costs the JVM even parked (10,500 made a 500-agent run a third
   * slower on 2 cores), and 10,000 agents at once with a 1 s model then starved the simulation's
   * step-boundary task past the deadlock detection (TMPRL1101): raise it where the cores allow, or run
   * on Java 21+ (BENCHMARKS.md, section 9).
   */
  public static final int DEFAULT_WORKFLOW_THREADS = 1000;

  /**
   * Workflow tasks one worker runs at once (default {@link #defaultWorkflowTaskSlots()}): workflow
   * code is pure CPU, and more tasks at once than the machine has cores only makes each one slower.
   */
  public static final String WORKFLOW_TASK_SLOTS = "DURABLE_AGENTS_WORKFLOW_TASK_SLOTS";

  /**
   * Four workflow tasks per core, at least 8. The SDK's default is 200: a worker that starts while
   * hundreds of workflows wait for it (after another was killed) ran them all at once on a cold JVM,
   * each got a sliver of the CPU, and the SDK failed dozens of them as "potential deadlocks"
   * (TMPRL1101: no yield for 5 s, the deadlock detection of the time), which Temporal retried 10 s later.
   */
  public static int defaultWorkflowTaskSlots() {
    return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
  }

  /**
   * The name this worker gives Temporal ({@code identity}): every workflow and activity task it takes
   * is recorded in history under it ({@code WorkflowTaskStarted}, {@code ActivityTaskStarted}), which
   * tells which of several workers ran what. Default {@code <pid>@<host>}, the SDK's.
   */
  public static final String WORKER_IDENTITY = "DURABLE_AGENTS_WORKER_IDENTITY";

  /**
   * A file the worker writes (its identity) once it polls: how a supervisor (the command line's {@code demo}
   * and {@code agent}, a script) knows it is ready without reading its log, whose lines a logging
   * configuration may hide. Unset: none.
   */
  public static final String READY_FILE = "DURABLE_AGENTS_WORKER_READY_FILE";

  /** The longest {@value #WORKER_IDENTITY} accepted. */
  public static final int MAX_IDENTITY_LENGTH = 200;

  /**
   * This worker's identity: {@value #WORKER_IDENTITY}, else {@code <pid>@<host>} (what the Temporal
   * SDK would use, {@code ManagementFactory.getRuntimeMXBean().getName()}).
   *
   * @throws IllegalArgumentException naming the variable when it is blank, padded, too long or holds a
   *     control character
   */
  public static String identity(Map<String, String> env) {
    String given = env.get(WORKER_IDENTITY);
    if (given == null) {
      return java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
    }
    if (given.isBlank() || !given.equals(given.strip()) || given.length() > MAX_IDENTITY_LENGTH
        || given.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(WORKER_IDENTITY + "='" + given + "' must be 1-" + MAX_IDENTITY_LENGTH
          + " characters, not padded, without control characters (e.g. worker-1@host-a)");
    }
    return given;
  }

  /**
   * LLM calls on the workflows' own task queue ({@code true}) instead of their own ({@code false}): a
   * real Temporal server with eager activity execution ({@code system.enableActivityEagerExecution})
   * then hands a call to the worker in its answer to the workflow task that scheduled it, which the SDK
   * asks for only for activities of the workflow's task queue. {@code auto} (the default, or unset):
   * eager unless {@link #LLM_RATE_LIMIT} is set, whose rate across workers holds only on the LLM task
   * queue; {@code true} is refused together with it.
   */
  public static final String EAGER_LLM_CALLS = "DURABLE_AGENTS_EAGER_LLM_CALLS";

  /** {@value #EAGER_LLM_CALLS}: auto (null, the default), true or false. */
  public static Boolean eagerLlmCalls(Map<String, String> env) {
    String v = env.getOrDefault(EAGER_LLM_CALLS, "auto").trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "", "auto" -> null;
      case "false" -> false;
      case "true" -> true;
      default -> throw new IllegalArgumentException(
          EAGER_LLM_CALLS + " must be auto, true or false, was '" + v + "'");
    };
  }

  /** Virtual workflow and activity threads: auto (on JVM 21+), on, off. */
  public static final String VIRTUAL_THREADS = "DURABLE_AGENTS_VIRTUAL_THREADS";

  public static final int DEFAULT_LLM_CONCURRENCY = 1000;

  /**
   * Pollers per task queue (the SDK's default is 5): hundreds of agents' calls become ready at once
   * at each simulation step, and more pollers take them off the queue sooner.
   */
  public static final int DEFAULT_POLLERS = 5;

  /**
   * Whether to use virtual threads: {@code auto} (the default) when {@code available}, {@code on}
   * (an error when not available), {@code off}.
   *
   * @throws IllegalArgumentException naming the variable and the allowed values
   */
  public static boolean virtualThreads(Map<String, String> env, boolean available) {
    String v = env.getOrDefault(VIRTUAL_THREADS, "auto").trim().toLowerCase(Locale.ROOT);
    switch (v) {
      case "":
      case "auto":
        return available;
      case "on":
        if (!available) {
          throw new IllegalArgumentException(VIRTUAL_THREADS + "=on needs Java 21 or later; this is Java "
              + Runtime.version().feature());
        }
        return true;
      case "off":
        return false;
      default:
        throw new IllegalArgumentException(
            VIRTUAL_THREADS + "='" + env.get(VIRTUAL_THREADS) + "' is not one of: auto, on, off");
    }
  }
  public static final int DEFAULT_WORKFLOW_CACHE = 1000;

  /**
   * A positive whole number from {@code env}, or {@code defaultValue} when unset.
   *
   * @throws IllegalArgumentException naming the variable and the allowed values
   */
  public static int positive(Map<String, String> env, String name, int defaultValue) {
    String text = env.get(name);
    if (text == null || text.isBlank()) {
      return defaultValue;
    }
    try {
      int v = Integer.parseInt(text.trim());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    throw new IllegalArgumentException(name + "='" + text + "' must be a whole number >= 1");
  }

  /** Reads and checks the settings. */
  public static WorkerSettings fromEnvironment(Map<String, String> env) {
    String sticky = env.getOrDefault(STICKY, "auto").trim().toLowerCase(Locale.ROOT);
    Sticky stickyExecution;
    switch (sticky) {
      case "on":
      case "true":
        stickyExecution = Sticky.ON;
        break;
      case "off":
      case "false":
        stickyExecution = Sticky.OFF;
        break;
      case "auto":
      case "":
        stickyExecution = Sticky.AUTO;
        break;
      default:
        throw new IllegalArgumentException(
            STICKY + "='" + env.get(STICKY) + "' is not one of: auto, on, off");
    }
    Path files = Path.of(env.getOrDefault(FILES_DIR, "files"));
    String journal = env.get(EXECUTION_LOG);
    Double rate = null;
    String rateText = env.get(LLM_RATE_LIMIT);
    if (rateText != null && !rateText.isBlank()) {
      try {
        rate = Double.parseDouble(rateText.trim());
      } catch (NumberFormatException e) {
        rate = -1.0;
      }
      if (!(rate > 0)) {
        throw new IllegalArgumentException(
            LLM_RATE_LIMIT + "='" + rateText + "' must be a positive number of calls per second");
      }
    }
    Integer port = null;
    String portText = env.get(METRICS_PORT);
    if (portText != null && !portText.isBlank()) {
      try {
        port = Integer.parseInt(portText.trim());
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException(
            METRICS_PORT + "='" + portText + "' must be a port number, 0-65535");
      }
    }
    int maxOutput = PayloadGuard.DEFAULT_MAX_BYTES;
    String maxText = env.get(MAX_OUTPUT_BYTES);
    if (maxText != null && !maxText.isBlank()) {
      try {
        maxOutput = Integer.parseInt(maxText.trim());
      } catch (NumberFormatException e) {
        maxOutput = -1;
      }
      if (maxOutput < 1024 || maxOutput > 2 * 1024 * 1024) {
        throw new IllegalArgumentException(MAX_OUTPUT_BYTES + "='" + maxText
            + "' must be a number of bytes from 1024 to 2097152 (Temporal's 2 MB payload limit)");
      }
    }
    String oversize = env.get(OVERSIZE_OUTPUT);
    PayloadGuard.Mode mode = oversize == null || oversize.isBlank()
        ? PayloadGuard.Mode.TRUNCATE : PayloadGuard.Mode.parse(OVERSIZE_OUTPUT, oversize);
    return new WorkerSettings(stickyExecution, files,
        journal == null || journal.isBlank() ? null : Path.of(journal), rate, port,
        new PayloadGuard(maxOutput, mode));
  }
}
