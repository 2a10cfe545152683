package io.durableagents.starter.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Failures;
import io.durableagents.starter.OnSharedDevServer;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.approval.ApprovalOutcome;
import io.durableagents.workflows.approval.ToolApproval;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.WorkflowReplayer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Human approval end to end, through the real command line and processes: {@code agent
 * --requires-approval calculator} waits for a decision, {@code approvals} lists the call, {@code deny}
 * of an unknown call is refused, the worker is killed with {@code kill -9} while the call waits, and
 * {@code approve --args} (an edit) sent afterwards is taken by a new worker: the call runs once, with the
 * reviewer's arguments, and the run finishes.
 */
class ApprovalEndToEndTest {
  private static final TypeReference<List<ToolApproval>> APPROVALS = new TypeReference<>() {};

  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("approval-end-to-end");
  private static WorkflowClient client;

  @BeforeAll
  static void startServer() throws Exception {
    dir = Files.createDirectories(Path.of("target", "e2e-approval"));
    client = temporal.client();
  }

  private static Process worker(String name, Path journal) {
    return temporal.start("384m", dir.resolve(name + ".log"), Map.of(
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString()), "worker");
  }

  /** A finished command: its exit code and what it printed. */
  private record Result(int exitCode, String output) {}

  /**
   * Runs {@code durable-agents <args>} in this JVM against the server (a JVM for each of these short
   * commands cost seconds apiece; the agent and the workers run in processes of their own), its output also
   * kept in {@code <name>.log}.
   */
  private static Result command(String name, String... args) throws Exception {
    CliFailuresTest.Run r = CliFailuresTest.run(temporal.env(), args);
    String output = r.out() + r.err();
    Files.writeString(dir.resolve(name + ".log"), output);
    return new Result(r.exitCode(), output);
  }

  private static List<ToolApproval> pending(String id) {
    try {
      List<ToolApproval> all = client.newUntypedWorkflowStub(id).query(ToolApprovals.QUERY, List.class,
          APPROVALS.getType());
      return all.stream().filter(ToolApproval::pending).toList();
    } catch (RuntimeException notYet) {
      return List.of(); // not started on a worker yet
    }
  }

  @Test
  void aCallWaitsThroughAKillNineAndRunsOnceWithTheReviewersArguments() throws Exception {
    String id = "e2e-approval";
    Path journal = dir.resolve("journal-approval.log");
    Files.deleteIfExists(journal);
    Process w1 = worker("worker-approval-1", journal);
    File out = dir.resolve("starter-agent.log").toFile();
    Files.deleteIfExists(out.toPath());
    Process starter = ChildProcesses.start("256m", out, temporal.env(),
        "agent", "--prompt", "What is 17 * 23?", "--tools", "calculator", "--strategy", "react",
        "--requires-approval", "calculator", "--no-worker", "--id", id);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (pending(id).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the calculator call never waited: " + out);
      Thread.sleep(50);
    }
    // the agent asks every ApprovalWatch.INTERVAL_MILLIS: its line must be out before the call is decided
    while (!Files.readString(out.toPath()).contains("Waiting for approval: call 1,")) {
      assertTrue(System.nanoTime() < deadline, "the agent never said that the call waits: " + out);
      Thread.sleep(50);
    }
    ToolApproval waiting = pending(id).get(0);
    assertEquals("calculator", waiting.tool());
    assertEquals("17 * 23", waiting.arguments().path("expression").asText());
    WorkflowStub run = client.newUntypedWorkflowStub(id);
    assertEquals(Boolean.TRUE, run.describe().getTypedSearchAttributes().get(SearchAttributes.AWAITING_APPROVAL),
        "agent sets AwaitingApproval where the namespace has it");

    Result listed = command("approvals", "approvals", id);
    assertEquals(0, listed.exitCode(), listed.output());
    assertTrue(listed.output().contains("calculator") && listed.output().contains("{\"expression\":\"17 * 23\"}")
        && listed.output().lines().anyMatch(l -> l.startsWith("1 ")), listed.output());

    Result everywhere = command("approvals-everywhere", "approvals");
    assertEquals(0, everywhere.exitCode(), everywhere.output());
    assertTrue(everywhere.output().lines().anyMatch(l -> l.startsWith(id + " ") && l.contains("calculator")),
        "without an id, the runs marked AwaitingApproval: " + everywhere.output());

    long eventsBefore = client.fetchHistory(id).getEvents().size();
    Result unknown = command("deny-unknown", "deny", id, "7", "--reason", "no");
    assertEquals(Failures.USAGE, unknown.exitCode(), unknown.output());
    assertTrue(unknown.output().contains("no call '7' in " + id + "; calls waiting: 1"), unknown.output());
    Result badArgs = command("approve-bad-args", "approve", id, "1", "--args", "[1, 2]");
    assertTrue(badArgs.exitCode() != 0, badArgs.output());
    // on a real server a refused update runs in a speculative workflow task that leaves no event at all
    assertEquals(eventsBefore, client.fetchHistory(id).getEvents().size(),
        "refused updates added events: " + client.fetchHistory(id).getEvents().subList((int) eventsBefore,
            client.fetchHistory(id).getEvents().size()));

    w1.destroyForcibly().waitFor(); // SIGKILL while the call waits
    Process w2 = worker("worker-approval-2", journal);

    Result edited = command("approve", "approve", id, "1", "--args", "{\"expression\":\"17 * 24\"}",
        "--reason", "the other invoice", "--by", "carol");
    assertEquals(0, edited.exitCode(), edited.output());
    assertTrue(edited.output().contains("Call 1 (calculator) of " + id + ": edited"), edited.output());

    assertTrue(starter.waitFor(120, TimeUnit.SECONDS), "the agent did not finish: " + out);
    String printed = Files.readString(out.toPath());
    assertEquals(0, starter.exitValue(), printed);
    assertTrue(printed.contains("408"), "the answer comes from the edited call: " + printed);
    assertEquals(1, printed.lines().filter(l -> l.startsWith("Waiting for approval: call 1, calculator "
        + "{\"expression\":\"17 * 23\"}: approve " + id + " 1 [--args JSON] | deny " + id + " 1 --reason TEXT")).count(),
        "agent says once that the call waits, and how to decide it: " + printed);

    Result again = command("approve-again", "approve", id, "1");
    assertTrue(again.exitCode() != 0, "a finished run takes no decision: " + again.output());

    List<ToolApproval> all = client.newUntypedWorkflowStub(id).query(ToolApprovals.QUERY, List.class,
        APPROVALS.getType());
    assertEquals(ApprovalOutcome.EDITED, all.get(0).outcome());
    assertEquals("carol", all.get(0).reviewer());
    List<HistoryEvent> events = client.fetchHistory(id).getEvents();
    assertEquals(1, events.stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
        && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute")).count(),
        "one tool call, scheduled after the decision");
    assertEquals(1, events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED).count(),
        "the refused deny left nothing in the history");
    long toolRuns = Files.readAllLines(journal).stream()
        .filter(l -> l.split("\t")[1].equals("start") && l.split("\t")[5].equals("ToolExecute")).count();
    assertEquals(1, toolRuns, "the calculator ran once, on the new worker");
    WorkflowReplayer.replayWorkflowExecution(client.fetchHistory(id), AgentTaskWorkflowImpl.class);
    w2.destroy();
    assertTrue(w2.waitFor(30, TimeUnit.SECONDS), "the worker stops within 30 s of SIGTERM");
  }
}
