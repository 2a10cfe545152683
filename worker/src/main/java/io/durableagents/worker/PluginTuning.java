package io.durableagents.worker;

import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.LlmSlotsScope;
import io.durableagents.workflows.TaskQueues;

/**
 * The worker-tuning setters of {@link DurableAgentsPlugin.Builder}, its only subclass: sticky execution,
 * where LLM calls run, pollers, workflow task slots, LLM concurrency, the cache, threads, a model's slots
 * and the rate of LLM calls. The builder keeps its registrations (scenarios, tools, models, MCP servers)
 * and its clients' options (codec, payload guard, metrics, tracing, interceptors) itself.
 */
abstract class PluginTuning {
  final PluginSettings settings;

  PluginTuning(PluginSettings settings) {
    this.settings = settings;
  }

  private DurableAgentsPlugin.Builder builder() {
    return (DurableAgentsPlugin.Builder) this;
  }

  /** Whether to use sticky execution (turn it off against the embedded test server). */
  public DurableAgentsPlugin.Builder setStickyExecution(boolean stickyExecution) {
    settings.stickyExecution = stickyExecution;
    return builder();
  }

  /**
   * Whether LLM calls run on the workflows' own task queue, where a real Temporal server with eager
   * activity execution hands them back with the workflow task that scheduled them ({@code false}:
   * their own queue, {@link TaskQueues#LLM}; {@value WorkerSettings#EAGER_LLM_CALLS}). Unset, the
   * default: eager unless {@link #setLlmCallsPerSecond} is set, whose rate across workers holds only
   * on their own queue. {@code true} is refused together with a rate.
   */
  public DurableAgentsPlugin.Builder setEagerLlmCalls(boolean eagerLlmCalls) {
    settings.eagerLlmCalls = eagerLlmCalls;
    return builder();
  }

  /** Pollers per task queue (default {@value WorkerSettings#DEFAULT_POLLERS}). */
  public DurableAgentsPlugin.Builder setPollers(int pollers) {
    if (pollers < 1) {
      throw new IllegalArgumentException("pollers must be >= 1, was " + pollers);
    }
    settings.pollers = pollers;
    return builder();
  }

  /**
   * How many workflow tasks one worker runs at once (default {@link
   * WorkerSettings#defaultWorkflowTaskSlots()}; {@value WorkerSettings#WORKFLOW_TASK_SLOTS}).
   */
  public DurableAgentsPlugin.Builder setWorkflowTaskSlots(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException(WorkerSettings.WORKFLOW_TASK_SLOTS + " must be >= 1, was " + slots);
    }
    settings.workflowTaskSlots = slots;
    return builder();
  }

  /** How many LLM calls one worker runs at once (default {@value WorkerSettings#DEFAULT_LLM_CONCURRENCY}). */
  public DurableAgentsPlugin.Builder setLlmConcurrency(int llmConcurrency) {
    settings.llmConcurrency = llmConcurrency;
    return builder();
  }

  /** How many workflows one worker keeps cached (default {@value WorkerSettings#DEFAULT_WORKFLOW_CACHE}). */
  public DurableAgentsPlugin.Builder setWorkflowCacheSize(int workflowCacheSize) {
    settings.workflowCacheSize = workflowCacheSize;
    return builder();
  }

  /**
   * How many workflow threads one worker may run (default {@value
   * WorkerSettings#DEFAULT_WORKFLOW_THREADS}, and never fewer than the cache size; platform threads,
   * below Java 21): a group step of chain-of-thought agents holds one, a group of ReAct or ReWOO
   * agents one per agent and one more, and when they run out the SDK evicts cached workflows, which
   * then replay their histories.
   */
  public DurableAgentsPlugin.Builder setWorkflowThreads(int workflowThreads) {
    settings.workflowThreads = workflowThreads;
    return builder();
  }

  /**
   * Whether workflow and activity threads are virtual (default: on JVM 21 and later; ignored below,
   * where the SDK cannot use them).
   */
  public DurableAgentsPlugin.Builder setVirtualThreads(boolean virtualThreads) {
    settings.virtualThreads = virtualThreads;
    return builder();
  }

  /**
   * How many calls of each model this worker runs at once ({@value WorkerSettings#LLM_SLOTS}; default:
   * no limit): set a local model server's slots, e.g. {@code LlmSlotLimits.parse("openai:smollm2=1")},
   * and calls over them wait in the worker instead of in the server, with heartbeats, their wait counted
   * against none of their time limits.
   *
   * <pre>{@code
   * DurableAgentsPlugin.newBuilder().setLlmSlots(LlmSlotLimits.of(1).withModel("ollama:llama3.2", 4)).build();
   * }</pre>
   */
  public DurableAgentsPlugin.Builder setLlmSlots(LlmSlotLimits llmSlots) {
    settings.llmSlots = llmSlots == null ? LlmSlotLimits.none() : llmSlots;
    return builder();
  }

  /**
   * Where a model's slots ({@code DURABLE_AGENTS_LLM_SLOTS}) are counted ({@value LlmSlotsScope#VARIABLE}):
   * {@link LlmSlotsScope#WORKER}, the default, each worker on its own; {@link LlmSlotsScope#SHARED}, every
   * worker of the Temporal namespace together, through one {@code ModelSlotsWorkflow} per capped model.
   */
  public DurableAgentsPlugin.Builder setLlmSlotsScope(LlmSlotsScope scope) {
    settings.llmSlotsScope = java.util.Objects.requireNonNull(scope, "scope");
    return builder();
  }

  /** A cap on LLM calls per second across every worker of the LLM task queue; null for none. */
  public DurableAgentsPlugin.Builder setLlmCallsPerSecond(Double llmCallsPerSecond) {
    settings.llmCallsPerSecond = llmCallsPerSecond;
    return builder();
  }
}
