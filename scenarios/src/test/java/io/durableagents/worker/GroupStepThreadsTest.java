package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A group step of chain-of-thought agents holds no workflow thread per agent: on a worker that allows
 * far fewer workflow threads than the group has agents, it runs, and the simulation ends as it does
 * with a workflow per agent step on a worker with threads to spare. With a thread per agent, the group
 * needs more threads than the worker has, the SDK finds no other workflow to evict, and the group's
 * workflow task fails for ever (WorkflowRejectedExecutionError): the run below would time out.
 */
class GroupStepThreadsTest {
  private static final int THREADS = 16;
  private static final EpsteinParameters FORTY = EpsteinParameters.DEFAULTS.withAgents(40, 2);

  @Test
  void aGroupOfFortyRunsOnSixteenWorkflowThreads() {
    SimulationInput input = new SimulationInput("epstein", 3, 5, FORTY,
        AgentOptions.newBuilder().setStrategy(Strategy.COT).build(), null, null);
    SimulationResult grouped = run(input.withAgentsPerWorkflow(40), TestEnvironmentOptions.newBuilder()
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setMaxWorkflowThreadCount(THREADS).build())
        .build(), "sim-threads-groups");
    SimulationResult each = run(input, TestEnvironmentOptions.getDefaultInstance(), "sim-threads-each");
    assertEquals(each.perStep(), grouped.perStep());
    assertEquals(each.finalCounts(), grouped.finalCounts());
    assertEquals(each.llmCalls(), grouped.llmCalls());
    assertEquals(2 * each.agentSteps(), grouped.llmCalls(), "two calls per chain-of-thought agent step");
  }

  /**
   * ReAct agents still hold a thread each: a group of 10 holds 11 threads and one more runs each
   * call's completion, all a worker of 12 allows, so the SDK evicts the simulation waiting for it
   * (which replays when the group is done), and the worker's check of the SDK's eviction counter says
   * so.
   */
  @Test
  void threadForcedEvictionsAreCountedAndWarnedAbout() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Scope scope = new RootScopeBuilder().reporter(new CachedTimerStatsReporter(registry))
        .reportEvery(com.uber.m3.util.Duration.ofMillis(100));
    SimulationInput input = new SimulationInput("epstein", 1, 5, EpsteinParameters.DEFAULTS.withAgents(10, 0),
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).build(), null, null).withAgentsPerWorkflow(10);
    int threads = 12;
    ThreadEvictions evictions = new ThreadEvictions(registry, threads);
    SimulationResult result = run(input, TestEnvironmentOptions.newBuilder().setMetricsScope(scope)
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setMaxWorkflowThreadCount(threads).build())
        .build(), "sim-threads-react");
    scope.close();
    assertEquals(10, result.agentSteps());
    assertTrue(evictions.total() > 0, "the SDK evicted groups to free threads");
    assertTrue(evictions.check().orElseThrow().contains("allows " + threads), "and the worker says so");
  }

  private static SimulationResult run(SimulationInput input, TestEnvironmentOptions options, String id) {
    try (TestWorkflowEnvironment env = TestWorkers.start(Builtins.plugin().build(), options)) {
      return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, WorkflowOptions.newBuilder()
              .setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id)
              // a group refused a thread while the simulation's own task runs waits for the task to be
              // tried again: seen at 50 s and past 60 s in full builds on two busy cores
              .setWorkflowRunTimeout(Duration.ofSeconds(300)).build())
          .run(input);
    }
  }
}
