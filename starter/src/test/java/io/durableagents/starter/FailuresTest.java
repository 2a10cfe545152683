package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.llm.LlmFailureTypes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failures in words: the exit code, the message and the hint for each kind of failure. */
class FailuresTest {
  private static final WorkflowExecution RUN = WorkflowExecution.newBuilder().setWorkflowId("sim-1").build();

  /** What a simulation whose agent step's LLM call failed throws at the client: the whole chain. */
  private static WorkflowFailedException failedRun(ApplicationFailure cause) {
    ActivityFailure activity = new ActivityFailure("Activity task failed", 5, 6, "Chat", "1",
        RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE, "worker", cause);
    ChildWorkflowFailure child = new ChildWorkflowFailure(3, 4, "AgentStep",
        WorkflowExecution.newBuilder().setWorkflowId("sim-1/agent-cop-0/step-1").build(), "default",
        RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE, activity);
    return new WorkflowFailedException(RUN, "Simulation", EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, 9,
        RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE, child);
  }

  @Test
  void aFailedRunSaysItsTypedCauseNotActivityTaskFailed() {
    List<List<String>> typed = List.of(
        List.of(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, "model openai:gpt-4o-mini needs OPENAI_API_KEY in the worker's environment", "Set it"),
        List.of(LlmFailureTypes.AUTHENTICATION, "the provider refused the key sk-...abcd", "key"),
        List.of(LlmFailureTypes.MODEL_NOT_FOUND, "The model `gpt-9` does not exist", "model's name"),
        List.of(LlmFailureTypes.INVALID_REQUEST, "This model's maximum context length is 8192 tokens", "smaller prompt"),
        List.of(LlmFailureTypes.RATE_LIMITED, "rate limited after 8 attempts", "--max-concurrent-agents"));
    for (List<String> t : typed) {
      Failures.Report r = Failures.report(failedRun(ApplicationFailure.newNonRetryableFailure(t.get(1), t.get(0))));
      assertEquals(Failures.FAILED, r.exitCode());
      assertEquals("the run failed: " + t.get(0) + ": " + t.get(1), r.message());
      assertTrue(r.hint().contains(t.get(2)), r.hint());
    }
  }

  @Test
  void eachKindOfFailureHasItsExitCode() {
    assertEquals(Failures.USAGE, Failures.report(new WorkflowExecutionAlreadyStarted(RUN, "Simulation", null)).exitCode());
    assertTrue(Failures.report(new WorkflowExecutionAlreadyStarted(RUN, "Simulation", null)).hint().contains("attach sim-1"));
    assertEquals(Failures.UNAVAILABLE, Failures.report(new StatusRuntimeException(Status.UNAVAILABLE)).exitCode());
    assertEquals(Failures.NOT_FOUND, Failures.report(new StatusRuntimeException(
        Status.NOT_FOUND.withDescription("Execution not found in mutable state"))).exitCode());
    assertEquals("no such run", Failures.report(new StatusRuntimeException(
        Status.NOT_FOUND.withDescription("workflow not found for ID: x"))).message());
    assertEquals(Failures.LOCAL, Failures.report(new java.io.UncheckedIOException(
        new AccessDeniedException("/root/x.csv"))).exitCode());
    assertEquals("no permission to write /root/x.csv", Failures.report(new AccessDeniedException("/root/x.csv")).message());
    assertEquals(Failures.LOCAL, Failures.report(new NoSuchFileException("/nope/x")).exitCode());
    assertEquals(Failures.LOCAL, Failures.report(new RuntimeException(new BindException("Address already in use"))).exitCode());
    assertEquals(Failures.USAGE, Failures.report(new IllegalArgumentException("--steps must be >= 1")).exitCode());
    assertEquals(Failures.INTERRUPTED, Failures.report(new InterruptedException()).exitCode());
    Failures.Report other = Failures.report(new IllegalStateException("boom\n\tat somewhere"));
    assertEquals(Failures.FAILED, other.exitCode());
    assertEquals("IllegalStateException: boom", other.message());
  }
}
