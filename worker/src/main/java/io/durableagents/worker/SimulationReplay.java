package io.durableagents.worker;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationState;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exact state of a recorded simulation after any completed step, read from its history alone: no
 * LLM or tool call is made and no checkpoint is needed. Each run of the simulation (one per
 * continue-as-new) starts from the state in its input; a step inside a run is reached by replaying a
 * prefix of that run's history with the simulation's own workflow code, locally, and asking the
 * replayed workflow for its {@code boundary} — what a fork starts from.
 *
 * <p>The workflow code is this JVM's: the same scenarios as the workers that recorded the history
 * (those registered on the plugin), and a build whose workflows replay that history, as any replay
 * needs.
 */
public final class SimulationReplay {
  private static final String SIMULATION_TYPE =
      io.temporal.common.metadata.POJOWorkflowInterfaceMetadata.newInstance(
          io.durableagents.workflows.simulation.SimulationWorkflow.class).getWorkflowMethod().get().getName();

  private final DurableAgentsPlugin plugin;
  private final DataConverter converter;
  /** How long replayed workflow code may run without yielding before the SDK calls it a deadlock. */
  static final long REPLAY_DEADLOCK_DETECTION_TIMEOUT_MS = 60_000;

  private final WorkerFactory factory;
  private final Worker worker;
  private int replays;
  private int fetched;

  /**
   * A replayer using {@code client}'s data converter (and so its codec) and the workflows {@code plugin}
   * registers. Nothing polls: the worker is never started.
   */
  public SimulationReplay(WorkflowClient client, DurableAgentsPlugin plugin) {
    this.plugin = plugin;
    this.converter = client.getOptions().getDataConverter();
    this.factory = WorkerFactory.newInstance(client);
    // Replaying runs no timer and waits on nothing: a prefix of thousands of agents on a busy or cold
    // JVM may keep its workflow thread longer than the SDK's 1 s before it calls it a deadlock.
    this.worker = factory.newWorker("durable-agents-replay-" + UUID.randomUUID(),
        WorkerOptions.newBuilder().setDefaultDeadlockDetectionTimeout(REPLAY_DEADLOCK_DETECTION_TIMEOUT_MS).build());
    plugin.initializeWorker(TaskQueues.AGENTS, worker);
  }

  /** How many run histories were fetched from the server so far. */
  public int fetched() {
    return fetched;
  }

  /** How many prefixes were replayed so far (the cost of finding steps). */
  public int replays() {
    return replays;
  }

