package io.durableagents.starter.inspect;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code show <simulation id>/agent-<agent id>/step-<n>} when there is no such workflow: the agent took no
 * step then (a jailed citizen cannot act), or took it in a group step. It says which, for how long the
 * agent could not act (from the step after its last one to the step before its next), what the world
 * showed of it then (its portrayal's attributes, such as {@code condition jailed, jail_sentence 4}, read by
 * replaying the simulation's history up to that step, as {@code fork} does), and names its last step.
 */
final class StepNotTaken {
  /** An agent step's workflow id: the simulation's id, the agent's id, the step. */
  static final Pattern AGENT_STEP = Pattern.compile("(.+)/agent-([^/]+)/step-(\\d+)");

  private StepNotTaken() {}

  /**
   * Says why {@code agentId} has no step {@code step} in the simulation {@code h} holds; the exit code.
   *
   * @throws CommandFailure (exit 3) when the simulation has not run that step or has no such agent
   */
  static int explain(WorkflowClient client, SimulationHistories h, String agentId, int step, PrintStream out) {
    String id = h.simulationId();
    Optional<SimulationHistories.StepOf> inGroup = h.stepOf(agentId, step);
    if (inGroup.isPresent()) {
      out.println(agentId + "'s step " + step + " ran in the group step " + inGroup.get().workflowId()
          + " (the simulation runs several agents' steps in one workflow): durable-agents show "
          + inGroup.get().workflowId());
      return Failures.OK;
    }
    boolean ended = closed(h);
    int latest = h.latestStartedStep();
    if (step > latest || step < 1) {
      throw new CommandFailure(Failures.NOT_FOUND, "'" + id + "' has not run step " + step + " (" + (latest == 0
          ? "it has run no step yet" : "its agents' steps go up to step " + latest) + "; agents act from step 1)",
          "'durable-agents show " + id + "' lists its steps.");
    }
    if (!h.tookAnyStep(agentId)) {
      throw new CommandFailure(Failures.NOT_FOUND, "'" + id + "' has no agent '" + agentId + "' that took a step",
          "'durable-agents plans " + id + "' lists its agents.");
    }
    Optional<SimulationHistories.StepOf> last = h.lastStepBefore(agentId, step);
    Optional<SimulationHistories.StepOf> next = h.nextStepAfter(agentId, step);
    int from = last.map(s -> s.step() + 1).orElse(1);
    String until = next.map(s -> "to step " + (s.step() - 1) + " (it acted again at step " + s.step() + ")")
        .orElse(ended ? "to the end (step " + latest + ")" : "on (the simulation is at step " + latest + ")");
    out.println(agentId + " took no step at step " + step + " of " + id + ": it could not act from step " + from
        + " " + until + ".");
    portrayalBefore(client, h, agentId, step).ifPresent(p -> out.println("After step " + (step - 1) + " it was: " + p));
    if (last.isPresent()) {
      out.println("Its last step: step " + last.get().step() + ", durable-agents show " + last.get().workflowId());
    } else {
      out.println("It took no step before step " + step + "; its first: step " + next.get().step()
          + ", durable-agents show " + next.get().workflowId());
    }
    return Failures.OK;
  }

  private static boolean closed(SimulationHistories h) {
    return switch (h.runs().get(h.runs().size() - 1).getLastEvent().getEventType()) {
      case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
          EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
          EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED -> true;
      default -> false;
    };
  }

  /**
   * What the scenario's portrayal showed of the agent after {@code step - 1} ({@code condition jailed,
   * jail_sentence 4, ...}), from the simulation's histories replayed up to it; empty when this command line
   * has not the scenario, or the replay fails.
   */
  private static Optional<String> portrayalBefore(WorkflowClient client, SimulationHistories h, String agentId,
      int step) {
    SimulationReplay replay = null;
    try {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromClasspath().build();
      replay = new SimulationReplay(client, plugin);
      Checkpoint state = replay.stateAfter(h.simulationId(), h.runs(), step - 1);
      SimulationInput input = state.input();
      Scenario<?> scenario = plugin.scenarios().get(input.scenario());
      ScenarioWorld world = input.state() == null
          ? create(scenario, input, new SeededRandom(input.seed()))
          : scenario.restore(input.state().world());
      for (AgentPortrayal a : world.portrayal().agents()) {
        if (a.id().equals(agentId)) {
          StringBuilder sb = new StringBuilder();
          for (Map.Entry<String, Object> e : a.attributes().entrySet()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(value(e.getValue()));
          }
          return sb.length() == 0 ? Optional.empty() : Optional.of(sb.toString());
        }
      }
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty(); // the explanation above stands without it
    } finally {
      if (replay != null) {
        replay.close();
      }
    }
  }

  private static <P extends Record> ScenarioWorld create(Scenario<P> scenario, SimulationInput input,
      SeededRandom random) {
    return scenario.create(ScenarioParameters.read(scenario, input.parameters()), random);
  }

  private static String value(Object v) {
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
    }
    return String.valueOf(v);
  }

  /** The agent step id's parts, when {@code workflowId} is one. */
  static Optional<Matcher> agentStep(String workflowId) {
    Matcher m = AGENT_STEP.matcher(workflowId);
    return m.matches() ? Optional.of(m) : Optional.empty();
  }
}
