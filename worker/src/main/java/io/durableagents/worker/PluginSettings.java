package io.durableagents.worker;

import io.durableagents.activities.checkpoint.CheckpointStore;
import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.LlmSlotsScope;
import io.durableagents.activities.llm.ModelSlots;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.worker.tracing.AgentTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.payload.codec.PayloadCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a plugin's builder has been told so far, with every default in this one place: what it has
 * registered by name, and its settings for models, files, checkpoints, workers, payloads, metrics and
 * tracing. {@link PluginParts} builds a plugin from it.
 */
final class PluginSettings {
  final PluginRegistrations registrations = new PluginRegistrations();
  LlmSettings llmSettings = LlmSettings.newBuilder().build();
  Path filesDirectory = Path.of("files");
  CheckpointStore checkpointStore = new DirectoryCheckpointStore(Path.of("checkpoints"));
  long rulesDelayMillis;
  boolean stickyExecution = true;
  /** Null: eager unless a rate limit keeps the calls on their own queue. */
  Boolean eagerLlmCalls;
  Double llmCallsPerSecond;
  /** How many calls of each model run at once in this worker; none: no limit. */
  LlmSlotLimits llmSlots = LlmSlotLimits.none();
  /** Where a model's slots are counted: each worker on its own, or every worker together. */
  LlmSlotsScope llmSlotsScope = LlmSlotsScope.WORKER;
  final List<WorkerInterceptor> interceptors = new ArrayList<>(List.of(new AgentLogContext()));
  MeterRegistry meterRegistry = new CompositeMeterRegistry();
  PayloadGuard payloadGuard = PayloadGuard.defaults();
  PayloadCodec payloadCodec;
  int llmConcurrency = WorkerSettings.DEFAULT_LLM_CONCURRENCY;
  int workflowCacheSize = WorkerSettings.DEFAULT_WORKFLOW_CACHE;
  int workflowThreads = WorkerSettings.DEFAULT_WORKFLOW_THREADS;
  int pollers = WorkerSettings.DEFAULT_POLLERS;
  int workflowTaskSlots = WorkerSettings.defaultWorkflowTaskSlots();
  boolean virtualThreads = WorkerTuning.VIRTUAL_THREADS_AVAILABLE;
  AgentTracing tracing;

  /** Settings with every default, and no scenario registered. */
  PluginSettings() {}

  /**
   * The slots the LLM calls wait in for {@code limits} ({@code DURABLE_AGENTS_LLM_SLOTS}): none when no
   * model has a limit; with {@code DURABLE_AGENTS_LLM_SLOTS_SCOPE=shared} those every worker of the
   * namespace shares ({@link io.durableagents.activities.llm.SharedModelSlots}); else {@code perWorker}'s.
   * What {@link PluginParts} hands the LLM activities.
   */
  ModelSlots modelSlots(LlmSlotLimits limits, java.util.function.Supplier<ModelSlots> perWorker) {
    return llmSlotsScope.slots(limits, perWorker);
  }
}
