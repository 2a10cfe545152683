package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.MisbehavingOpenAiServer.Behaviour;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code DURABLE_AGENTS_LLM_RATE_LIMIT} measured where it matters, at the model server: a simulation of
 * 200 agents with an {@code openai:} model pointed at a local OpenAI-compatible stand-in that records
 * when each call arrives, on Temporal's test server (the embedded default, which ignores the task
 * queue's rate), with the plugin's worker options. No sliding one-second window may see more calls
 * than the limit plus the one documented burst (a call held up on its way, such as a fresh client's
 * first, or on a loaded machine), and the calls' overall rate stays within the limit.
 */
@Tag("alone") // measures time: it runs after the module's other classes, in a JVM of its own (pom.xml)
class LlmRateLimitTest {
  private static final double LIMIT = 2.0;
  private static final int CALLS_MEASURED = 30;

  @Test
  void noOneSecondWindowSeesMoreCallsThanTheLimit() throws Exception {
    try (MisbehavingOpenAiServer server = new MisbehavingOpenAiServer(Behaviour.OK)) {
      DurableAgentsPlugin plugin = Builtins.plugin()
          .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl()).openAiApiKey("sk-x-1234").build())
          .setLlmCallsPerSecond(LIMIT)
          .build();
      try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
        for (String queue : List.of(TaskQueues.AGENTS, TaskQueues.LLM)) {
          WorkerOptions.Builder options = WorkerOptions.newBuilder();
          plugin.configureWorker(queue, options);
          plugin.initializeWorker(queue, env.newWorker(queue, options.build()));
        }
        env.start();
        WorkflowClient client = env.getWorkflowClient();
        SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-rate").build());
        WorkflowClient.start(sim::run, new SimulationInput("epstein", 1, 3,
            new EpsteinParameters(20, 20, 190, 10, 5, 0.5, 0.1, 2.3, 30),
            AgentOptions.newBuilder().setModel("openai:gpt-test").build(), null, 200));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (server.requests() < CALLS_MEASURED && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        WorkflowStub.fromTyped(sim).terminate("measured");
      }
      List<Long> arrivals = server.arrivals();
      assertTrue(arrivals.size() >= CALLS_MEASURED, "calls arrived: " + arrivals.size());
      int busiest = 0;
      for (int i = 0; i < arrivals.size(); i++) {
        int inWindow = 0;
        for (int j = i; j < arrivals.size() && arrivals.get(j) - arrivals.get(i) < TimeUnit.SECONDS.toNanos(1); j++) {
          inWindow++;
        }
        busiest = Math.max(busiest, inWindow);
      }
      System.out.println("LLM calls measured: " + arrivals.size() + ", busiest 1 s window: " + busiest);
      StringBuilder offsets = new StringBuilder();
      for (long a : arrivals) {
        offsets.append(TimeUnit.NANOSECONDS.toMillis(a - arrivals.get(0))).append(' ');
      }
      System.out.println("arrivals (ms): " + offsets);
      assertTrue(busiest <= LIMIT + 1,
          "the busiest sliding 1 s window had " + busiest + " calls; the limit is " + LIMIT + " (+1 burst)");
      double perSecond = (arrivals.size() - 1) * 1e9 / (arrivals.get(arrivals.size() - 1) - arrivals.get(0));
      System.out.println("LLM calls per second overall: " + perSecond);
      assertTrue(perSecond <= LIMIT, "overall " + perSecond + " calls a second; the limit is " + LIMIT);
    }
  }
}
