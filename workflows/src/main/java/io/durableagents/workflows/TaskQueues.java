package io.durableagents.workflows;

import java.util.List;

/**
 * The task queue names of Durable Agents, in one place.
 *
 * <p>Simulations run on {@link #SIMULATIONS}, their agent steps (and every other workflow) and tool
 * activities on {@link #AGENTS}. LLM activities have a queue of their own, {@link #LLM}, so that a
 * worker can cap the rate of model calls across every worker polling it
 * ({@code WorkerOptions.setMaxTaskQueueActivitiesPerSecond}) without slowing down anything else.
 */
public final class TaskQueues {
  /** Workflows (agent steps, agent tasks, experiments) and tool activities. */
  public static final String AGENTS = "durable-agents";

  /**
   * Simulations, each of whose agent steps runs on {@link #AGENTS}: a queue, and so a worker's pollers,
   * workflow task slots and sticky queue, of their own. On one queue with its agent steps a
   * simulation's task waited on the worker's sticky queue behind the tasks of the hundred agent steps
   * it had started, past the sticky queue's 5 s on a busy worker; the server then moved it to the task
   * queue, and the worker replayed the run from its start, past the simulation's workflow task timeout
   * (issue 37 item 5). Every worker of the plugin polls both, with the same workflows and activities.
   */
  public static final String SIMULATIONS = "durable-agents-simulations";

  /** LLM activities: every model call. */
  public static final String LLM = "durable-agents-llm";

  /** Every queue above: what a worker of the plugin polls. */
  public static final List<String> ALL = List.of(AGENTS, SIMULATIONS, LLM);

  private TaskQueues() {}
}
