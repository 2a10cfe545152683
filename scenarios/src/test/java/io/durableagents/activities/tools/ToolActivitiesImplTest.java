package io.durableagents.activities.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import io.durableagents.scenarios.epstein.EpsteinActions;
import io.durableagents.workflows.tools.ToolCallOptions;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.durableagents.workflows.tools.ToolPolicies;
import io.durableagents.workflows.tools.ToolPolicy;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  /** A permanent problem, and a kind of it. */
  public static class AccountProblem extends RuntimeException {
    public AccountProblem(String message) {
      super(message);
    }
  }

  public static class AccountClosed extends AccountProblem {
    public AccountClosed(String message) {
      super(message);
    }
  }

  /** A tool with a context parameter, a permanent failure and options of its own. */
  public static class Bank {
    @Tool(name = "transfer", value = "Transfers money.")
    @DurableTool(startToClose = "PT2M", heartbeat = "PT0S", maximumAttempts = 5, nonRetryable = AccountProblem.class)
    public String transfer(@P("the amount") int amount, ToolCallContext call) {
      if (amount < 0) {
        throw new AccountClosed("account closed");
      }
      if (amount == 0) {
        throw new IllegalStateException("bank offline");
      }
      return "sent " + amount + " as " + call.idempotencyKey() + " (attempt " + call.attempt() + ")";
    }
  }

  public static class DurableAction {
    @Tool(name = "jump", value = "Jumps.")
    @DurableTool(maximumAttempts = 2)
    public String jump() {
      return "requested";
    }
  }

  @Test
  void aContextParameterIsLeftOutOfTheSchemaAndGetsTheCallsKey() throws Exception {
    ToolRegistry registry = ToolRegistry.newBuilder().addExternalTools(new Bank()).build();
    ToolSpecification spec = registry.specifications(List.of("transfer")).get(0);
    assertEquals(List.of("amount"), List.copyOf(spec.parameters().properties().keySet()));
    ToolExecutionResult ok = run(new ToolActivitiesImpl(registry), "transfer", "{\"amount\":5}");
    assertFalse(ok.error());
    assertEquals("sent 5 as wf/1/c1 (attempt 1)", ok.output());
  }

  @Test
  void anExceptionOfANonRetryableTypeOrASubclassFailsWithoutRetry() {
    ToolActivitiesImpl t = new ToolActivitiesImpl(ToolRegistry.newBuilder().addExternalTools(new Bank()).build());
    ApplicationFailure permanent = assertThrows(ApplicationFailure.class, () -> run(t, "transfer", "{\"amount\":-1}"));
    assertEquals(ToolFailureTypes.TOOL_FAILED_PERMANENTLY, permanent.getType());
    assertTrue(permanent.isNonRetryable());
    assertInstanceOf(AccountClosed.class, permanent.getCause());
    assertTrue(permanent.getOriginalMessage().startsWith("transfer failed: "), permanent.getOriginalMessage());
    ApplicationFailure retryable = assertThrows(ApplicationFailure.class, () -> run(t, "transfer", "{\"amount\":0}"));
    assertEquals(ToolFailureTypes.TOOL_FAILED, retryable.getType());
    assertFalse(retryable.isNonRetryable());
  }

  @Test
  void theRegistryGivesEachExternalToolItsPolicyAndOthersTheDefaults() {
    ToolRegistry registry = ToolRegistry.newBuilder().addWorldActions(new EpsteinActions())
        .addExternalTools(new Bank(), new CalculatorTool())
        .addExternalTool(new Stock(), ToolOptions.newBuilder().setMaximumAttempts(1).build()).build();
    assertEquals(List.of("transfer", "calculator", "reorder"), registry.externalToolNames());
    ToolPolicies policies = registry.policies();
    ToolPolicy transfer = policies.policyOf("transfer");
    assertEquals(Duration.ofMinutes(2), transfer.startToCloseTimeout());
    assertEquals(Duration.ZERO, transfer.heartbeatTimeout());
    assertEquals(5, transfer.maximumAttempts());
    assertEquals(ToolCallOptions.INITIAL_INTERVAL, transfer.initialInterval(), "unset attributes keep the defaults");
    assertEquals(1, policies.policyOf("reorder").maximumAttempts());
    assertEquals(ToolPolicy.DEFAULT, policies.policyOf("calculator"));
    assertEquals(ToolPolicy.DEFAULT, policies.policyOf("no_such_tool"));
    assertNull(ToolCallOptions.forCall(transfer, "tool: transfer").getHeartbeatTimeout(),
        "no heartbeat timeout when the policy has none");
  }

  @Test
  void durableToolIsForExternalToolsOnly() {
    String message = assertThrows(IllegalArgumentException.class,
        () -> ToolRegistry.newBuilder().addWorldActions(new DurableAction())).getMessage();
    assertTrue(message.contains("tool 'jump'") && message.contains("is a world action")
        && message.contains("@DurableTool applies to external tools only"), message);
  }
}

