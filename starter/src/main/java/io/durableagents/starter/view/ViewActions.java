package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Links;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.Updates;
import io.durableagents.starter.approval.ApprovalTargets;
import io.durableagents.starter.branch.Branch;
import io.durableagents.starter.branch.ForkCommand;
import io.durableagents.starter.inspect.Describe;
import io.durableagents.starter.inspect.ListCommand;
import io.durableagents.starter.run.Origin;
import io.durableagents.starter.run.SimulationRunner;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ApprovalResult;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.scenario.ParameterSpec;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.InterventionRequest;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What {@code durable-agents view} ({@link io.durableagents.starter.view}) does through the command line's
 * own code, so that every action of the page is one the CLI has, validated as the CLI validates: the list of
 * simulations ({@code list}), interventions ({@code intervene}), forks ({@code fork}) and approvals ({@code
 * approve}/{@code deny}). Each returns what it did in the CLI's words, or throws the CLI's refusal.
 */
public final class ViewActions {
  private ViewActions() {}

  /** A simulation as the view lists it: {@code list}'s row, with its scenario, strategy and step from visibility. */
  public record SimulationRow(String id, String status, String started, String closed, int runs, String scenario,
      String strategy, Long step) {}

  /** A tool call waiting for approval, named as {@code approvals} names it. */
  public record WaitingCall(String call, String tool, JsonNode arguments, String agentStep) {}

  /** A refusal of the command line (a bad option, a validator's no): its words and what to do. */
  public record Refusal(int exitCode, String message, String hint) {}

  public static Map<String, String> environment() {
    return Environment.variables();
  }

  /** Connects as every command does (a clear failure when Temporal is not there). */
  public static WorkflowServiceStubs connect(TemporalConnection connection) {
    return TemporalCheck.connect(connection);
  }

  /** A bad option of a command: printed by the command line as its other refusals are. */
  public static RuntimeException usage(String message, String hint) {
    return CommandFailure.usage(message, hint);
  }

  /** Refuses a port in use or out of range, naming {@code option}. */
  public static void checkPort(String option, String host, int port) {
    StartChecks.port(option, host, port);
  }

  /** The Temporal UI's address ({@code TEMPORAL_UI_URL}, the local dev server's, else :8080), or null in memory. */
  public static String temporalUi(TemporalConnection connection, WorkflowServiceStubs service) {
    return Links.inMemory(service) ? null : Links.ui(connection).replaceAll("/+$", "");
  }

  /** The CLI's refusal in {@code failure}, or null when it is none. */
  public static Refusal refusal(Throwable failure) {
    return failure instanceof CommandFailure f ? new Refusal(f.exitCode(), f.getMessage(), f.hint()) : null;
  }

  /** The simulations, newest first, as {@code list} groups them. */
  public static List<SimulationRow> simulations(WorkflowServiceStubs service, String namespace, int limit) {
    List<SimulationRow> rows = new ArrayList<>();
    for (ListCommand.Simulation sim : ListCommand.bySimulation(ListCommand.list(service, namespace, limit * 20))) {
      if (rows.size() >= limit) {
        break;
      }
      WorkflowExecutionInfo latest = sim.latest();
      rows.add(new SimulationRow(latest.getExecution().getWorkflowId(), Describe.status(latest.getStatus()),
          Describe.time(sim.first().getStartTime()),
          latest.hasCloseTime() && latest.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
              ? Describe.time(latest.getCloseTime()) : null, sim.runs(),
          ListCommand.attribute(latest, SearchAttributes.SCENARIO),
          ListCommand.attribute(latest, SearchAttributes.STRATEGY),
          ListCommand.attribute(latest, SearchAttributes.SIM_STEP)));
    }
    return rows;
  }

  /** The scenario's parameters that may change while it runs (what {@code intervene} takes). */
  public static List<ParameterSpec> adjustableParameters(String scenario) {
    if (scenario == null || !LocalCatalog.get().scenarios().contains(scenario)) {
      return List.of();
    }
    return ScenarioParameters.specs(LocalCatalog.get().scenarios().get(scenario)).stream()
        .filter(ParameterSpec::adjustable).toList();
  }

  /** {@code intervene <id> --param ... [--at-step N] [--note TEXT]}: returns what the CLI prints. */
  public static String intervene(WorkflowClient client, String workflowId, Map<String, String> parameters,
      Integer atStep, String note) {
    if (parameters.isEmpty()) {
      throw CommandFailure.usage("no parameter given", "Give at least one new value.");
    }
    if (atStep != null && atStep < 1) {
      throw CommandFailure.usage("--at-step must be >= 1, was " + atStep, "Give a step that has not started.");
    }
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    Intervention v;
    try {
      v = Updates.call("intervene", workflowId, () -> sim.intervene(new InterventionRequest(parameters, atStep, note)));
    } catch (WorkflowNotFoundException e) {
      throw Updates.ended("intervene", sim, workflowId, e,
          "'fork " + workflowId + " --at-step N --param ...' starts a new run with other values from any step.");
    }
    return "Intervention " + v.number() + " on " + workflowId + ": " + v.describe() + " from step " + v.atStep()
        + " (set at the boundary before it)";
  }

