package io.durableagents.starter.benchmark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The parts of a program the profile part of the benchmark assigns CPU samples to, by their stacks: the first
 * frame from the top whose class (a Java frame, {@code package.Class.method}) or function (a Go frame, {@code
 * import/path.(*Type).Method}) starts with a rule's prefix decides. Frames that no rule knows (the JDK's,
 * Guava's, Go's runtime and standard library) are looked through to their callers, so a {@code HashMap.get}
 * that Jackson calls is serialization. Where two prefixes match, the longer one wins ({@code
 * io.temporal.internal.testservice} over {@code io.temporal}).
 *
 * <pre>{@code
 * StackRules.Match m = StackRules.JAVA.classify(List.of("java.util.HashMap.get",
 *     "com.fasterxml.jackson.databind.ObjectMapper.readValue", "io.temporal.internal.sync.X.run"));
 * m.part();   // "serialization"
 * m.frame();  // "com.fasterxml.jackson.databind.ObjectMapper.readValue"
 * }</pre>
 */
final class StackRules {
  static final String SERIALIZATION = "serialization";
  static final String INTERCEPTORS = "interceptors";
  static final String TRACING = "tracing";
  static final String JOURNAL = "journal";
  static final String METRICS = "metrics";
  static final String LOGGING = "logging";
  static final String MODEL = "the rules model";
  static final String ACTIVITIES = "our activities";
  static final String WORKFLOWS = "our workflows";
  static final String PLUGIN = "our worker, plugin";
  static final String SDK = "Temporal SDK";
  static final String GRPC = "gRPC and protobuf";
  static final String TEST_SERVER = "Temporal's test server";
  static final String JDK_ONLY = "JDK only (no known caller)";
  static final String SQLITE = "SQLite";
  static final String PERSISTENCE = "persistence layer";
  static final String HISTORY = "history service";
  static final String MATCHING = "matching service";
  static final String FRONTEND = "frontend service";
  static final String SERVER_WORKERS = "server's own workers";
  static final String SERVER_COMMON = "server, common";
  static final String UI = "UI server";
  static final String GO_RUNTIME = "Go runtime (scheduler, syscalls)";
  static final String GO_GC = "Go GC";

  /** One rule: frames whose name starts with {@code prefix} belong to {@code part}. */
  record Rule(String prefix, String part) {}

  /** The part a stack was assigned to, and the frame that decided it. */
  record Match(String part, String frame) {}

  /**
   * The rules of the worker's and the in-memory server's JVMs. Order does not matter (the longest matching
   * prefix wins); the grouping below is by part.
   */
  static final StackRules JAVA = new StackRules(JDK_ONLY, rules(
      SERIALIZATION, "com.fasterxml.jackson", "io.temporal.common.converter", "io.temporal.payload",
      "io.durableagents.api.Json", "io.durableagents.worker.codec", "io.durableagents.activities.payload",
      INTERCEPTORS, "io.temporal.common.interceptors", "io.durableagents.worker.AgentLogContext",
      "io.durableagents.worker.WorkflowTaskFailures",
      TRACING, "io.opentelemetry", "io.durableagents.worker.tracing",
      JOURNAL, "io.durableagents.worker.ExecutionJournal",
      METRICS, "io.micrometer", "com.uber.m3", "io.prometheus", "io.temporal.common.reporter",
      "io.durableagents.activities.metrics", "io.durableagents.worker.MetricsServer",
      "io.durableagents.worker.CachedTimerStatsReporter",
      LOGGING, "ch.qos.logback", "org.slf4j",
      MODEL, "io.durableagents.activities.rules", "dev.langchain4j",
      ACTIVITIES, "io.durableagents.activities",
      WORKFLOWS, "io.durableagents.workflows", "io.durableagents.api", "io.durableagents.scenarios",
      PLUGIN, "io.durableagents",
      TEST_SERVER, "io.temporal.internal.testservice", "io.durableagents.devserver",
      GRPC, "io.grpc", "io.netty", "com.google.protobuf", "io.perfmark", "io.temporal.api",
      "io.temporal.serviceclient",
      SDK, "io.temporal"));

