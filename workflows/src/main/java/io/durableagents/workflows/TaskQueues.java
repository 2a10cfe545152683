package io.durableagents.workflows;

/**
 * The task queue names of Durable Agents, in one place.
 *
 * <p>Workflows and tool activities share {@link #AGENTS}. LLM activities have a queue of their own,
 * {@link #LLM}, so that a worker can cap the rate of model calls across every worker polling it
 * ({@code WorkerOptions.setMaxTaskQueueActivitiesPerSecond}) without slowing down anything else.
 */
public final class TaskQueues {
  /** Workflows (simulations, agent steps) and tool activities. */
  public static final String AGENTS = "durable-agents";

  /** LLM activities: every model call. */
  public static final String LLM = "durable-agents-llm";

  private TaskQueues() {}
}
