package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
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

  private static SimulationResult run(SimulationInput input, TestEnvironmentOptions options, String id) {
    try (TestWorkflowEnvironment env = TestWorkers.start(DurableAgentsPlugin.newBuilder().build(), options)) {
      return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, WorkflowOptions.newBuilder()
              .setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id)
              .setWorkflowRunTimeout(Duration.ofSeconds(60)).build())
          .run(input);
    }
  }
}
