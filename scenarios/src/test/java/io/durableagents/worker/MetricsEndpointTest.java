package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** After a run, the worker's endpoint serves our metrics and the SDK's, and /health answers. */
class MetricsEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static double value(String scrape, String metricWithLabels) {
    double sum = 0;
    boolean found = false;
    Matcher m = Pattern.compile("^" + metricWithLabels + " ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(scrape);
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
      found = true;
    }
    return found ? sum : -1;
  }

  /**
   * Scrapes until {@code metric} reaches {@code atLeast}: the SDK's scope reports to the registry
   * every second.
   */
  private String awaitMetric(int port, String metric, double atLeast) throws Exception {
    String scrape = "";
    long deadline = System.nanoTime() + 15_000_000_000L;
    while (value(scrape, metric) < atLeast) {
      if (System.nanoTime() > deadline) {
        fail(metric + " never reached " + atLeast + " at the endpoint:\n" + scrape);
      }
      Thread.sleep(200);
      scrape = get(port, "/metrics").body();
    }
    return scrape;
  }

  @Test
  void scrapeAfterARun() throws Exception {
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      DurableAgentsPlugin plugin = Builtins.plugin().setMeterRegistry(metrics.registry()).build();
      SimulationResult r;
      try (TestWorkflowEnvironment env = TestWorkers.start(plugin,
          TestEnvironmentOptions.newBuilder().setMetricsScope(metrics.scope()).build())) {
        r = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
            .run(new SimulationInput("epstein", 2, 1, EpsteinParameters.DEFAULTS.withAgents(3, 1), null, null, null));
      }
      assertEquals(16, r.llmCalls());

      String scrape = awaitMetric(metrics.port(), "durable_agents_agent_steps_total\\{.*strategy=\"cot\".*\\}", 8);
      assertEquals(8, value(scrape, "durable_agents_agent_steps_total\\{.*strategy=\"cot\".*\\}"));
      assertEquals(16, value(scrape,
          "durable_agents_llm_calls_total\\{model=\"rules\",outcome=\"ok\",strategy=\"cot\"\\}"));
      assertEquals(r.usage().input(), (long) value(scrape,
          "durable_agents_llm_tokens_total\\{direction=\"input\",model=\"rules\",strategy=\"cot\"\\}"));
      assertEquals(r.usage().output(), (long) value(scrape,
          "durable_agents_llm_tokens_total\\{direction=\"output\",model=\"rules\",strategy=\"cot\"\\}"));
      assertEquals(16, value(scrape, "durable_agents_llm_latency_seconds_count\\{model=\"rules\",strategy=\"cot\"\\}"));
      assertTrue(scrape.contains("temporal_"), "the SDK's own metrics");
      HttpResponse<String> health = get(metrics.port(), "/health");
      assertEquals(200, health.statusCode());
    }
  }

  @Test
  void planMetricsCountPlansMadeStepsReusedAndReplans() throws Exception {
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      DurableAgentsPlugin plugin = Builtins.plugin().setMeterRegistry(metrics.registry()).build();
      SimulationResult r;
      try (TestWorkflowEnvironment env = TestWorkers.start(plugin,
          TestEnvironmentOptions.newBuilder().setMetricsScope(metrics.scope()).build())) {
        r = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
            .run(new SimulationInput("epstein", 4, 3, EpsteinParameters.DEFAULTS.withAgents(6, 2),
                AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).build(), null, null));
      }
      assertTrue(r.planCounts().plansMade() > 0 && r.planCounts().planStepsReused() > 0, r.planCounts().toString());

      String scrape = awaitMetric(metrics.port(),
          "durable_agents_agent_steps_total\\{.*strategy=\"rewoo\".*\\}", r.agentSteps());
      assertEquals(r.planCounts().plansMade(),
          (long) value(scrape, "durable_agents_plans_made_total\\{.*strategy=\"rewoo\".*\\}"));
      assertEquals(r.planCounts().planStepsReused(),
          (long) value(scrape, "durable_agents_plan_steps_reused_total\\{.*strategy=\"rewoo\".*\\}"));
      long replans = (long) value(scrape, "durable_agents_replans_total\\{.*strategy=\"rewoo\".*\\}");
      assertEquals(r.planCounts().replans(), Math.max(0, replans));
      assertEquals(r.llmCalls(), (long) value(scrape,
          "durable_agents_llm_calls_total\\{model=\"rules\",outcome=\"ok\",strategy=\"rewoo\"\\}"));
    }
  }

  @Test
  void forcedFinishesAreCounted() throws Exception {
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      ScriptedChatModel model = new ScriptedChatModel();
      // the same calculator call three times in a row: ReAct forces a finish
      for (int i = 0; i < 3; i++) {
        model.then(dev.langchain4j.data.message.AiMessage.from(
            dev.langchain4j.agent.tool.ToolExecutionRequest.builder().id("c" + i).name("calculator")
                .arguments("{\"expression\":\"1+1\"}").build()));
      }
      model.then(dev.langchain4j.data.message.AiMessage.from("2"));
      DurableAgentsPlugin plugin = Builtins.plugin().setMeterRegistry(metrics.registry())
          .registerModel("scripted", model).build();
      AgentTaskResult r;
      try (TestWorkflowEnvironment env = TestWorkers.start(plugin,
          TestEnvironmentOptions.newBuilder().setMetricsScope(metrics.scope()).build())) {
        r = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
            .run(new AgentTaskInput("What is 1+1?", List.of("calculator"),
                AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("scripted").build()));
      }
      assertTrue(r.forced(), String.valueOf(r.forcedFinish()));
      String scrape = awaitMetric(metrics.port(),
          "durable_agents_forced_finishes_total\\{.*strategy=\"react\".*\\}", 1);
      assertEquals(1, value(scrape, "durable_agents_forced_finishes_total\\{.*strategy=\"react\".*\\}"));
      assertEquals(1, value(scrape, "durable_agents_agent_tasks_total\\{.*strategy=\"react\".*\\}"));
    }
  }
}
