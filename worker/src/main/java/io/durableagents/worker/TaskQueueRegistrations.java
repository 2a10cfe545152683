package io.durableagents.worker;

import io.durableagents.activities.checkpoint.CheckpointActivitiesImpl;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentGroupStepWorkflowImpl;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflowImpl;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.ExperimentWorkflowImpl;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflowImpl;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkflowImplementationOptions;
import java.time.Duration;

/**
 * What runs on our task queues, and their workers made where the application made none: on {@link TaskQueues#AGENTS} (and {@link TaskQueues#SIMULATIONS}) the workflows, made by factories that
 * hand them the plugin's scenarios and tool policies, the models' shared slots ({@code ModelSlotsWorkflow}), and the tool and checkpoint activities; the LLM
 * activities on {@link TaskQueues#LLM}, or with eager LLM calls on the workflows' queue.
 */
final class TaskQueueRegistrations {
  private final ScenarioRegistry scenarios;
  private final ToolRegistry tools;
  private final LlmActivitiesImpl llmActivities;
  private final ToolActivitiesImpl toolActivities;
  private final CheckpointActivitiesImpl checkpointActivities;
  private final boolean eagerLlmCalls;
  private final Duration llmStartToClose;

  TaskQueueRegistrations(ScenarioRegistry scenarios, ToolRegistry tools, LlmActivitiesImpl llmActivities,
      ToolActivitiesImpl toolActivities, CheckpointActivitiesImpl checkpointActivities, boolean eagerLlmCalls,
      Duration llmStartToClose) {
    this.scenarios = scenarios;
    this.tools = tools;
    this.llmActivities = llmActivities;
    this.toolActivities = toolActivities;
    this.checkpointActivities = checkpointActivities;
    this.eagerLlmCalls = eagerLlmCalls;
    this.llmStartToClose = llmStartToClose;
  }

  /** Creates the workers of our task queues that the application has not created on {@code factory}. */
  static void createMissingWorkers(WorkerFactory factory) {
    for (String queue : TaskQueues.ALL) {
      if (factory.tryGetWorker(queue) == null) {
        factory.newWorker(queue);
      }
    }
  }

  /**
   * Registers on {@code worker} what runs on {@code taskQueue}; nothing on a queue not ours. The
   * simulations' queue has the same as the agents' (a simulation's checkpoints run on its own queue).
   */
  void initializeWorker(String taskQueue, Worker worker) {
    if (TaskQueues.AGENTS.equals(taskQueue) || TaskQueues.SIMULATIONS.equals(taskQueue)) {
      // The registries reach the workflows through their factories, never a static: two plugins in
      // one JVM can run different scenarios, and give one tool different options.
      ToolPolicies toolPolicies = tools.policies();
      WorkflowImplementationOptions options = WorkerTuning.workflowImplementationOptions(eagerLlmCalls, llmStartToClose);
      worker.registerWorkflowImplementationFactory(
          SimulationWorkflow.class, () -> new SimulationWorkflowImpl(scenarios), options);
      worker.registerWorkflowImplementationFactory(
          AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(scenarios, toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AgentGroupStepWorkflow.class, () -> new AgentGroupStepWorkflowImpl(scenarios, toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AgentTaskWorkflow.class, () -> new AgentTaskWorkflowImpl(toolPolicies), options);
      worker.registerWorkflowImplementationFactory(
          AutonomousAgentWorkflow.class, () -> new AutonomousAgentWorkflowImpl(toolPolicies), options);
      worker.registerWorkflowImplementationFactory(ExperimentWorkflow.class, ExperimentWorkflowImpl::new, options);
      // The slots of capped models shared by every worker (DURABLE_AGENTS_LLM_SLOTS_SCOPE=shared); every
      // worker runs it, so that it needs no worker of its own whichever worker's call starts it.
      worker.registerWorkflowImplementationTypes(ModelSlotsWorkflowImpl.class);
      worker.registerActivitiesImplementations(toolActivities, checkpointActivities);
      if (eagerLlmCalls) {
        worker.registerActivitiesImplementations(llmActivities);
      }
    } else if (TaskQueues.LLM.equals(taskQueue)) {
      worker.registerActivitiesImplementations(llmActivities);
    }
  }
}
