package io.durableagents.worker;

import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.LlmSlotsScope;
import io.durableagents.activities.tools.mcp.McpServerConfigs;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.worker.tracing.AgentTracing;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a plugin's settings from the environment onto its builder: model settings ({@code OPENAI_API_KEY},
 * ...), worker settings ({@code DURABLE_AGENTS_*}), the MCP servers' files and the {@code OTEL_*} tracing;
 * a value that is not allowed fails, naming its variable.
 */
final class PluginEnvironment {
  private PluginEnvironment() {}

  /** What {@link DurableAgentsPlugin.Builder#configureFromEnvironment} does. */
  static void configure(DurableAgentsPlugin.Builder b, Map<String, String> env) {
    WorkerSettings settings = WorkerSettings.fromEnvironment(env);
    b.setLlmSettings(LlmSettings.fromEnvironment(env));
    b.setFilesDirectory(settings.filesDirectory());
    b.setCheckpointStore(DirectoryCheckpointStore.fromEnvironment(env));
    b.setStickyExecution(settings.sticky() != WorkerSettings.Sticky.OFF);
    b.settings.eagerLlmCalls = WorkerSettings.eagerLlmCalls(env);
    b.setLlmCallsPerSecond(settings.llmCallsPerSecond());
    b.setLlmSlots(LlmSlotLimits.parse(env.get(WorkerSettings.LLM_SLOTS)));
    b.setLlmSlotsScope(LlmSlotsScope.parse(env.get(LlmSlotsScope.VARIABLE)));
    b.setPayloadGuard(settings.payloadGuard());
    b.setPayloadCodec(AesGcmPayloadCodec.fromEnvironment(env));
    b.setLlmConcurrency(WorkerSettings.positive(env, WorkerSettings.LLM_CONCURRENCY,
        WorkerSettings.DEFAULT_LLM_CONCURRENCY));
    b.setWorkflowCacheSize(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_CACHE,
        WorkerSettings.DEFAULT_WORKFLOW_CACHE));
    b.setWorkflowThreads(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_THREADS,
        WorkerSettings.DEFAULT_WORKFLOW_THREADS));
    b.setVirtualThreads(WorkerSettings.virtualThreads(env, WorkerTuning.VIRTUAL_THREADS_AVAILABLE));
    b.setPollers(WorkerSettings.positive(env, WorkerSettings.POLLERS, WorkerSettings.DEFAULT_POLLERS));
    b.setWorkflowTaskSlots(WorkerSettings.positive(env, WorkerSettings.WORKFLOW_TASK_SLOTS,
        WorkerSettings.defaultWorkflowTaskSlots()));
    String delay = env.get(WorkerSettings.RULES_DELAY_MS);
    if (delay != null && !delay.isBlank()) {
      long millis;
      try {
        millis = Long.parseLong(delay.trim());
      } catch (NumberFormatException e) {
        millis = -1;
      }
      if (millis < 0) {
        throw new IllegalArgumentException(WorkerSettings.RULES_DELAY_MS + " '" + delay
            + "' is not allowed: milliseconds, 0 or more");
      }
      b.settings.rulesDelayMillis = millis;
    }
    if (settings.executionJournal() != null) {
      b.addWorkerInterceptors(new ExecutionJournal(settings.executionJournal()));
    }
    String mcpFiles = env.get(WorkerSettings.MCP_SERVERS);
    if (mcpFiles != null && !mcpFiles.isBlank()) {
      // One file, or several separated as in a PATH (agent run adds its spec's servers so).
      for (String file : mcpFiles.strip().split(java.io.File.pathSeparator)) {
        if (file.isBlank()) {
          continue;
        }
        try {
          McpServerConfigs.load(Path.of(file.strip()), env).forEach(b::registerMcpServer);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(WorkerSettings.MCP_SERVERS + "=" + file.strip() + ": "
              + e.getMessage(), e);
        }
      }
    }
    AgentTracing.fromEnvironment(env).ifPresent(b::setTracing);
  }
}