  /**
   * The state of {@code simulationId} after {@code step}, fetching its runs from {@code client} from
   * the latest back only as far as the run that holds the step.
   */
  public Checkpoint stateAfter(WorkflowClient client, String simulationId, int step) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    WorkflowExecutionHistory run = client.fetchHistory(simulationId);
    while (run != null) {
      fetched++;
      runs.add(0, run);
      if (startStep(run) <= step) {
        break;
      }
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(simulationId, previous);
    }
    return stateAfter(simulationId, runs, step);
  }

  /**
   * The state at the last step boundary {@code run} reached, from its whole history (the latest step
   * of a running simulation): its input's when it has not completed a step yet.
   */
  public Checkpoint latest(String simulationId, WorkflowExecutionHistory run) {
    Checkpoint last = boundary(run, run.getEvents().size());
    return last == null ? new Checkpoint(simulationId, startStep(run), atBoundary(input(run))) : at(simulationId, last);
  }

  /** The input that started a run, from its first event. */
  public SimulationInput input(WorkflowExecutionHistory run) {
    HistoryEvent first = run.getEvents().get(0);
    if (first.getEventType() != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      throw new IllegalArgumentException("the history of " + run.getWorkflowExecution().getWorkflowId()
          + " does not start with its started event");
    }
    var attributes = first.getWorkflowExecutionStartedEventAttributes();
    if (!SIMULATION_TYPE.equals(attributes.getWorkflowType().getName())) {
      throw new IllegalArgumentException("'" + run.getWorkflowExecution().getWorkflowId() + "' is a "
          + attributes.getWorkflowType().getName() + ", not a simulation");
    }
    return converter.fromPayloads(0, Optional.of(attributes.getInput()), SimulationInput.class,
        SimulationInput.class);
  }

  /** The last step completed before a run started (0 for the first run). */
  public int startStep(WorkflowExecutionHistory run) {
    SimulationState state = input(run).state();
    return state == null ? 0 : state.step();
  }

  /**
   * The simulation's state after {@code step}, from the histories of its runs, first to latest.
   *
   * @throws IllegalArgumentException when the runs never completed that step, saying which they did
   */
  public Checkpoint stateAfter(String simulationId, List<WorkflowExecutionHistory> runs, int step) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no recorded run of '" + simulationId + "'");
    }
    if (step < 0) {
      throw new IllegalArgumentException("--at-step must be >= 0, was " + step);
    }
    int index = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (startStep(runs.get(i)) <= step) {
        index = i;
      }
    }
    if (index < 0) {
      throw new IllegalArgumentException("the recorded runs of '" + simulationId + "' start after step " + step);
    }
    WorkflowExecutionHistory run = runs.get(index);
    SimulationInput input = input(run);
    if (startStep(run) == step) {
      return new Checkpoint(simulationId, step, atBoundary(input));
    }
    List<HistoryEvent> events = run.getEvents();
    List<Integer> cuts = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        cuts.add(i + 1);
      }
    }
    Checkpoint near = nearStepStarts(simulationId, run, events, cuts, step);
    if (near != null) {
      return at(simulationId, near);
    }
    // the whole run first: it says how far the recording goes
    Checkpoint last = boundary(run, events.size());
    if (last == null || last.step() < step) {
      int reached = last == null ? startStep(run) : last.step();
      throw new IllegalArgumentException("'" + simulationId + "' completed " + reached + " steps; step " + step
          + " is not in its history");
    }
    if (last.step() == step) {
      // the boundary may have been reached earlier in the run, but its state is the same
      return at(simulationId, last);
    }
    // the smallest prefix whose replay has completed the step: the boundary only moves forward
    int low = 0;
    int high = cuts.size() - 1;
    Checkpoint found = null;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      Checkpoint c = boundary(run, cuts.get(mid));
      if (c != null && c.step() >= step) {
        if (c.step() == step) {
          found = c;
        }
        high = mid - 1;
      } else {
        low = mid + 1;
      }
    }
    if (found == null) {
      throw new IllegalStateException("replaying '" + simulationId + "' never stopped at step " + step);
    }
    return at(simulationId, found);
  }

  /**
   * The state after {@code step} found near where the run started the agent steps of {@code step} and
   * {@code step + 1} (their child workflows' ids name the step): the step ends in a task after the
   * first and no later than the second, most often in the second itself, so two or three replays find
   * the smallest prefix that completed the step, as the search over the whole run would. Null when the
   * run started no agent step after {@code step} (its last step, a step nobody acted in) or did so in
   * its last task: the search over the whole run answers then.
   */
  private Checkpoint nearStepStarts(String simulationId, WorkflowExecutionHistory run, List<HistoryEvent> events,
      List<Integer> cuts, int step) {
    Map<Integer, Integer> firstTaskOfStep = new HashMap<>();
    int task = -1;
    for (int i = 0; i < events.size(); i++) {
      HistoryEvent e = events.get(i);
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        task++;
      } else if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED && task >= 0) {
        Integer childStep = agentStepOf(simulationId,
            e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
        if (childStep != null) {
          firstTaskOfStep.putIfAbsent(childStep, task);
        }
      }
    }
    Integer next = firstTaskOfStep.get(step + 1);
    if (next == null || next + 1 >= cuts.size()) {
      return null;
    }
    // a prefix up to a task's start answers as of the task before it: the step is seen ended one task
    // after the one that ended it, which is at the latest the one that started the next step's agents
    int high = next + 1;
    Integer started = firstTaskOfStep.get(step);
    int low = started == null || started >= high ? 0 : started + 1;
    Checkpoint atHigh = boundary(run, cuts.get(high));
    if (atHigh == null || atHigh.step() != step) {
      return null;
    }
    Checkpoint found = atHigh;
    int hi = high - 1;
    int walked = 0;
    while (low <= hi) {
      // most often the step ended one task back (two with a checkpoint written at the boundary): walk
      // back a few tasks before bisecting what is left
      int mid = walked++ < 3 ? hi : (low + hi) >>> 1;
      Checkpoint c = boundary(run, cuts.get(mid));
      if (c != null && c.step() >= step) {
        found = c;
        hi = mid - 1;
      } else {
        low = mid + 1;
      }
    }
    return found.step() == step ? found : null;
  }

  private static final Pattern AGENT_STEP = Pattern.compile("/agent-.+/step-(\\d+)|/step-(\\d+)/group-\\d+");

  /** The step of an agent step's (or group step's) workflow id of {@code simulationId}, else null. */
  static Integer agentStepOf(String simulationId, String workflowId) {
    if (!workflowId.startsWith(simulationId)) {
      return null;
    }
    Matcher m = AGENT_STEP.matcher(workflowId.substring(simulationId.length()));
    if (!m.matches()) {
      return null;
    }
    return Integer.valueOf(m.group(1) != null ? m.group(1) : m.group(2));
  }

  private static Checkpoint at(String simulationId, Checkpoint c) {
    return new Checkpoint(simulationId, c.step(), c.input());
  }

  /** A run's input as a new run starts from it: neither paused nor stopping. */
  private static SimulationInput atBoundary(SimulationInput input) {
    return input.state() == null ? input : input.withState(input.state().atBoundary());
  }

  /** Replays the first {@code length} events of {@code run} and asks for its boundary. */
  private Checkpoint boundary(WorkflowExecutionHistory run, int length) {
    History prefix = History.newBuilder().addAllEvents(run.getEvents().subList(0, length)).build();
    WorkflowExecutionHistory cut = new WorkflowExecutionHistory(prefix, run.getWorkflowExecution().getWorkflowId());
    replays++;
    try {
      return (Checkpoint) QUERY.invoke(WORKFLOW_WORKER.get(worker), cut, "boundary", Checkpoint.class,
          Checkpoint.class, new Object[0]);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable cause = e.getCause();
      Throwable root = cause;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new IllegalStateException("replaying '" + run.getWorkflowExecution().getWorkflowId()
          + "' failed: " + cause + (root == cause ? "" : " (" + root + ")"), cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final Field WORKFLOW_WORKER;
  private static final Method QUERY;

  static {
    // Worker.replayWorkflowExecution replays a history but answers no query; the replaying worker it
    // wraps does, as WorkflowReplayer's own code path. Found once, failing loudly if the SDK changes.
    try {
      WORKFLOW_WORKER = Worker.class.getDeclaredField("workflowWorker");
      WORKFLOW_WORKER.setAccessible(true);
      Class<?> sync = WORKFLOW_WORKER.getType();
      QUERY = sync.getMethod("queryWorkflowExecution",
          io.temporal.internal.common.WorkflowExecutionHistory.class, String.class, Class.class,
          java.lang.reflect.Type.class, Object[].class);
      QUERY.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError("this Temporal SDK has no replaying query: " + e);
    }
  }

  /** Releases the replaying worker. */
  public void close() {
    factory.shutdownNow();
  }
}
