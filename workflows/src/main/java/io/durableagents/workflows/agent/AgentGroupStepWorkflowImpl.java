package io.durableagents.workflows.agent;

import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the agents' steps of a group in parallel, each as {@link AgentStepWorkflowImpl} would.
 *
 * <p>Chain-of-thought agents run without a workflow thread each: their calls are chained on promises,
 * so a group of 50 holds one thread, not 51, while its calls run. A worker on a JVM without virtual
 * threads allows a few hundred to a few thousand workflow threads, and when cached groups hold them all
 * the SDK evicts groups to free some, each of which then replays its history: with a thread per agent
 * that began at about 1,000 agents at once and halved throughput at 10,000. The other strategies run
 * a thread per agent. Groups recorded before this ({@value #AGENTS_WITHOUT_THREADS} version 1) replay
 * with a thread per agent, as they ran: the order of their calls within a task was the agents' order,
 * where chained calls go out in the order their predecessors completed.
 */
public class AgentGroupStepWorkflowImpl implements AgentGroupStepWorkflow {
  /** The version of a group step whose chain-of-thought agents hold no workflow thread. */
  static final String AGENTS_WITHOUT_THREADS = "agents-without-threads";

  private final ScenarioRegistry scenarios;
  private final ToolPolicies toolPolicies;

  /** A group step that knows {@code scenarios}, and runs tools with the default options. */
  public AgentGroupStepWorkflowImpl(ScenarioRegistry scenarios) {
    this(scenarios, ToolPolicies.defaults());
  }

  /**
   * A group step that knows {@code scenarios} and runs each tool with its options from {@code
   * toolPolicies} (the plugin passes the worker's).
   */
  public AgentGroupStepWorkflowImpl(ScenarioRegistry scenarios, ToolPolicies toolPolicies) {
    this.scenarios = scenarios;
    this.toolPolicies = toolPolicies;
  }

  @Override
  public List<AgentStepResult> steps(AgentGroupStepInput input) {
    ApprovalBook.current(toolPolicies);
    boolean withoutThreads =
        Workflow.getVersion(AGENTS_WITHOUT_THREADS, Workflow.DEFAULT_VERSION, 1) >= 1;
    List<Promise<AgentStepResult>> running = new ArrayList<>();
    List<AgentRuntime> runtimes = new ArrayList<>();
    for (AgentStepInput agent : input.agents()) {
      AgentRuntime runtime = new AgentRuntime(agent, true, toolPolicies);
      runtimes.add(runtime);
      Promise<AgentStepResult> step =
          withoutThreads ? AgentStepWorkflowImpl.runWithoutThread(runtime, scenarios) : null;
      running.add(step != null ? step : Async.function(AgentStepWorkflowImpl::run, runtime, scenarios));
    }
    List<AgentStepResult> results = new ArrayList<>();
    for (int i = 0; i < running.size(); i++) {
      try {
        results.add(running.get(i).get());
      } catch (ActivityFailure | ApplicationFailure failed) {
        // One agent's step failed for good: recorded as failed, the others' results are kept.
        if (!AgentStepFailures.recoverable()) {
          throw failed;
        }
        // with the calls it made before it failed: they were paid for
        results.add(AgentStepFailures.failed(runtimes.get(i), failed));
      }
    }
    return results;
  }
}
