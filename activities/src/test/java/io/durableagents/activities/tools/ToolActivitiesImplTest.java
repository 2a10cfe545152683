package io.durableagents.activities.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecifications;
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

  @TempDir Path files;

  private ToolActivitiesImpl tools() {
    return new ToolActivitiesImpl(ToolRegistry.newBuilder().addWorldActions(new EpsteinActions())
        .addExternalTools(new CalculatorTool(), new FileReaderTool(files), new Flaky()).build());
  }

  private static ToolExecutionResult run(ToolActivitiesImpl t, String tool, String args) throws Exception {
    return t.execute(new ToolExecutionRequest("c1", tool, MAPPER.readTree(args), "wf/1/c1"));
  }

  @Test
  void calculatorEvaluatesAndReportsBadExpressionsAsObservations() throws Exception {
    ToolActivitiesImpl t = tools();
    ToolExecutionResult ok = run(t, "calculator", "{\"expression\":\"2 * (3 + 4) ^ 2\"}");
    assertFalse(ok.error());
    assertEquals("98", ok.output());
    ToolExecutionResult bad = run(t, "calculator", "{\"expression\":\"2 +\"}");
    assertTrue(bad.error());
    assertTrue(bad.output().startsWith("cannot evaluate '2 +'"), bad.output());
  }

  @Test
  void readFileStaysInsideItsDirectory() throws Exception {
    Files.writeString(files.resolve("notes.txt"), "hello");
    ToolActivitiesImpl t = tools();
    assertEquals("hello", run(t, "read_file", "{\"path\":\"notes.txt\"}").output());
    ToolExecutionResult escape = run(t, "read_file", "{\"path\":\"../../etc/passwd\"}");
    assertTrue(escape.error());
    assertTrue(escape.output().contains("outside the files directory"), escape.output());
    assertTrue(run(t, "read_file", "{\"path\":\"missing.txt\"}").output().contains("no file"));
  }

  @Test
  void unknownToolsWorldActionsAndBadArgumentsAreObservations() throws Exception {
    ToolActivitiesImpl t = tools();
    ToolExecutionResult unknown = run(t, "teleport", "{}");
    assertTrue(unknown.error());
    assertTrue(unknown.output().contains("unknown tool 'teleport'"));
    assertTrue(run(t, "move_one_step", "{\"direction\":\"North\"}").output().contains("world action"));
    ToolExecutionResult missing = run(t, "calculator", "{}");
    assertTrue(missing.error());
    assertTrue(missing.output().contains("expression: required but missing"), missing.output());
  }

  @Test
  void aToolThatThrowsIsARetryableFailure() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> run(tools(), "fetch_quote", "{\"symbol\":\"ACME\"}"));
    assertEquals(ToolFailureTypes.TOOL_FAILED, f.getType());
    assertFalse(f.isNonRetryable());
  }

  @Test
  void validatorChecksTypesEnumsRequiredAndUnknownArguments() throws Exception {
    var spec = ToolSpecifications.toolSpecificationsFrom(new EpsteinActions()).stream()
        .filter(s -> s.name().equals("move_one_step")).findFirst().orElseThrow();
    assertEquals(List.of(), ToolCallValidator.validate(spec, json("{\"direction\":\"SouthWest\"}")));
    assertTrue(ToolCallValidator.validate(spec, json("{\"direction\":\"Up\"}")).get(0).contains("is not one of"));
    assertTrue(ToolCallValidator.validate(spec, json("{}")).get(0).contains("required but missing"));
    assertTrue(ToolCallValidator.validate(spec, json("{\"direction\":\"North\",\"speed\":3}"))
        .get(0).contains("speed: unknown argument"));
    assertTrue(ToolCallValidator.validate(spec, json("[1]")).get(0).contains("expected an object"));
  }

  private static JsonNode json(String s) throws Exception {
    return MAPPER.readTree(s);
  }
}