  /** A fork started: its workflow id and what the CLI prints. */
  public record Fork(String id, String message) {}

  /**
   * {@code fork <id> --at-step N [--steps S] --no-wait}: the state after step N read by replay here (no LLM
   * call), a new run started from it, as {@code fork} does.
   */
  public static Fork fork(WorkflowClient client, String simulationId, int atStep, Integer steps) {
    List<String> args = new ArrayList<>(List.of(simulationId, "--at-step", Integer.toString(atStep), "--no-wait"));
    if (steps != null) {
      args.addAll(List.of("--steps", steps.toString()));
    }
    ForkCommand command = new ForkCommand();
    picocli.CommandLine line = new picocli.CommandLine(command);
    line.parseArgs(args.toArray(String[]::new));
    if (atStep < 0) {
      throw CommandFailure.usage("--at-step must be >= 0, was " + atStep, "Give a completed step of the run.");
    }
    long started = System.nanoTime();
    Checkpoint state;
    SimulationReplay replay = new SimulationReplay(client, DurableAgentsPlugin.newBuilder().configureFromClasspath().build());
    try {
      state = replay.stateAfter(client, simulationId, atStep);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "'describe " + simulationId + "' shows how far it went.");
    } finally {
      replay.close();
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    SimulationInput input = Branch.input("a fork", state, command.spec, command.options);
    StartChecks.simulation(input, LocalCatalog.get());
    String id = simulationId + "-fork-" + atStep + "-" + UUID.randomUUID().toString().substring(0, 4);
    new SimulationRunner(client, new PrintStream(OutputStream.nullOutputStream()))
        .start(input, id, new Origin("fork", simulationId, atStep, null), false);
    return new Fork(id, "Forked " + simulationId + " after step " + atStep + " as " + id + " (state read from its "
        + "history in " + millis + " ms, " + replay.replays() + " replays, no LLM call)");
  }

  /**
   * The calls under a simulation that wait for approval: the runs visibility marks {@code AwaitingApproval}
   * (one listing, not a query per agent step), asked for their calls.
   */
  public static List<WaitingCall> waitingCalls(WorkflowClient client, String simulationId) {
    List<WaitingCall> calls = new ArrayList<>();
    for (String run : ApprovalTargets.awaiting(client.getWorkflowServiceStubs(), client.getOptions().getNamespace())) {
      if (!run.startsWith(simulationId + "/")) {
        continue;
      }
      for (ApprovalTargets.Named named : ApprovalTargets.list(client, run, false)) {
        String step = run.substring(simulationId.length() + 1);
        calls.add(new WaitingCall(step + "/" + named.name(), named.approval().tool(),
            named.approval().arguments(), step));
      }
    }
    return calls;
  }

  /**
   * {@code approve <id> <call> [--args JSON] [--reason TEXT]} or {@code deny <id> <call> --reason TEXT}:
   * the same Updates (their validators refuse as they refuse the CLI); returns what the CLI prints.
   *
   * @param decision {@code approve}, {@code edit} or {@code deny}
   */
  public static String decide(WorkflowClient client, String simulationId, String call, String decision,
      JsonNode arguments, String reason, String reviewer) {
    String update = switch (decision) {
      case "approve" -> ToolApprovals.APPROVE;
      case "edit" -> ToolApprovals.EDIT;
      case "deny" -> ToolApprovals.DENY;
      default -> throw CommandFailure.usage("unknown decision '" + decision + "'", "Give approve, edit or deny.");
    };
    if ("deny".equals(decision) && (reason == null || reason.isBlank())) {
      throw CommandFailure.usage("--reason is empty", "Say why: the model reads it and may try something else.");
    }
    if ("edit".equals(decision) && (arguments == null || !arguments.isObject())) {
      throw CommandFailure.usage("--args is not a JSON object: " + arguments,
          "Give the arguments as the tool takes them, e.g. {\"amount\":100}.");
    }
    ApprovalTargets.Target target = ApprovalTargets.resolve(simulationId, call);
    ApprovalDecision addressed = new ApprovalDecision(target.callId(), "edit".equals(decision) ? arguments : null,
        reason, reviewer);
    ApprovalResult result;
    try {
      result = Updates.call(decision, target.workflowId(), () -> client.newUntypedWorkflowStub(target.workflowId())
          .update(update, ApprovalResult.class, addressed));
    } catch (WorkflowNotFoundException e) {
      throw CommandFailure.usage("'" + target.workflowId() + "' has ended: it has no call left to decide",
          "'approvals " + simulationId + " --all' shows how its calls were decided.");
    }
    return "Call " + call + " (" + result.tool() + ") of " + simulationId + ": " + result.outcome().label();
  }
}
