package io.durableagents.workflows.simulation;

import java.time.Duration;

/**
 * The workflow task timeout a simulation is started with, sized by its agents. A workflow task that a
 * killed worker was running is given to another worker only when this timeout passes, so it bounds
 * recovery after a kill at a step boundary (Temporal's default is 10 s). It must also let the largest
 * task of the simulation finish, or that task is tried again from the start: the step boundary applies
 * every agent's actions and builds every observation in one task (the starts themselves are spread over
 * tasks by {@link TaskBudget}), and a worker that takes over replays the history since the last
 * continue-as-new. So: 5 s up to 500 agents, a second more per 500 agents beyond, at most 60 s.
 *
 * <pre>{@code
 * WorkflowOptions.newBuilder().setWorkflowTaskTimeout(SimulationTaskTimeout.forAgents(200)) // 5 s
 * }</pre>
 */
public final class SimulationTaskTimeout {
  /** The timeout of simulations of up to 500 agents. */
  public static final Duration SMALL = Duration.ofSeconds(5);

  /** The most any simulation is given. */
  public static final Duration MOST = Duration.ofSeconds(60);

  private SimulationTaskTimeout() {}

  /** The workflow task timeout for a simulation of {@code agents} agents. */
  public static Duration forAgents(int agents) {
    long extra = Math.max(0, agents - 1) / 500;
    return Duration.ofSeconds(Math.min(MOST.getSeconds(), SMALL.getSeconds() + extra));
  }
}
