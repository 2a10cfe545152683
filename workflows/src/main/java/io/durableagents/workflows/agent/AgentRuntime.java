package io.durableagents.workflows.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.approval.ApprovalOutcome;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolCallOptions;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a reasoning strategy uses to act inside an agent step: LLM calls and external tool calls as
 * activities, with the tokens and calls counted. Each tool call runs with its tool's options from the
 * worker's {@link ToolPolicies} (timeouts, heartbeat, retries). Workflow code only.
 */
public final class AgentRuntime {
  private final AgentStepInput input;
  private final boolean sharedWorkflow;
  private final ToolPolicies toolPolicies;
  private TokenUsage usage = TokenUsage.ZERO;
  private int llmCalls;
  private int toolCalls;
  private int deniedToolCalls;
  private final Set<String> warnings = new LinkedHashSet<>();
  private LlmResponse lastResponse;

  /**
   * The runtime of an agent step that has its workflow to itself, running every tool with the default
   * options.
   */
  public AgentRuntime(AgentStepInput input) {
    this(input, false, ToolPolicies.defaults());
  }

  /**
   * The runtime of an agent step; {@code sharedWorkflow}: the step shares its workflow with other
   * agents' steps ({@link AgentGroupStepWorkflow}), so the summaries of its activities name the agent
   * ({@code llm: rules · citizen-3}) and its tool calls' idempotency keys hold the agent id; {@code
   * toolPolicies}: the options of each tool's calls (the worker's, handed to the workflow by its
   * factory).
   */
  public AgentRuntime(AgentStepInput input, boolean sharedWorkflow, ToolPolicies toolPolicies) {
    this.input = input;
    this.sharedWorkflow = sharedWorkflow;
    this.toolPolicies = toolPolicies == null ? ToolPolicies.defaults() : toolPolicies;
  }

  public AgentStepInput input() {
    return input;
  }

  /**
   * Calls the agent's model for a text or tool-calling answer. {@code purpose} names the strategy
   * first ({@code react-turn}): metrics read the strategy from it.
   */
  public LlmResponse chat(
      List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice, String purpose) {
    return chat(messages, tools, toolChoice, purpose, null);
  }

  /** Calls the agent's model, asking for a JSON answer when {@code format} is JSON. */
  public LlmResponse chat(List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice,
      String purpose, LlmRequest.ResponseFormat format) {
    return counted(llm().chat(request(messages, tools, toolChoice, purpose, format)));
  }

  /**
   * Starts a call of the agent's model and returns at once: the same activity as {@link #chat}, counted
   * the same way when it completes. Code that chains its calls on the promise holds no workflow thread
   * while the call runs ({@link AgentGroupStepWorkflowImpl} runs chain-of-thought agents so).
   */
  public Promise<LlmResponse> chatAsync(
      List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice, String purpose) {
    LlmActivities llm = llm();
    return Async.function(llm::chat, request(messages, tools, toolChoice, purpose, null))
        .thenApply(this::counted);
  }

  private LlmActivities llm() {
    String model = input.options().model();
    ActivityOptions options = LlmCallOptions.forModel(model);
    if (sharedWorkflow) {
      options = ActivityOptions.newBuilder(options)
          .setSummary(LlmCallOptions.summary(model) + " · " + input.agentId())
          .build();
    }
    return Workflow.newActivityStub(LlmActivities.class, options);
  }

  private LlmRequest request(List<ChatTurn> messages, List<String> tools, ToolChoice toolChoice,
      String purpose, LlmRequest.ResponseFormat format) {
    return new LlmRequest(input.options().model(), messages, tools, toolChoice,
        input.options().temperature(), purpose, format, input.agentId(), input.options().maxOutputTokens());
  }

  private LlmResponse counted(LlmResponse response) {
    llmCalls++;
    lastResponse = response;
    usage = usage.plus(response.usage());
    warnings.addAll(response.warnings());
    return response;
  }

  /** True when {@code tool} is a world action, applied by the simulation rather than run here. */
  public boolean isWorldAction(String tool) {
    return input.worldActions().contains(tool);
  }