  /** The rules of the Temporal CLI's dev server (Go functions, as {@code go tool addr2line} names them). */
  static final StackRules GO = new StackRules(GO_RUNTIME, rules(
      SQLITE, "modernc.org/sqlite", "modernc.org/libc", "modernc.org/memory", "database/sql",
      "github.com/jmoiron/sqlx", "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite",
      PERSISTENCE, "go.temporal.io/server/common/persistence",
      HISTORY, "go.temporal.io/server/service/history", "go.temporal.io/server/chasm",
      MATCHING, "go.temporal.io/server/service/matching",
      FRONTEND, "go.temporal.io/server/service/frontend",
      SERVER_WORKERS, "go.temporal.io/server/service/worker", "go.temporal.io/sdk",
      GRPC, "google.golang.org/grpc", "google.golang.org/protobuf", "github.com/gogo/protobuf",
      "github.com/golang/protobuf", "golang.org/x/net/http2", "go.temporal.io/api",
      "go.temporal.io/server/api",
      METRICS, "go.temporal.io/server/common/metrics", "github.com/uber-go/tally", "github.com/prometheus",
      "go.opentelemetry.io",
      LOGGING, "go.temporal.io/server/common/log", "go.uber.org/zap", "log/slog",
      UI, "github.com/temporalio/ui-server", "github.com/labstack/echo",
      SERVER_COMMON, "go.temporal.io/server", "github.com/temporalio/cli"));

  /** Go functions that are the garbage collector's work wherever they are on a stack. */
  static final List<String> GO_GC_FUNCTIONS = List.of("runtime.gcBgMarkWorker", "runtime.gcAssistAlloc",
      "runtime.bgsweep", "runtime.bgscavenge", "runtime.gcMarkDone", "runtime.gcStart", "runtime.markroot");

  private final String noKnownFrame;
  private final List<Rule> rules;
  private final Map<String, Optional<Rule>> cache = new HashMap<>();

  StackRules(String noKnownFrame, List<Rule> rules) {
    this.noKnownFrame = noKnownFrame;
    List<Rule> sorted = new ArrayList<>(rules);
    sorted.sort(Comparator.comparingInt((Rule r) -> r.prefix().length()).reversed());
    this.rules = List.copyOf(sorted);
  }

  /** Rules from {@code part, prefix, prefix, ..., part, prefix, ...}: a part is a name no prefix has a dot in. */
  private static List<Rule> rules(String... partsAndPrefixes) {
    List<Rule> rules = new ArrayList<>();
    String part = null;
    for (String s : partsAndPrefixes) {
      if (isPart(s)) {
        part = s;
      } else {
        rules.add(new Rule(s, part));
      }
    }
    return rules;
  }

  private static boolean isPart(String s) {
    return !s.contains(".") && !s.contains("/") || s.contains(" ");
  }

  /** The part of a stack ({@code framesTopFirst}: the sampled frame first, then its callers). */
  synchronized Match classify(List<String> framesTopFirst) {
    for (String frame : framesTopFirst) {
      Optional<Rule> rule = cache.computeIfAbsent(frame, this::ruleOf);
      if (rule.isPresent()) {
        return new Match(rule.get().part(), frame);
      }
    }
    return new Match(noKnownFrame, framesTopFirst.isEmpty() ? "(no frames)" : framesTopFirst.get(0));
  }

  /** A Go stack's part: the garbage collector's if any of its frames is, else as {@link #classify}. */
  Match classifyGo(List<String> framesTopFirst) {
    for (String frame : framesTopFirst) {
      for (String gc : GO_GC_FUNCTIONS) {
        if (frame.startsWith(gc)) {
          return new Match(GO_GC, frame);
        }
      }
    }
    return classify(framesTopFirst);
  }

  private Optional<Rule> ruleOf(String frame) {
    for (Rule r : rules) {
      if (frame.startsWith(r.prefix())) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** The part of stacks in which no frame is known. */
  String noKnownFrame() {
    return noKnownFrame;
  }

  /** The rules as the report lists them: {@code part: prefix, prefix; part: ...}, in the order written. */
  String describe() {
    Map<String, List<String>> byPart = new LinkedHashMap<>();
    List<Rule> written = new ArrayList<>(rules);
    written.sort(Comparator.comparing(Rule::part).thenComparing(Rule::prefix));
    for (Rule r : written) {
      byPart.computeIfAbsent(r.part(), k -> new ArrayList<>()).add("`" + r.prefix() + "`");
    }
    return byPart.entrySet().stream().map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
        .collect(Collectors.joining("; "));
  }
}
