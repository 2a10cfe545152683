package io.durableagents.activities.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.workflows.PayloadFailureTypes;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.temporal.failure.ApplicationFailure;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadGuardTest {
  /** A tool with a huge answer. */
  public static class Dump {
    @Tool(name = "dump", value = "Dump n kilobytes.")
    public String dump(@P("kilobytes") int kilobytes) {
      return "é".repeat(kilobytes * 512);
    }
  }

  @Test
  void smallOutputsPassUntouched() {
    String s = "hello";
    assertSame(s, new PayloadGuard(2048, PayloadGuard.Mode.TRUNCATE).check("x", s));
  }

  @Test
  void largeOutputsAreCutWithAMarkerAndStayUnderTheLimit() {
    String big = "é".repeat(10_000); // 20,000 bytes of two-byte characters
    String cut = new PayloadGuard(2048, PayloadGuard.Mode.TRUNCATE).check("the answer", big);
    int bytes = cut.getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes <= 2048, "bytes " + bytes);
    assertTrue(cut.endsWith("[cut by Durable Agents: the answer was 20000 bytes, limit 2048]"), cut);
    assertFalse(cut.contains("\uFFFD"), "no half character");
  }

  @Test
  void inFailModeTheyAreRejectedAtOnce() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> new PayloadGuard(2048, PayloadGuard.Mode.FAIL).check("the answer", "x".repeat(5000)));
    assertEquals(PayloadFailureTypes.PAYLOAD_TOO_LARGE, f.getType());
    assertTrue(f.isNonRetryable());
  }

  @Test
  void toolOutputsGoThroughTheGuard() throws Exception {
    ToolActivitiesImpl tools = new ToolActivitiesImpl(ToolRegistry.newBuilder().addExternalTools(new Dump()).build(),
        AgentMetrics.none(), new PayloadGuard(4096, PayloadGuard.Mode.TRUNCATE));
    ToolExecutionResult r = tools.execute(new ToolExecutionRequest("c", "dump",
        new ObjectMapper().readTree("{\"kilobytes\":300}"), "k"));
    assertTrue(r.output().getBytes(StandardCharsets.UTF_8).length <= 4096);
    assertTrue(r.output().contains("[cut by Durable Agents: the output of dump was 307200 bytes"), r.output().substring(r.output().length() - 100));
  }

  @Test
  void modesParseWithAClearError() {
    assertEquals(PayloadGuard.Mode.FAIL, PayloadGuard.Mode.parse("V", "fail"));
    String m = assertThrows(IllegalArgumentException.class, () -> PayloadGuard.Mode.parse("V", "drop")).getMessage();
    assertTrue(m.contains("V='drop'") && m.contains("truncate, fail"), m);
  }
}
