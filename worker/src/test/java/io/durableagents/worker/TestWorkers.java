package io.durableagents.worker;

import io.durableagents.workflows.TaskQueues;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerOptions;

/** Registers a plugin's workflows and activities on a test environment, as a worker factory would. */
final class TestWorkers {
  private TestWorkers() {}

  static TestWorkflowEnvironment start(DurableAgentsPlugin plugin) {
    return start(plugin, TestEnvironmentOptions.getDefaultInstance());
  }

  static TestWorkflowEnvironment start(DurableAgentsPlugin plugin, TestEnvironmentOptions options) {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(options);
    // the plugin's deadlock detection timeout, as its workers have (WorkerTuning): with the SDK's 1 s, a
    // fresh JVM's first tasks (class loading) on a busy machine failed as TMPRL1101, and a second
    // failure of a task waits out its 10 s task timeout (GroupStepThreadsTest took 72 s for it)
    WorkerOptions workers = WorkerOptions.newBuilder()
        .setDefaultDeadlockDetectionTimeout(DurableAgentsPlugin.DEADLOCK_DETECTION_TIMEOUT_MS).build();
    plugin.initializeWorker(TaskQueues.AGENTS, env.newWorker(TaskQueues.AGENTS, workers));
    plugin.initializeWorker(TaskQueues.LLM, env.newWorker(TaskQueues.LLM, workers));
    env.start();
    return env;
  }
}
