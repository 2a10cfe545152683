package io.durableagents.starter.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.starter.agent.AgentCommand;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.approval.ApprovalOutcome;
import io.durableagents.workflows.approval.ToolApproval;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code approvals} and the agent's summary print of approved and denied calls: the listing's
 * columns line up whatever a reason or a call's name holds, and a denied call (it did not run) is counted
 * apart from the tool calls.
 */
class ApprovalsTableTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApprovalTargets.Named call(String name, String agent, int step, ApprovalOutcome outcome,
      String reason, String arguments) throws Exception {
    return new ApprovalTargets.Named(name, new ToolApproval(name.substring(name.lastIndexOf('/') + 1), "wf", agent,
        step, "calculator", "c1", JSON.readTree(arguments), "2026-11-26T09:00:00Z",
        outcome == null ? "2026-11-26T10:00:00Z" : null, outcome == null ? "deny" : null, outcome, reason, null,
        null, outcome == null ? null : "2026-11-26T09:00:42Z"));
  }

  @Test
  void theArgumentsColumnLinesUpWhateverTheCellsHold() throws Exception {
    List<ApprovalTargets.Named> calls = List.of(
        call("1", "task", 0, ApprovalOutcome.APPROVED, null, "{\"expression\":\"1 + 1\"}"),
        call("2", "task", 0, ApprovalOutcome.DENIED, "the invoice is a duplicate of one paid on Monday",
            "{\"expression\":\"17 * 23\"}"),
        call("agent-citizen-12/step-140/3", "citizen-12", 140, null, null, "{\"expression\":\"2\"}"));
    List<String> lines = ApprovalsCommand.table(calls, true, Instant.parse("2026-11-26T09:05:00Z"));
    assertEquals(4, lines.size(), String.join("\n", lines));
    int column = lines.get(0).indexOf("arguments");
    for (String line : lines.subList(1, lines.size())) {
      assertEquals('{', line.charAt(column), "misaligned:\n" + String.join("\n", lines));
      assertEquals(' ', line.charAt(column - 1), String.join("\n", lines));
    }
    assertTrue(lines.get(0).startsWith("call ") && lines.get(0).contains(" waited ") && lines.get(0).contains(" outcome "),
        lines.get(0));
    assertTrue(lines.get(2).contains("42 s") && lines.get(2).contains("denied: the invoice is a duplicate"), lines.get(2));
    assertTrue(lines.get(3).contains("5 min 0 s") && lines.get(3).contains("waiting (then deny at 2026-11-26T10:00:00Z)"),
        lines.get(3));

    List<String> waiting = ApprovalsCommand.table(calls.subList(2, 3), false, Instant.parse("2026-11-26T09:05:00Z"));
    assertTrue(waiting.get(0).contains(" waiting ") && waiting.get(0).contains(" on timeout "), waiting.get(0));
    assertEquals(waiting.get(0).indexOf("arguments"), waiting.get(1).indexOf('{'), String.join("\n", waiting));
  }

  @Test
  void theAgentsSummaryCountsADeniedCallApartFromTheToolCalls() {
    AgentTaskResult denied = new AgentTaskResult("I could not pay.", "react", null, List.of(), null, List.of(), 0,
        null, 2, 0).withDeniedToolCalls(1);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AgentCommand.print(denied, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("Strategy react: 2 LLM calls, 0 tool calls (1 denied, not run), tokens"), out);

    bytes.reset();
    AgentCommand.print(new AgentTaskResult("2", "react", null, List.of(), null, List.of(), 0, null, 2, 1),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("2 LLM calls, 1 tool calls, tokens"),
        "no note without a denied call: " + bytes);
  }
}
