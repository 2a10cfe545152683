package io.durableagents.testkit.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.testkit.KillNineHarness;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker killed with {@code kill -9} during an MCP call. An agent looks up a, b and c with a slow
 * tool of a real MCP server (the MCP Java SDK's, over streamable HTTP, in this JVM); the workers, in
 * child JVMs, read the server from the file in {@code DURABLE_AGENTS_MCP_SERVERS}, as the command
 * line's worker does. During the second lookup the first worker dies. The second worker finishes the
 * run: the calls that had completed never reach the server again, the one in flight is retried with
 * the same idempotency key (the server, which keeps one effect per key, answers it without a second
 * effect), and no completed activity of the run ran twice.
 */
class McpToolKillTest {
  private static final String ID = "mcp-tool-kill";

  @Test
  void aWorkerKilledDuringAnMcpCallRunsNoCompletedCallAgain() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "mcp-tool-kill"));
    try (DirectoryMcpServer directory = new DirectoryMcpServer(1500);
        KillNineHarness harness = KillNineHarness.start(dir)) {
      Path servers = dir.resolve("mcp-servers.yaml");
      Files.writeString(servers, "mcp_servers:\n  dir:\n    url: " + directory.url() + "\n"
          + "    call_timeout_seconds: 30\n    heartbeat_timeout_seconds: 2\n");
      Map<String, String> env = Map.of(WorkerSettings.MCP_SERVERS, servers.toAbsolutePath().toString());
      KillNineHarness.ChildWorker first = harness.startWorker(McpWorkerMain.class, env);

      WorkflowClient client = harness.client();
      AgentTaskWorkflow agent = client.newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(ID).build());
      WorkflowClient.start(agent::run, new AgentTaskInput("Look up a, b and c.", List.of("dir_lookup"),
          AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(McpWorkerMain.MODEL).build()));

      String done = ID + "/0/call_1";
      String inFlight = ID + "/0/call_2";
      String last = ID + "/0/call_3";
      harness.await(() -> directory.count("effect", done) == 1 && directory.count("start", inFlight) == 1,
          Duration.ofSeconds(90), () -> "the first lookup done and the second one running on the server: "
              + directory.events() + " (worker log " + first.log() + ")");
      first.kill(); // SIGKILL during the MCP call
      harness.startWorker(McpWorkerMain.class, env);

      AgentTaskResult result = client.newUntypedWorkflowStub(ID).getResult(120, TimeUnit.SECONDS,
          AgentTaskResult.class);
      assertEquals("value of a; value of b; value of c", result.answer());
      assertEquals(3, result.toolCalls());

      for (String key : List.of(done, last)) {
        assertEquals(1, directory.count("start", key), key + " reached the server exactly once: " + directory.events());
      }
      assertEquals(2, directory.count("start", inFlight),
          "the call in flight was retried by the new worker: " + directory.events());
      assertEquals(1, directory.count("repeat", inFlight),
          "the retry came with the same idempotency key, and the server knew it: " + directory.events());
      for (String key : List.of(done, inFlight, last)) {
        assertEquals(1, directory.count("effect", key), key + " took effect once: " + directory.events());
      }

      ExecutionJournalCheck.Report report = harness.assertNoCompletedActivityRanAgain(ID);
      assertEquals(2, report.workerProcesses());
      assertEquals(1, report.retriedInFlight(), "only the call in flight was retried");

      List<String> summaries = client.fetchHistory(ID).getEvents().stream()
          .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
          .filter(HistoryEvent::hasUserMetadata)
          .map(e -> e.getUserMetadata().getSummary().getData().toString(StandardCharsets.UTF_8))
          .filter(s -> s.contains("tool:")).toList();
      assertEquals(3, summaries.size(), summaries.toString());
      assertTrue(summaries.stream().allMatch(s -> s.contains("tool: mcp dir/lookup")), summaries.toString());
    }
  }
}
