package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.durableagents.workflows.CommittedLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A workflow task that runs again from scratch (its first run never reached the history, as when a
 * worker is killed) writes its {@link CommittedLog} lines once, when it is committed; the SDK's
 * replay-aware logger writes them twice.
 */
class CommittedLogTest {
  /** Fails its first workflow task after logging, as a worker killed before it reported would. */
  static final AtomicBoolean CRASH_ONCE = new AtomicBoolean();

  @WorkflowInterface
  public interface StepOnce {
    @WorkflowMethod
    String run(boolean committedLog);
  }

  public static class StepOnceImpl implements StepOnce {
    @Override
    public String run(boolean committedLog) {
      if (committedLog) {
        CommittedLog.info(CommittedLogTest.class, "step {}/{} done", 1, 1);
      } else {
        Workflow.getLogger(CommittedLogTest.class).info("step {}/{} done", 1, 1);
      }
      if (CRASH_ONCE.getAndSet(false)) {
        throw new IllegalStateException("the worker died here");
      }
      return "done";
    }
  }

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger logger = context.getLogger(CommittedLogTest.class);
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private TestWorkflowEnvironment env;

  @BeforeEach
  void start() {
    captured.start();
    logger.setLevel(Level.INFO);
    logger.addAppender(captured);
    WorkflowTaskFailures tasks = new WorkflowTaskFailures(new SimpleMeterRegistry(), CommittedLog.install());
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowServiceStubsOptions(WorkflowServiceStubsOptions.newBuilder()
            .setGrpcClientInterceptors(List.of(tasks)).build())
        .build());
    env.newWorker("committed-log").registerWorkflowImplementationTypes(StepOnceImpl.class);
    env.start();
  }

  @AfterEach
  void stop() {
    env.close();
    CommittedLog.uninstall();
    logger.detachAppender(captured);
  }

  private void run(String id, boolean committedLog) {
    CRASH_ONCE.set(true);
    WorkflowClient client = env.getWorkflowClient();
    assertEquals("done", client.newWorkflowStub(StepOnce.class,
        WorkflowOptions.newBuilder().setTaskQueue("committed-log").setWorkflowId(id).build()).run(committedLog));
  }

  private List<ILoggingEvent> lines(String id) {
    synchronized (captured) { // AppenderBase appends under the appender's own lock
      return List.copyOf(captured.list).stream()
          .filter(e -> e.getFormattedMessage().equals("step 1/1 done") && id.equals(e.getMDCPropertyMap().get("WorkflowId")))
          .toList();
    }
  }

  @Test
  void aTaskRunAgainWritesItsLineOnceWhenCommitted() throws InterruptedException {
    run("committed", true);
    // the line is written when the worker hears the completion, which may come after the client's result
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (lines("committed").isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    // then the workflow's close event is in history: every task of the run has been answered
    env.getWorkflowClient().fetchHistory("committed");
    List<ILoggingEvent> lines = lines("committed");
    assertEquals(1, lines.size(), lines.toString());
  }

  @Test
  void theReplayAwareLoggerWritesItTwice() {
    run("replay-aware", false);
    List<ILoggingEvent> lines = lines("replay-aware");
    assertEquals(2, lines.size(), "why CommittedLog exists: " + lines);
  }
}