  /**
   * Starts an external tool call, with the timeouts and retry policy of its tool. A tool that keeps
   * failing after its retries (or fails with an exception its options call non-retryable) becomes an
   * error outcome the agent can read, not a failed step.
   */
  public Promise<ToolOutcome> runTool(ToolCall call) {
    return runTool(call, toolSummary(call.name()));
  }

  /**
   * The activity summary of a call of {@code tool}: {@code tool: <name>}, or {@code tool: mcp
   * <server>/<tool>} for an MCP server's tool.
   */
  public String toolSummary(String tool) {
    return toolPolicies.summaryOf(tool);
  }

  /**
   * Starts an external tool call shown in the Temporal UI with {@code summary}. A call of a tool that
   * requires approval (the run's {@link AgentOptions#approval()} or the tool's registration) first waits,
   * durably, for a person's decision ({@link ApprovalBook}): approved, it runs; edited, it runs with the
   * reviewer's arguments, and the model reads which; denied (or timed out to deny), it does not run, and
   * the model reads why as an error observation.
   */
  public Promise<ToolOutcome> runTool(ToolCall call, String summary) {
    ApprovalBook approvals = ApprovalBook.current(toolPolicies);
    if (!approvals.requiresApproval(call.name(), input.options().approval())) {
      toolCalls++;
      return execute(call, call.arguments(), summary);
    }
    String callId = approvals.open(call, input.agentId(), input.observation().step(), input.options().approval());
    return Async.function(() -> {
      ApprovalBook.Decision decision = approvals.await(callId);
      if (!decision.outcome().runs()) {
        // a call that did not run is no tool call (no activity, nothing paid); it is counted apart
        deniedToolCalls++;
        return new ToolOutcome(call.id(), call.name(), decision.observation(), true);
      }
      toolCalls++;
      ToolOutcome ran = execute(call, decision.arguments(), summary).get();
      if (decision.outcome() != ApprovalOutcome.EDITED) {
        return ran;
      }
      String note = "The reviewer changed the arguments of this call to " + decision.arguments()
          + (decision.reason() == null ? "" : " (" + decision.reason() + ")") + ". Result: ";
      return new ToolOutcome(ran.toolCallId(), ran.tool(), note + ran.output(), ran.error());
    });
  }

  /** Runs the activity of one tool call with {@code arguments}. */
  private Promise<ToolOutcome> execute(ToolCall call, JsonNode arguments, String summary) {
    ToolActivities tools = Workflow.newActivityStub(ToolActivities.class, ToolCallOptions.forCall(
        toolPolicies.policyOf(call.name()), sharedWorkflow ? summary + " · " + input.agentId() : summary));
    String key =
        (sharedWorkflow ? Workflow.getInfo().getWorkflowId() + "/agent-" + input.agentId()
            : Workflow.getInfo().getWorkflowId())
            + "/"
            + input.observation().step()
            + "/"
            + call.id();
    ToolExecutionRequest request =
        new ToolExecutionRequest(call.id(), call.name(), arguments, key);
    return Async.function(tools::execute, request)
        .handle(
            (ToolExecutionResult result, RuntimeException failure) -> {
              if (failure == null) {
                return new ToolOutcome(
                    result.toolCallId(), result.name(), result.output(), result.error());
              }
              return new ToolOutcome(
                  call.id(), call.name(), "tool failed: " + rootMessage(failure), true);
            });
  }

  /** What the models of this step's calls said the run's owner should know, each once. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** The answer of this step's last LLM call, or null before the first. */
  public LlmResponse lastResponse() {
    return lastResponse;
  }

  public TokenUsage usage() {
    return usage;
  }

  public int llmCalls() {
    return llmCalls;
  }

  /** The tool calls that ran (as activities): without approval, or approved. */
  public int toolCalls() {
    return toolCalls;
  }

  /** The tool calls that waited for approval and did not run (denied, timed out to deny, cancelled). */
  public int deniedToolCalls() {
    return deniedToolCalls;
  }

  private static String rootMessage(RuntimeException failure) {
    Throwable t = failure;
    if (t instanceof ActivityFailure && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof ApplicationFailure) {
      return ((ApplicationFailure) t).getOriginalMessage();
    }
    return t.getMessage();
  }
}
