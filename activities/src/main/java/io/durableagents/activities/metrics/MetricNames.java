package io.durableagents.activities.metrics;

/** The names of Durable Agents' own metrics, in one place. */
public final class MetricNames {
  /** LLM calls, by model, strategy and outcome. */
  public static final String LLM_CALLS = "durable_agents_llm_calls";

  /** LLM call latency, by model and strategy. */
  public static final String LLM_LATENCY = "durable_agents_llm_latency";

  /** Tokens, by model, strategy and direction (input, output). */
  public static final String LLM_TOKENS = "durable_agents_llm_tokens";

  /**
   * How long LLM calls waited for one of their model's slots ({@code DURABLE_AGENTS_LLM_SLOTS}), by model:
   * a timer of the calls of models with a limit.
   */
  public static final String LLM_SLOT_WAIT = "durable_agents_llm_slot_wait";

  /**
   * LLM calls of this worker waiting for a slot and holding one now, by model and state ({@code waiting},
   * {@code running}): a gauge, there when slots are set.
   */
  public static final String LLM_SLOT_CALLS = "durable_agents_llm_slot_calls";

  /**
   * LLM answers cut at an output limit, by model, purpose ({@code rewoo-plan}, {@code react-turn} ...)
   * and by ({@code model}: finish reason length, at the maximum output tokens sent; {@code worker}: over
   * {@code DURABLE_AGENTS_MAX_OUTPUT_BYTES}).
   */
  public static final String LLM_CUT_ANSWERS = "durable_agents_llm_cut_answers";

  /** External tool calls, by tool. */
  public static final String TOOL_CALLS = "durable_agents_tool_calls";

  /** External tool calls that ended in an error, by tool. */
  public static final String TOOL_ERRORS = "durable_agents_tool_errors";

  /** Agent steps, by strategy (counted by the workflow, as {@code AgentStepWorkflowImpl.AGENT_STEPS}). */
  public static final String AGENT_STEPS = io.durableagents.workflows.agent.AgentStepWorkflowImpl.AGENT_STEPS;

  /**
   * Tool calls that waited for approval, by outcome ({@code approved}, {@code edited}, {@code denied},
   * {@code timeout_approved}, {@code timeout_denied}) and tool (counted by the workflow).
   */
  public static final String APPROVALS = io.durableagents.workflows.approval.ApprovalBook.APPROVALS;

  /** How long tool calls waited for their decision, by outcome (timed by the workflow). */
  public static final String APPROVAL_WAIT = io.durableagents.workflows.approval.ApprovalBook.APPROVAL_WAIT;

  /**
   * Workflow task attempts that failed or timed out, by workflow type and cause (counted by the
   * worker that saw them: {@code io.durableagents.worker.WorkflowTaskFailures}).
   */
  public static final String WORKFLOW_TASK_FAILURES = "durable_agents_workflow_task_failures";

  /** Runs whose workflow task keeps failing on this worker now (a gauge). */
  public static final String WORKFLOW_TASKS_FAILING = "durable_agents_workflow_tasks_failing";

  private MetricNames() {}
}
