package io.durableagents.testkit;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowClientPlugin;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Temporal's test environment running a {@link DurableAgentsPlugin}'s workflows and activities: your
 * scenario, its actions and rule policy, the strategies, the {@code rules} model. The plugin rides on
 * the environment's client, as it rides on a real worker's: Temporal's {@code WorkerFactory} applies
 * every plugin of its client, so the environment's worker factory creates the plugin's two workers
 * (task queues {@link TaskQueues#AGENTS} and {@link TaskQueues#LLM}) when it starts, with every
 * workflow and activity registered, and the client gets the plugin's payload codec if it has one.
 *
 * <p>With JUnit 5 and Temporal's {@link TestWorkflowExtension} (a fresh in-memory Temporal for each
 * test, closed after it):
 *
 * <pre>{@code
 * static final DurableAgentsPlugin PLUGIN = DurableAgentsPlugin.newBuilder()
 *     .registerScenario(new WealthScenario(), new WealthActions(), new WealthRulePolicy())
 *     .build();
 *
 * @RegisterExtension
 * static final TestWorkflowExtension temporal = DurableAgentsTestEnvironment.extension(PLUGIN).build();
 *
 * @Test
 * void runs(WorkflowClient client) {
 *   SimulationResult r = DurableAgentsTestEnvironment.simulation(client, "wealth-1")
 *       .run(SimulationInput.of("wealth", 10, 42));
 * }
 * }</pre>
 *
 * <p>Without the extension (one environment for several runs, or options of your own):
 *
 * <pre>{@code
 * try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
 *   SimulationResult r = DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "wealth-1")
 *       .run(SimulationInput.of("wealth", 10, 42));
 * }
 * }</pre>
 *
 * <p>The workflows run on {@link TaskQueues#AGENTS}, not on the extension's own per-test task queue:
 * start them with {@link #simulation} or {@link #workflowOptions}, not with the {@code WorkflowOptions}
 * the extension injects. The extension's own worker stays idle.
 */
public final class DurableAgentsTestEnvironment {
  private DurableAgentsTestEnvironment() {}

  /**
   * A started test environment (an in-memory Temporal with time skipping) whose workers run {@code
   * plugin}'s workflows and activities. Close it after the test.
   */
  public static TestWorkflowEnvironment start(DurableAgentsPlugin plugin) {
    return start(plugin, TestEnvironmentOptions.getDefaultInstance());
  }

  /** As {@link #start(DurableAgentsPlugin)}, with {@code options} of your own (the plugin added). */
  public static TestWorkflowEnvironment start(DurableAgentsPlugin plugin, TestEnvironmentOptions options) {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(options(plugin, options));
    try {
      env.start();
    } catch (RuntimeException | Error e) {
      env.close();
      throw e;
    }
    return env;
  }

  /**
   * {@code options} with {@code plugin} added to its client's plugins: a {@link TestWorkflowEnvironment}
   * made with them runs the plugin's workers once {@link TestWorkflowEnvironment#start()} is called
   * (and registers the plugin's workflows on any worker made for its task queues before that).
   */
  public static TestEnvironmentOptions options(DurableAgentsPlugin plugin, TestEnvironmentOptions options) {
    return TestEnvironmentOptions.newBuilder(options)
        .setWorkflowClientOptions(withPlugin(options.getWorkflowClientOptions(), plugin))
        .build();
  }

  /**
   * Temporal's JUnit 5 extension, configured to run {@code plugin}: each test gets a fresh
   * environment whose workers run the plugin's workflows and activities. Set anything else on the
   * builder before {@code build()}; if you set {@link TestWorkflowExtension.Builder#setWorkflowClientOptions}
   * yourself, add the plugin to them with {@link #withPlugin}. Test methods may take the {@code
   * TestWorkflowEnvironment} or the {@code WorkflowClient} as parameters.
   */
  public static TestWorkflowExtension.Builder extension(DurableAgentsPlugin plugin) {
    return TestWorkflowExtension.newBuilder()
        .setWorkflowClientOptions(withPlugin(WorkflowClientOptions.getDefaultInstance(), plugin));
  }

  /** {@code options} with {@code plugin} after the plugins it has already. */
  public static WorkflowClientOptions withPlugin(WorkflowClientOptions options, DurableAgentsPlugin plugin) {
    WorkflowClientOptions base = options == null ? WorkflowClientOptions.getDefaultInstance() : options;
    List<WorkflowClientPlugin> plugins = new ArrayList<>();
    if (base.getPlugins() != null) {
      plugins.addAll(Arrays.asList(base.getPlugins()));
    }
    plugins.add(plugin);
    return WorkflowClientOptions.newBuilder(base)
        .setPlugins(plugins.toArray(new WorkflowClientPlugin[0]))
        .build();
  }

  /** Options that start a workflow with id {@code workflowId} on the plugin's task queue. */
  public static WorkflowOptions workflowOptions(String workflowId) {
    return WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(workflowId).build();
  }

  /**
   * A stub of a new simulation with id {@code workflowId}: {@code run(input)} starts it and waits for
   * its result; {@code WorkflowClient.start(stub::run, input)} starts it without waiting.
   */
  public static SimulationWorkflow simulation(WorkflowClient client, String workflowId) {
    return client.newWorkflowStub(SimulationWorkflow.class, workflowOptions(workflowId));
  }
}
