package io.durableagents.worker;

import io.durableagents.workflows.TaskQueues;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;

/** Registers a plugin's workflows and activities on a test environment, as a worker factory would. */
final class TestWorkers {
  private TestWorkers() {}

  static TestWorkflowEnvironment start(DurableAgentsPlugin plugin) {
    return start(plugin, TestEnvironmentOptions.getDefaultInstance());
  }

  static TestWorkflowEnvironment start(DurableAgentsPlugin plugin, TestEnvironmentOptions options) {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(options);
    plugin.initializeWorker(TaskQueues.AGENTS, env.newWorker(TaskQueues.AGENTS));
    plugin.initializeWorker(TaskQueues.LLM, env.newWorker(TaskQueues.LLM));
    env.start();
    return env;
  }
}
