package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the profile part assigns CPU samples to parts: its stack rules, a real recording, and the split of CPU. */
class JfrPartsTest {
  @Test
  void theFirstFrameFromTheTopThatARuleKnowsDecidesLookingThroughTheJdk() {
    StackRules.Match m = StackRules.JAVA.classify(List.of("java.util.HashMap.get",
        "com.fasterxml.jackson.databind.ObjectMapper.readValue", "io.temporal.common.converter.JacksonJsonPayloadConverter.fromData",
        "io.temporal.internal.sync.WorkflowThreadImpl.run"));
    assertEquals(new StackRules.Match(StackRules.SERIALIZATION, "com.fasterxml.jackson.databind.ObjectMapper.readValue"), m);
    assertEquals(StackRules.INTERCEPTORS, StackRules.JAVA.classify(List.of(
        "io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase.execute",
        "io.temporal.internal.activity.ActivityTaskExecutors.execute")).part());
    assertEquals(StackRules.JOURNAL, StackRules.JAVA.classify(List.of("sun.nio.ch.FileChannelImpl.write",
        "io.durableagents.worker.ExecutionJournal.write", "io.temporal.common.interceptors.X.execute")).part());
    assertEquals(StackRules.TRACING, StackRules.JAVA.classify(List.of(
        "io.durableagents.worker.tracing.ActivityTracer.run")).part());
    assertEquals(StackRules.METRICS, StackRules.JAVA.classify(List.of("com.uber.m3.tally.ScopeImpl.counter",
        "io.temporal.internal.worker.Poller.run")).part());
    assertEquals(StackRules.MODEL, StackRules.JAVA.classify(List.of(
        "io.durableagents.activities.rules.RulesChatModel.chat", "io.durableagents.activities.llm.X.call")).part());
    assertEquals(StackRules.GRPC, StackRules.JAVA.classify(List.of(
        "io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoop.run")).part());
  }

  @Test
  void theLongerPrefixWinsAndAStackOfTheJdkAloneIsItsOwnPart() {
    assertEquals(StackRules.TEST_SERVER, StackRules.JAVA.classify(List.of(
        "io.temporal.internal.testservice.TestWorkflowMutableStateImpl.complete")).part());
    assertEquals(StackRules.SDK, StackRules.JAVA.classify(List.of("io.temporal.internal.replay.X.y")).part());
    assertEquals(StackRules.SERIALIZATION, StackRules.JAVA.classify(List.of("io.durableagents.api.Json.read")).part());
    assertEquals(StackRules.WORKFLOWS, StackRules.JAVA.classify(List.of("io.durableagents.api.Agent.step")).part());
    assertEquals(new StackRules.Match(StackRules.JDK_ONLY, "java.util.concurrent.ForkJoinPool.scan"),
        StackRules.JAVA.classify(List.of("java.util.concurrent.ForkJoinPool.scan", "java.lang.Thread.run")));
  }

  @Test
  void goStacksGoToTheirServiceSqliteOrTheCollector() {
    assertEquals(StackRules.SQLITE, StackRules.GO.classifyGo(List.of("runtime.memmove",
        "modernc.org/sqlite/lib.Xsqlite3VdbeExec", "go.temporal.io/server/common/persistence/sql.(*x).y")).part());
    assertEquals(StackRules.PERSISTENCE, StackRules.GO.classifyGo(List.of(
        "go.temporal.io/server/common/persistence/serialization.(*serializerImpl).X")).part());
    assertEquals(StackRules.GRPC, StackRules.GO.classifyGo(List.of("runtime.mallocgc",
        "google.golang.org/protobuf/internal/impl.(*MessageInfo).marshal",
        "go.temporal.io/server/service/history.(*historyEngineImpl).X")).part());
    assertEquals(StackRules.GO_GC, StackRules.GO.classifyGo(List.of("runtime.scanobject", "runtime.gcDrain",
        "runtime.gcBgMarkWorker")).part());
    assertEquals(StackRules.GO_RUNTIME, StackRules.GO.classifyGo(List.of("runtime.futex", "runtime.schedule")).part());
  }

