package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.AgentStepFailures;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulation's LLM calls cost, by role and strategy, and why its failed agent steps failed.
 * Every call that completed is counted, whether its agent step succeeded or failed (a ReWOO plan
 * rejected twice still cost its two planner calls); memory calls are counted under the role with the
 * strategy {@value #MEMORY}. Immutable: the simulation keeps one and replaces it as steps finish, in agent
 * order, so the lists' order is the order in which roles and reasons first appeared.
 *
 * <pre>{@code
 * for (LlmCosts.RoleCosts c : result.llmCosts().byRole()) {
 *   System.out.println(c.role() + " (" + c.strategy() + "): " + c.llmCalls() + " LLM calls");
 * }
 * }</pre>
 *
 * @param byRole the calls and tokens of each role and strategy
 * @param failures the distinct reasons agent steps failed for good, each with how many did (at most
 *     {@link #MAX_FAILURE_REASONS}; later reasons are counted under the last one, {@link #OTHER_REASONS})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LlmCosts(
    List<RoleCosts> byRole,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FailureReason> failures) {
  /** The strategy under which a role's memory calls are counted. */
  public static final String MEMORY = "memory";
  /** The most distinct failure reasons kept. */
  public static final int MAX_FAILURE_REASONS = 10;
  /** The reason under which failures past {@link #MAX_FAILURE_REASONS} are counted. */
  public static final String OTHER_REASONS = "other reasons";

  /** Nothing spent yet. */
  public static final LlmCosts NONE = new LlmCosts(List.of(), List.of());

  public LlmCosts {
    byRole = byRole == null ? List.of() : List.copyOf(byRole);
    failures = failures == null ? List.of() : List.copyOf(failures);
  }

  /**
   * The calls and tokens of one role with one strategy.
   *
   * @param role the role ({@code cop}, {@code citizen}, ...)
   * @param strategy {@code cot}, {@code react}, {@code rewoo}, or {@value LlmCosts#MEMORY}
   * @param agentSteps its agent steps
   * @param failedAgentSteps of those, the ones that failed for good
   * @param llmCalls its LLM calls that completed
   * @param llmCallsOfFailedSteps of those, the ones made by steps that then failed
   * @param usage their tokens
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RoleCosts(String role, String strategy, long agentSteps, long failedAgentSteps, long llmCalls,
      long llmCallsOfFailedSteps, TokenUsage usage) {
    public RoleCosts {
      usage = usage == null ? TokenUsage.ZERO : usage;
    }
  }

  /**
   * Why agent steps failed, and how many.
   *
   * @param reason the failure on one line ({@link AgentStepFailures#reason})
   * @param agentSteps how many agent steps failed so
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record FailureReason(String reason, long agentSteps) {}

  /** These costs with {@code step}'s, an agent step of {@code role} with {@code strategy}. */
  public LlmCosts plus(String role, String strategy, AgentStepResult step) {
    boolean failed = step.failedForGood();
    LlmCosts costs = plusCalls(role, strategy, 1, failed ? 1 : 0, step.llmCalls(), failed ? step.llmCalls() : 0,
        step.usage());
    return failed ? costs.withFailure(AgentStepFailures.reason(step.failure())) : costs;
  }

  /** These costs with {@code llmCalls} memory calls of {@code role} that used {@code usage}. */
  public LlmCosts plusMemory(String role, long llmCalls, TokenUsage usage) {
    return llmCalls == 0 ? this : plusCalls(role, MEMORY, 0, 0, llmCalls, 0, usage);
  }

  private LlmCosts plusCalls(String role, String strategy, long steps, long failedSteps, long llmCalls,
      long ofFailed, TokenUsage usage) {
    List<RoleCosts> next = new ArrayList<>(byRole);
    for (int i = 0; i < next.size(); i++) {
      RoleCosts c = next.get(i);
      if (c.role().equals(role) && c.strategy().equals(strategy)) {
        next.set(i, new RoleCosts(role, strategy, c.agentSteps() + steps, c.failedAgentSteps() + failedSteps,
            c.llmCalls() + llmCalls, c.llmCallsOfFailedSteps() + ofFailed, c.usage().plus(usage)));
        return new LlmCosts(next, failures);
      }
    }
    next.add(new RoleCosts(role, strategy, steps, failedSteps, llmCalls, ofFailed, TokenUsage.ZERO.plus(usage)));
    return new LlmCosts(next, failures);
  }

  private LlmCosts withFailure(String reason) {
    List<FailureReason> next = new ArrayList<>(failures);
    String key = reason == null ? "unknown" : reason;
    if (next.size() >= MAX_FAILURE_REASONS - 1 && next.stream().noneMatch(f -> f.reason().equals(reason))) {
      // the last place is kept for the reasons that came too late to have their own
      key = OTHER_REASONS;
    }
    for (int i = 0; i < next.size(); i++) {
      if (next.get(i).reason().equals(key)) {
        next.set(i, new FailureReason(key, next.get(i).agentSteps() + 1));
        return new LlmCosts(byRole, next);
      }
    }
    next.add(new FailureReason(key, 1));
    return new LlmCosts(byRole, next);
  }
}
