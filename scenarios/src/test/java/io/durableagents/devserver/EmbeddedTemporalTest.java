package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A worker and the embedded Temporal close without a word: {@link EmbeddedTemporal#close()} stops the
 * worker factory, then the connection, then the server. The other order, the server first, is what
 * used to print a stack trace per poller; it is reproduced here so that the capture is known to see
 * them.
 */
class EmbeddedTemporalTest {
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final List<String> loggerNames = List.of("io.temporal", "io.grpc", "io.durableagents");
  private final List<Level> savedLevels = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logback = new ListAppender<>();
  private final List<LogRecord> jul = new ArrayList<>();
  private final Handler julHandler = new Handler() {
    @Override
    public synchronized void publish(LogRecord record) {
      jul.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private PrintStream originalErr;

  /** Everything at INFO and above, from logback, java.util.logging (gRPC's) and standard error. */
  @BeforeEach
  void capture() {
    for (String name : loggerNames) {
      savedLevels.add(context.getLogger(name).getLevel());
      context.getLogger(name).setLevel(Level.INFO);
    }
    logback.start();
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(logback);
    java.util.logging.Logger.getLogger("").addHandler(julHandler);
    originalErr = System.err;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(originalErr);
    java.util.logging.Logger.getLogger("").removeHandler(julHandler);
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(logback);
    for (int i = 0; i < loggerNames.size(); i++) {
      context.getLogger(loggerNames.get(i)).setLevel(savedLevels.get(i));
    }
  }

  /** The warnings, errors and stack traces captured since {@link #clearCapture()}. */
  private List<String> complaints() {
    List<String> found = new ArrayList<>();
    for (ILoggingEvent e : List.copyOf(logback.list)) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN) || e.getThrowableProxy() != null) {
        found.add("logback " + e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage()
            + (e.getThrowableProxy() == null ? "" : " [" + e.getThrowableProxy().getClassName() + "]"));
      }
    }
    synchronized (julHandler) {
      for (LogRecord r : jul) {
        if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue() || r.getThrown() != null) {
          found.add("jul " + r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()
              + (r.getThrown() == null ? "" : " [" + r.getThrown() + "]"));
        }
      }
    }
    String err = stderr.toString(StandardCharsets.UTF_8);
    if (err.contains("\tat ") || err.contains("Exception")) {
      found.add("stderr: " + err);
    }
    return found;
  }

  private void clearCapture() {
    logback.list.clear();
    synchronized (julHandler) {
      jul.clear();
    }
    stderr.reset();
  }

  private static SimulationResult runASimulation(WorkflowClient client, String id) {
    return client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 1, 3, EpsteinParameters.DEFAULTS.withAgents(2, 1), null, null, null));
  }

  @Test
  void closeStopsTheWorkersThenTheConnectionThenTheServerAndLogsNothing() throws Exception {
    EmbeddedTemporal temporal = EmbeddedTemporal.newBuilder()
        .setPlugins(Builtins.plugin().build())
        .start();
    WorkflowServiceStubs service = temporal.service();
    WorkerFactory factory = temporal.workerFactory();
    try {
      assertTrue(factory.isStarted());
      assertTrue(temporal.target().startsWith("127.0.0.1:"), temporal.target());
      // the example of EmbeddedTemporal's Javadoc, with the offline rules model
      AgentTaskWorkflow agent = temporal.client().newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-1").build());
      AgentTaskResult answer = agent.run(new AgentTaskInput("What is 17 * 23?", null, null));
      assertTrue(answer.answer() != null && !answer.answer().isBlank(), answer.toString());
      SimulationResult result = runASimulation(temporal.client(), "embedded-sim");
      assertEquals(1, result.steps());
      assertEquals(6, result.llmCalls(), "3 agents x 2 calls of the rules model");
    } finally {
      clearCapture();
      temporal.close();
    }
    // a stack trace from a call cancelled late would come on another thread, after close() returned
    Thread.sleep(500);
    assertTrue(factory.isTerminated(), "the worker factory stopped");
    assertTrue(service.isTerminated(), "the connection closed");
    List<String> complaints = complaints();
    assertTrue(complaints.isEmpty(), String.join("\n", complaints));
  }

  @Test
  void closingTheServerBeforeItsWorkersIsWhatLogsAStackTracePerPoller() throws Exception {
    DevServer server = DevServer.start("127.0.0.1", 0);
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + server.port()).build());
    WorkerFactory factory = WorkerFactory.newInstance(WorkflowClient.newInstance(service,
        WorkflowClientOptions.newBuilder().setPlugins(Builtins.plugin().build()).build()));
    factory.start();
    try {
      runASimulation(factory.getWorkflowClient(), "wrong-order-sim");
      clearCapture();
      server.close();
      // the pollers notice at once; give them a moment, as an application would before exiting
      Thread.sleep(500);
    } finally {
      factory.shutdown();
      factory.awaitTermination(10, TimeUnit.SECONDS);
      service.shutdownNow();
      service.awaitTermination(5, TimeUnit.SECONDS);
    }
    List<String> complaints = complaints();
    assertFalse(complaints.isEmpty(), "the wrong order complains, and the capture sees it");
    assertTrue(complaints.stream().anyMatch(c -> c.contains("Failure in poller thread")), String.join("\n", complaints));
  }

  @Test
  void aTakenPortIsReportedAndABadOneRefused() {
    try (EmbeddedTemporal first = EmbeddedTemporal.newBuilder().start()) {
      int port = first.server().port();
      RuntimeException e = assertThrows(RuntimeException.class,
          () -> EmbeddedTemporal.newBuilder().setPort(port).start());
      assertTrue(e.getMessage().contains("cannot listen on 127.0.0.1:" + port), e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EmbeddedTemporal.newBuilder().setPort(70_000));
    assertTrue(e.getMessage().contains("port"), e.getMessage());
  }
}
