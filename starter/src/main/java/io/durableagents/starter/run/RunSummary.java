package io.durableagents.starter.run;

import io.durableagents.starter.inspect.DescribeCommand;
import io.durableagents.workflows.simulation.LlmCosts;
import io.durableagents.workflows.simulation.SimulationResult;
import java.io.PrintStream;

/**
 * The summary a finished simulation prints ({@code simulate}, {@code attach}, {@code demo}): how it
 * ended, its final counts, its agent steps, LLM calls, tokens and plans, what each role cost, the
 * failed agent steps and why, its interventions and warnings.
 */
final class RunSummary {
  private RunSummary() {}

  /** Prints a finished run's summary, its variables in {@code columns}' order. */
  static void print(PrintStream out, CountColumns columns, SimulationResult r) {
    out.println();
    out.println((r.stopped() ? "Stopped " : "Finished ") + r.simulationId() + ": " + r.steps()
        + " steps, seed " + r.seed() + (r.stopped() ? " (stopped early; the result holds the steps done)" : "")
        + (r.runs() > 1 ? ", in " + r.runs() + " runs (continue-as-new)" : ""));
    out.println("Final counts: " + columns.ordered(r.finalCounts()));
    double perStep = r.agentSteps() == 0 ? 0 : (double) r.llmCalls() / r.agentSteps();
    double tokensPerStep = r.agentSteps() == 0 ? 0 : (double) r.usage().total() / r.agentSteps();
    out.printf("Agent steps: %d, LLM calls: %d (%.2f per agent step), tool calls: %d%n",
        r.agentSteps(), r.llmCalls(), perStep, r.toolCalls());
    out.printf("Tokens: %d in, %d out (%.0f per agent step)%n",
        r.usage().input(), r.usage().output(), tokensPerStep);
    if (r.planCounts().plansMade() > 0 || r.planCounts().forcedFinishes() > 0) {
      out.printf("Plans: %d made, %d agent steps served from a plan with no LLM call, %d re-plans, "
          + "%d forced finishes%n", r.planCounts().plansMade(), r.planCounts().planStepsReused(),
          r.planCounts().replans(), r.planCounts().forcedFinishes());
    }
    printCostsByRole(out, r.llmCosts());
    if (r.failedAgentSteps() > 0) {
      out.printf("Failed agent steps: %d, skipped (the agents took no action; --on-agent-failure stop"
          + " ends the run instead): each failure is in the run's history (history %s)%n",
          r.failedAgentSteps(), r.simulationId());
      if (r.llmCosts() != null) {
        for (LlmCosts.FailureReason f : r.llmCosts().failures()) {
          out.printf("  %d x %s%n", f.agentSteps(), f.reason());
        }
      }
    }
    for (io.durableagents.workflows.simulation.Intervention v : r.interventions()) {
      out.println("Intervention " + DescribeCommand.intervention(v));
    }
    for (String warning : r.warnings()) {
      out.println("Warning: " + warning);
    }
  }

  /**
   * One line per role and strategy: its LLM calls and tokens, and how many of the calls were made by
   * agent steps that then failed (paid for all the same). Nothing for a result from before the costs were
   * kept by role.
   */
  private static void printCostsByRole(PrintStream out, LlmCosts costs) {
    if (costs == null || costs.byRole().isEmpty()) {
      return;
    }
    out.println("LLM calls by role:");
    for (LlmCosts.RoleCosts c : costs.byRole()) {
      String failed = c.llmCallsOfFailedSteps() == 0 ? ""
          : String.format(" (%d of them in %d failed agent step%s)", c.llmCallsOfFailedSteps(),
              c.failedAgentSteps(), c.failedAgentSteps() == 1 ? "" : "s");
      out.printf("  %s, %s: %d LLM call%s%s, %d tokens in, %d out%n", c.role(), c.strategy(), c.llmCalls(),
          c.llmCalls() == 1 ? "" : "s", failed, c.usage().input(), c.usage().output());
    }
  }
}
