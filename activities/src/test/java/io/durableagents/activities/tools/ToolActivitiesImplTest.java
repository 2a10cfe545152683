package io.durableagents.activities.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolActivitiesImplTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A tool whose backend is down. */
  public static class Flaky {
    @Tool(name = "fetch_quote", value = "Fetch a quote.")
    public String fetch(@P("symbol") String symbol) {
      throw new IllegalStateException("backend unavailable");
    }
  }

  /** A tool with a renamed parameter, typed arguments and an optional one. */
  public static class Stock {
    @Tool(name = "reorder", value = "Reorder items.")
    public String reorder(@P(name = "item_ids", value = "the items") List<Integer> itemIds,
        @P("how many of each") int count, @P(value = "a note", required = false) String note) {
      return "reordered " + itemIds + " x" + count + (note == null ? "" : " (" + note + ")");
    }
  }

  @TempDir Path files;

  private ToolActivitiesImpl tools() {
    return new ToolActivitiesImpl(ToolRegistry.newBuilder().addWorldActions(new EpsteinActions())
        .addExternalTools(new CalculatorTool(), new FileReaderTool(files), new Flaky(), new Stock()).build());
  }

  private static ToolExecutionResult run(ToolActivitiesImpl t, String tool, String args) throws Exception {
    return t.execute(new ToolExecutionRequest("c1", tool, MAPPER.readTree(args), "wf/1/c1"));
  }

  @Test
  void calculatorEvaluates() throws Exception {
    ToolExecutionResult ok = run(tools(), "calculator", "{\"expression\":\"2 * (3 + 4) ^ 2\"}");
    assertFalse(ok.error());
    assertEquals("98", ok.output());
    assertEquals("c1", ok.toolCallId());
    assertEquals("calculator", ok.name());
    assertEquals("0.5", run(tools(), "calculator", "{\"expression\":\"1/2\"}").output());
  }

  @Test
  void aBadExpressionIsAnErrorResultNotAFailure() throws Exception {
    ToolExecutionResult bad = run(tools(), "calculator", "{\"expression\":\"2+\"}");
    assertTrue(bad.error());
    assertTrue(bad.output().startsWith("cannot evaluate '2+'"), bad.output());
  }

  @Test
  void readFileStaysInsideItsDirectory() throws Exception {
    Files.writeString(files.resolve("notes.txt"), "hello");
    ToolActivitiesImpl t = tools();
    ToolExecutionResult ok = run(t, "read_file", "{\"path\":\"notes.txt\"}");
    assertFalse(ok.error());
    assertEquals("hello", ok.output());
    ToolExecutionResult escape = run(t, "read_file", "{\"path\":\"../../etc/passwd\"}");
    assertTrue(escape.error());
    assertTrue(escape.output().contains("outside the files directory"), escape.output());
    ToolExecutionResult absolute = run(t, "read_file", "{\"path\":\"/etc/passwd\"}");
    assertTrue(absolute.error());
    ToolExecutionResult missing = run(t, "read_file", "{\"path\":\"missing.txt\"}");
    assertTrue(missing.error());
    assertTrue(missing.output().contains("no file"), missing.output());
  }

  @Test
  void unknownToolsAndWorldActionsAreErrorResults() throws Exception {
    ToolActivitiesImpl t = tools();
    ToolExecutionResult unknown = run(t, "teleport", "{}");
    assertTrue(unknown.error());
    assertTrue(unknown.output().startsWith("unknown tool 'teleport'; available tools: calculator, read_file"),
        unknown.output());
    ToolExecutionResult world = run(t, "move_one_step", "{\"direction\":\"North\"}");
    assertTrue(world.error());
    assertTrue(world.output().contains("world action"), world.output());
  }

  @Test
  void theFinishControlToolIsOfferedButNeverRunAsATool() throws Exception {
    ToolRegistry registry = BuiltinTools.registry(files);
    assertEquals(ToolKind.CONTROL, registry.find("finish").orElseThrow().kind());
    assertEquals(List.of("answer"), List.copyOf(
        registry.specifications(List.of("finish")).get(0).parameters().required()));
    ToolExecutionResult finish =
        run(new ToolActivitiesImpl(registry), "finish", "{\"answer\":\"42\"}");
    assertTrue(finish.error());
    assertTrue(finish.output().contains("handled by the agent's workflow"), finish.output());
    ToolExecutionResult unknown = run(new ToolActivitiesImpl(registry), "teleport", "{}");
    assertFalse(unknown.output().contains("finish"), "finish is no external tool: " + unknown.output());
  }

  @Test
  void argumentsThatDoNotFitTheSchemaAreErrorResults() throws Exception {
    ToolActivitiesImpl t = tools();
    ToolExecutionResult missing = run(t, "calculator", "{}");
    assertTrue(missing.error());
    assertTrue(missing.output().contains("expression: required but missing"), missing.output());
    ToolExecutionResult wrongType = run(t, "reorder", "{\"item_ids\":[1,\"two\"],\"count\":1}");
    assertTrue(wrongType.error());
    assertTrue(wrongType.output().contains("item_ids[1]: expected an integer"), wrongType.output());
  }

  @Test
  void argumentsAreConvertedToTheParameterTypesByTheirSchemaNames() throws Exception {
    ToolActivitiesImpl t = tools();
    assertEquals("reordered [3, 5] x2", run(t, "reorder", "{\"item_ids\":[3,5],\"count\":2}").output());
    assertEquals("reordered [3] x1 (urgent)",
        run(t, "reorder", "{\"item_ids\":[3],\"count\":1,\"note\":\"urgent\"}").output());
  }

  @Test
  void aToolThatThrowsIsARetryableFailure() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> run(tools(), "fetch_quote", "{\"symbol\":\"ACME\"}"));
    assertEquals(ToolFailureTypes.TOOL_FAILED, f.getType());
    assertFalse(f.isNonRetryable());
    assertInstanceOf(IllegalStateException.class, f.getCause());
    assertTrue(f.getOriginalMessage().contains("backend unavailable"), f.getOriginalMessage());
  }
}