  @Test
  void eachThreadsCpuIsSplitByItsOwnSamplesAndWhatEndedThreadsUsedByTheirs() {
    JfrParts.Samples s = new JfrParts.Samples();
    for (int i = 0; i < 3; i++) {
      s.addExecution(1, new StackRules.Match(StackRules.SERIALIZATION, "a"));
    }
    s.addExecution(1, new StackRules.Match(StackRules.SDK, "b"));
    s.addExecution(9, new StackRules.Match(StackRules.GRPC, "c")); // a thread gone by the end
    Map<Long, ThreadCpu.Thread> threads = Map.of(
        1L, new ThreadCpu.Thread(1, "workflow-method", 100),
        2L, new ThreadCpu.Thread(2, "GC Thread#0", 40),
        3L, new ThreadCpu.Thread(3, "C2 CompilerThre", 5),
        4L, new ThreadCpu.Thread(4, "VM Thread", 10));

    Map<String, Double> ms = JfrParts.cpuByPart(s, threads, 175);

    assertEquals(75, ms.get(StackRules.SERIALIZATION), 1e-9);
    assertEquals(25, ms.get(StackRules.SDK), 1e-9);
    assertEquals(40, ms.get(ThreadCpu.GC), 1e-9);
    assertEquals(5, ms.get(ThreadCpu.JIT), 1e-9);
    assertEquals(10, ms.get(ThreadCpu.UNSAMPLED), 1e-9);
    assertEquals(20, ms.get(StackRules.GRPC), 1e-9);
    assertEquals(175, ms.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
  }

  @Test
  void aThreadsStatLineIsReadWithSpacesAndParenthesesInItsName() {
    String stat = "4242 (C2 (Compiler)) S 1 1 1 0 -1 4194624 0 0 0 0 250 30 0 0 20 0 1 0 100 0 0";
    assertEquals(new ThreadCpu.Thread(4242, "C2 (Compiler)", 2800), ThreadCpu.parse(4242, stat));
    assertEquals(ThreadCpu.GC, ThreadCpu.jvmPart("G1 Conc#0"));
    assertEquals(ThreadCpu.JIT, ThreadCpu.jvmPart("C1 CompilerThre"));
    assertEquals(ThreadCpu.JFR, ThreadCpu.jvmPart("JFR Recorder Th"));
    assertEquals(null, ThreadCpu.jvmPart("grpc-nio-worker"));
    Map<Long, ThreadCpu.Thread> mine = ThreadCpu.of(ProcessHandle.current().pid());
    assertTrue(mine.size() > 1, "this JVM's threads: " + mine.size());
  }

  @Test
  void aRealRecordingsSamplesOfJacksonWorkAreSerializationAndOnlyTheirWindowHasThem(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("test.jfr");
    // /proc/thread-self is <pid>/task/<this thread's OS id>
    long thisOsThread = Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
    Instant start;
    Instant end;
    Map<Long, ThreadCpu.Thread> before = ThreadCpu.of(ProcessHandle.current().pid());
    double process0 = MachineReadings.cpuMillis(ProcessHandle.current().pid());
    try (Recording r = new Recording()) {
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      r.start();
      start = Instant.now();
      ObjectMapper mapper = new ObjectMapper();
      Map<String, Object> value = Map.of("agent", "a-1", "step", 3, "answer", "MOVE 1 2".repeat(20));
      long until = System.nanoTime() + 1_500_000_000L;
      long n = 0;
      while (System.nanoTime() < until) {
        n += mapper.readValue(mapper.writeValueAsString(value), Map.class).size();
      }
      end = Instant.now();
      r.stop();
      r.dump(file);
      assertTrue(n > 0);
    }
    Map<Long, ThreadCpu.Thread> used = ThreadCpu.delta(before, ThreadCpu.of(ProcessHandle.current().pid()));
    double processMs = MachineReadings.cpuMillis(ProcessHandle.current().pid()) - process0;

    List<JfrParts.Samples> samples = JfrParts.read(file, StackRules.JAVA, List.of(
        new JfrParts.Window(start, end), new JfrParts.Window(end.plusSeconds(60), end.plusSeconds(120))));

    // this thread's samples: the JVM runs other test classes' threads too (a worker left polling, say)
    Map<String, Integer> byPart = samples.get(0).byThread.getOrDefault(thisOsThread, Map.of());
    int serialization = byPart.getOrDefault(StackRules.SERIALIZATION, 0);
    assertTrue(serialization > 50 && byPart.values().stream().allMatch(c -> c <= serialization), byPart.toString());
    assertEquals(0, samples.get(1).executionSamples);
    Map<String, Double> ms = JfrParts.cpuByPart(samples.get(0), used, processMs);
    assertTrue(ms.getOrDefault(StackRules.SERIALIZATION, 0.0) > 200, ms.toString());
    assertEquals(Math.max(processMs, used.values().stream().mapToDouble(ThreadCpu.Thread::cpuMs).sum()),
        ms.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-6);
  }
}
