package io.durableagents.workflows.tools;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * External tools (calculator, file reader, HTTP fetch, ...) as retryable activities.
 *
 * <p>World actions such as {@code move_one_step} are not run here: they change the simulated world
 * and are applied by the simulation workflow. A tool that fails is retried with backoff by Temporal;
 * an unknown tool or arguments that don't fit the tool's schema are not failures but a result with
 * {@code error = true}, which the agent sees as an observation it can correct.
 */
@ActivityInterface
public interface ToolActivities {
  /** Runs one tool call. */
  @ActivityMethod(name = "ToolExecute")
  ToolExecutionResult execute(ToolExecutionRequest request);
}
