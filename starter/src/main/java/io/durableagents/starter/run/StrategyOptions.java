package io.durableagents.starter.run;

import io.durableagents.activities.spec.AgentSpecException;
import io.durableagents.activities.spec.ApprovalSpecs;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.approval.TimeoutDecision;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The bounds of the reasoning strategies, shared by {@code demo}, {@code simulate} and {@code agent}.
 * Unset options keep {@link AgentOptions}' defaults.
 */
public final class StrategyOptions {
  @Option(names = "--max-iterations",
      description = "ReAct: most Thought/Action/Observation turns before a forced finish (default: "
          + AgentOptions.DEFAULT_MAX_ITERATIONS + ").")
  Integer maxIterations;

  @Option(names = "--action-format",
      description = "ReAct: function-calling (native tool calls) or text (Action: tool[args]) "
          + "(default: function-calling).")
  String actionFormat;

  @Option(names = "--token-budget",
      description = "Most tokens one run may use; the loop ends with a forced finish when the next call "
          + "would exceed it (default: none).")
  Long tokenBudget;

  @Option(names = "--max-observation-chars",
      description = "ReAct: longer observations are compressed, head and tail kept (default: "
          + AgentOptions.DEFAULT_MAX_OBSERVATION_CHARS + ").")
  Integer maxObservationChars;

  @Option(names = "--max-plan-steps",
      description = "ReWOO: most steps in a plan (default: " + AgentOptions.DEFAULT_MAX_PLAN_STEPS + ").")
  Integer maxPlanSteps;

  @Option(names = "--replan-on-failure",
      description = "ReWOO: times to plan again after a failed step (default: "
          + AgentOptions.DEFAULT_REPLAN_ON_FAILURE + ").")
  Integer replanOnFailure;

  @Option(names = "--requires-approval", split = ",", paramLabel = "TOOL",
      description = "Tools whose every call waits for a person's decision: 'approvals <id>', then 'approve' or "
          + "'deny' (default: none but those registered with requiresApproval).")
  List<String> requiresApproval;

  @Option(names = "--approval-timeout", paramLabel = "DURATION",
      description = "How long a call waits for approval before --approval-default decides it (seconds, or "
          + "90s, 30m, 2h, 1d; default: as long as it takes).")
  String approvalTimeout;

  @Option(names = "--approval-default", paramLabel = "DECISION",
      description = "What a call that waited --approval-timeout becomes: deny or approve (default: deny).")
  String approvalDefault;

  /**
   * Sets the given options on {@code builder}.
   *
   * @throws IllegalArgumentException naming the bad option
   */
  public AgentOptions.Builder applyTo(AgentOptions.Builder builder) {
    if (actionFormat != null) {
      try {
        builder.setActionFormat(ActionFormat.parse(actionFormat));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--action-format: " + e.getMessage());
      }
    }
    ApprovalOptions approval = approval();
    if (approval != null) {
      builder.setApproval(approval);
    }
    return builder.setMaxIterations(maxIterations)
        .setTokenBudget(tokenBudget)
        .setMaxObservationChars(maxObservationChars)
        .setMaxPlanSteps(maxPlanSteps)
        .setReplanOnFailure(replanOnFailure);
  }

  /** The approval options given, or null when none is. */
  ApprovalOptions approval() {
    if (requiresApproval == null && approvalTimeout == null && approvalDefault == null) {
      return null;
    }
    Long seconds = null;
    if (approvalTimeout != null) {
      try {
        seconds = ApprovalSpecs.seconds(com.fasterxml.jackson.databind.node.TextNode.valueOf(approvalTimeout));
      } catch (AgentSpecException e) {
        throw new IllegalArgumentException("--approval-timeout: " + e.getMessage().replaceFirst("^[^:]*: ", ""));
      }
    }
    TimeoutDecision decision = null;
    if (approvalDefault != null) {
      try {
        decision = TimeoutDecision.parse(approvalDefault);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--approval-default: " + e.getMessage());
      }
      if (seconds == null) {
        throw new IllegalArgumentException("--approval-default applies after an --approval-timeout: set it too");
      }
    }
    return new ApprovalOptions(requiresApproval, seconds, decision, null);
  }

  /** Builds the options, turning a bad value into an error that names its option. */
  public static AgentOptions build(AgentOptions.Builder builder) {
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      // AgentOptions names the field (maxIterations); users typed the option (--max-iterations).
      throw new IllegalArgumentException("--" + e.getMessage().replaceFirst("^(\\w+)",
          kebab(e.getMessage().split(" ")[0])));
    }
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
