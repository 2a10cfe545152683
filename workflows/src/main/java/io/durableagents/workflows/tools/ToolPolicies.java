package io.durableagents.workflows.tools;

import java.util.Map;
import java.util.Set;

/**
 * The {@link ToolPolicy} of every external tool a worker has, by tool name, and the policy of every
 * other name ({@link ToolPolicy#DEFAULT}). The worker builds it once from its tool registry and hands
 * it to the workflows that run tools through their factories (never a static: two plugins in one JVM
 * may give one tool different options); a workflow made without it, as a replay test makes it, runs
 * every tool with the defaults. Immutable, so workflow code may read it freely.
 *
 * <pre>{@code
 * ToolPolicies policies = ToolPolicies.of(Map.of("fetch_report", slowPolicy));
 * worker.registerWorkflowImplementationFactory(AgentTaskWorkflow.class,
 *     () -> new AgentTaskWorkflowImpl(policies));
 * }</pre>
 *
 * @param byTool the policies of the tools that have one, by name
 * @param otherwise the policy of every other tool
 * @param callLabels how the Temporal UI names the calls of the tools that are not named by their tool
 *     name (an MCP server's: {@code mcp fs/read_text_file}), by tool name
 * @param requiringApproval the tools registered with {@code requiresApproval}: each of their calls waits
 *     for a person's decision, whatever the run's options say
 * @param argumentCheck checks arguments against each tool's schema (an approval's {@code edit} is
 *     refused when they do not fit); without one, any JSON object fits
 */
public record ToolPolicies(Map<String, ToolPolicy> byTool, ToolPolicy otherwise, Map<String, String> callLabels,
    Set<String> requiringApproval, ToolArgumentCheck argumentCheck) {
  private static final ToolPolicies DEFAULTS = new ToolPolicies(Map.of(), ToolPolicy.DEFAULT);

  public ToolPolicies {
    byTool = byTool == null ? Map.of() : Map.copyOf(byTool);
    otherwise = otherwise == null ? ToolPolicy.DEFAULT : otherwise;
    callLabels = callLabels == null ? Map.of() : Map.copyOf(callLabels);
    requiringApproval = requiringApproval == null ? Set.of() : Set.copyOf(requiringApproval);
    argumentCheck = argumentCheck == null ? ToolArgumentCheck.OBJECT_ONLY : argumentCheck;
  }

  /** The given policies, every call named by its tool's name, no tool requiring approval, and no schema check. */
  public ToolPolicies(Map<String, ToolPolicy> byTool, ToolPolicy otherwise) {
    this(byTool, otherwise, null, null, null);
  }

  /** These policies, with the calls of the tools in {@code labels} named by their label in the UI. */
  public ToolPolicies withCallLabels(Map<String, String> labels) {
    return new ToolPolicies(byTool, otherwise, labels, requiringApproval, argumentCheck);
  }

  /** These policies, with {@code tools} requiring approval on every call. */
  public ToolPolicies withApprovalRequired(Set<String> tools) {
    return new ToolPolicies(byTool, otherwise, callLabels, tools, argumentCheck);
  }

  /** These policies, with {@code check} reading each tool's schema. */
  public ToolPolicies withArgumentCheck(ToolArgumentCheck check) {
    return new ToolPolicies(byTool, otherwise, callLabels, requiringApproval, check);
  }

  /**
   * The activity summary of a call of {@code tool}: {@code tool: <name>}, or {@code tool: mcp
   * <server>/<tool>} for an MCP server's tool. Never its arguments.
   */
  public String summaryOf(String tool) {
    String label = tool == null ? null : callLabels.get(tool);
    return ToolCallOptions.summary(label == null ? tool : label);
  }

  /** Whether {@code tool} was registered with {@code requiresApproval}. */
  public boolean requiresApproval(String tool) {
    return tool != null && requiringApproval.contains(tool);
  }

  /** Every tool with the defaults. */
  public static ToolPolicies defaults() {
    return DEFAULTS;
  }

  /** The given tools with their policies, every other one with the defaults. */
  public static ToolPolicies of(Map<String, ToolPolicy> byTool) {
    return new ToolPolicies(byTool, ToolPolicy.DEFAULT);
  }

  /** The policy of {@code tool}: its own, or the defaults for a name that has none. */
  public ToolPolicy policyOf(String tool) {
    ToolPolicy own = tool == null ? null : byTool.get(tool);
    return own == null ? otherwise : own;
  }
}
