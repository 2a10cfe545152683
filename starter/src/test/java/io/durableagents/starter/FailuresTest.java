package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.llm.TokenUsage;
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

  /** The failure of a ReWOO plan rejected twice, as the workflow writes it. */
  private static final String PLAN_REJECTED_TWICE = "the ReWOO planner made an invalid plan twice (the second time"
      + " after it was shown the errors).\nErrors of the corrected plan:\n- step 1 (move_one_step): direction: \"UP\""
      + " is not one of N, S, E, W\nErrors of the first plan:\n- the plan has no steps";

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
        List.of(LlmFailureTypes.RATE_LIMITED, "rate limited after 8 attempts", "DURABLE_AGENTS_LLM_RATE_LIMIT"),
        List.of(LlmFailureTypes.UNKNOWN_TOOLS, "unknown tools [weather]; this worker's external tools: calculator",
            "DURABLE_AGENTS_MCP_SERVERS"));
    for (List<String> t : typed) {
      Failures.Report r = Failures.report(failedRun(ApplicationFailure.newNonRetryableFailure(t.get(1), t.get(0))));
      assertEquals(Failures.FAILED, r.exitCode());
      assertEquals("the run failed: " + t.get(0) + ": " + t.get(1), r.message());
      assertTrue(r.hint().contains(t.get(2)), r.hint());
    }
  }

  /** Every command of the command line, subcommands included. */
  private static List<picocli.CommandLine> commands(picocli.CommandLine c) {
    List<picocli.CommandLine> all = new java.util.ArrayList<>(List.of(c));
    for (picocli.CommandLine sub : c.getSubcommands().values()) {
      all.addAll(commands(sub));
    }
    return all;
  }

  @Test
  void everyVariableAndOptionAHintNamesExistsForTheCommandThatPrintsIt() throws Exception {
    String configuration = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "configuration.md"));
    java.util.regex.Pattern variable = java.util.regex.Pattern.compile("\\bDURABLE_AGENTS_[A-Z0-9_]+\\b");
    java.util.regex.Pattern option = java.util.regex.Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    List<picocli.CommandLine> commands = commands(StarterMain.commandLine());
    int checked = 0;
    for (String type : Failures.HINTS.keySet()) {
      WorkflowFailedException failed = failedRun(ApplicationFailure.newNonRetryableFailure("it failed", type));
      List<picocli.CommandLine.Model.CommandSpec> specs = new java.util.ArrayList<>();
      specs.add(null);
      commands.forEach(c -> specs.add(c.getCommandSpec()));
      for (picocli.CommandLine.Model.CommandSpec spec : specs) {
        String where = type + " as " + (spec == null ? "any command" : spec.qualifiedName()) + " prints it";
        String hint = Failures.report(failed, spec).hint();
        java.util.regex.Matcher v = variable.matcher(hint);
        while (v.find()) {
          assertTrue(configuration.contains("`" + v.group() + "`"), where + ": " + v.group()
              + " is no variable of docs/configuration.md: " + hint);
          checked++;
        }
        java.util.regex.Matcher o = option.matcher(hint);
        while (o.find()) {
          assertTrue(spec != null && spec.findOption(o.group()) != null,
              where + ": it has no option " + o.group() + ": " + hint);
          checked++;
        }
      }
    }
    assertTrue(checked > 0, "the hints name settings");
    picocli.CommandLine cli = StarterMain.commandLine();
    WorkflowFailedException limited = failedRun(
        ApplicationFailure.newNonRetryableFailure("rate limited", LlmFailureTypes.RATE_LIMITED));
    String simulate = Failures.report(limited, cli.getSubcommands().get("simulate").getCommandSpec()).hint();
    assertTrue(simulate.contains("--max-concurrent-agents") && simulate.contains("DURABLE_AGENTS_LLM_RATE_LIMIT"), simulate);
    String agent = Failures.report(limited, cli.getSubcommands().get("agent").getCommandSpec()).hint();
    assertTrue(agent.contains("DURABLE_AGENTS_LLM_RATE_LIMIT") && !agent.contains("--max-concurrent-agents"), agent);

    // a plan cut at its maximum output length: the hint says how to raise it, where the command can
    WorkflowFailedException cut = failedRun(ApplicationFailure.newNonRetryableFailure("the ReWOO planner made an "
        + "invalid plan twice: the plan was cut at the output limit before it ended: write a shorter plan",
        io.durableagents.workflows.agent.StrategyFailureTypes.INVALID_PLAN));
    String agentCut = Failures.report(cut, cli.getSubcommands().get("agent").getCommandSpec()).hint();
    assertTrue(agentCut.contains("--max-output-tokens") && agentCut.contains("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS"),
        agentCut);
    String describeCut = Failures.report(cut, cli.getSubcommands().get("describe").getCommandSpec()).hint();
    assertTrue(!describeCut.contains("--max-output-tokens") && describeCut.contains("rewoo-plan="), describeCut);
    assertTrue(configuration.contains("`DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS`"));
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

  @Test
  void aFailedTaskSaysWhyItsPlanWasRejectedAndWhatItSpent() {
    ApplicationFailure cause = ApplicationFailure.newNonRetryableFailure(PLAN_REJECTED_TWICE,
        StrategyFailureTypes.INVALID_PLAN, SpentBeforeFailure.MARKER,
        new SpentBeforeFailure(2, new TokenUsage(100, 20), 0));
    WorkflowFailedException e = new WorkflowFailedException(WorkflowExecution.newBuilder().setWorkflowId("task-1")
        .build(), "AgentTask", EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, 9,
        RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE, cause);

    Failures.Report report = Failures.report(e);

    assertEquals("the run failed after 2 LLM calls (100 tokens in, 20 out): ReWooInvalidPlan: the ReWOO planner"
        + " made an invalid plan twice: step 1 (move_one_step): direction: \"UP\" is not one of N, S, E, W",
        report.message());
    ApplicationFailure empty = ApplicationFailure.newNonRetryableFailure(PLAN_REJECTED_TWICE.replace(
        "step 1 (move_one_step): direction: \"UP\" is not one of N, S, E, W", "the plan has no steps"),
        StrategyFailureTypes.INVALID_PLAN);
    assertTrue(Failures.runFailure(empty).endsWith("invalid plan twice: the plan has no steps"),
        Failures.runFailure(empty));
  }
}
