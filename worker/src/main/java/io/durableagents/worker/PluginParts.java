package io.durableagents.worker;

import io.durableagents.activities.checkpoint.CheckpointActivitiesImpl;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.activities.llm.LlmCallRateLimiter;
import io.durableagents.activities.llm.WorkerModelSlots;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.worker.tracing.AgentTracing;
import java.util.List;

/**
 * What a built plugin is made of, from its builder's settings: the scenarios and tools its workers have
 * (the MCP servers connected and their tools listed, every role's tools checked), what runs on our task
 * queues, how the workers are tuned, and what is added to clients and worker factories.
 */
record PluginParts(ScenarioRegistry scenarios, ToolRegistry tools, McpToolSet mcpTools, AgentTracing tracing,
    WorkerTuning tuning, TaskQueueRegistrations queues, PluginInterceptors interceptors) {

  /**
   * Builds the parts: connects the MCP servers and reads their tools (closing them again if a check
   * fails), then checks every name and setting.
   */
  static PluginParts of(PluginSettings b) {
    ScenarioRegistry scenarios = b.registrations.scenarios();
    // The tool lists of MCP servers are read once, here, when the worker is built.
    McpToolSet mcpTools = McpToolSet.connect(List.copyOf(b.registrations.mcpServers().values()));
    ToolRegistry tools;
    try {
      tools = b.registrations.toolRegistry(b.filesDirectory, mcpTools);
      RoleToolsCheck.check(b.registrations.scenarioRegistrations(), tools);
    } catch (RuntimeException e) {
      mcpTools.close();
      throw e;
    }
    AgentMetrics metrics = new AgentMetrics(b.meterRegistry);
    LlmActivitiesImpl llmActivities = new LlmActivitiesImpl(b.registrations.chatModels(b.llmSettings,
        b.rulesDelayMillis), tools, metrics, b.payloadGuard, LlmCallRateLimiter.perSecond(b.llmCallsPerSecond),
        b.modelSlots(b.llmSlots, () -> WorkerModelSlots.of(b.llmSlots)));
    WorkerTuning tuning = new WorkerTuning(b.stickyExecution, b.eagerLlmCalls, b.llmCallsPerSecond,
        b.llmConcurrency, b.workflowCacheSize, b.workflowThreads, b.pollers, b.workflowTaskSlots, b.virtualThreads);
    TaskQueueRegistrations queues = new TaskQueueRegistrations(scenarios, tools, llmActivities,
        new ToolActivitiesImpl(tools, metrics, b.payloadGuard), new CheckpointActivitiesImpl(b.checkpointStore),
        tuning.eagerLlmCalls(), WorkerTuning.llmStartToClose(b.llmSettings.timeout(), !b.llmSlots.isNone()));
    return new PluginParts(scenarios, tools, mcpTools, b.tracing, tuning, queues,
        new PluginInterceptors(b.interceptors, b.tracing, b.payloadCodec));
  }
}
