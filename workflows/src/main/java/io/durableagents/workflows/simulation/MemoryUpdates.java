package io.durableagents.workflows.simulation;

import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKeeper;
import io.durableagents.workflows.memory.MemoryKind;
import io.temporal.workflow.Promise;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds what a simulation step brought (each agent's outcomes and the messages it received) to the
 * agents' memories at the end of the step: one {@link MemoryKeeper} update per agent, in agent order,
 * at most {@code maxConcurrentAgents} memory calls at once ({@link StepWindow}), each counted in the
 * {@link DurableState}. Workflow code.
 */
final class MemoryUpdates {
  private MemoryUpdates() {}

  /**
   * Adds this step's entries to the agents' memories, in agent order, at most {@code
   * maxConcurrentAgents} memory calls at once.
   */
  static void remember(MemoryKeeper keeper, SimulationInput input, DurableState state,
      Map<String, List<MemoryEntry>> remembered, int current) {
    if (input.memory().kind() == MemoryKind.NONE) {
      return;
    }
    Map<String, Promise<MemoryKeeper.Update>> running = new LinkedHashMap<>();
    List<Promise<MemoryKeeper.Update>> window = new ArrayList<>();
    boolean budgeted = StepWindow.budgeted();
    int windowCap = StepWindow.cap(input.maxConcurrentAgents(), budgeted);
    TaskBudget budget = new TaskBudget();
    EventsInFlight events = budgeted && EventsInFlight.bounded() ? new EventsInFlight() : null;
    for (String id : state.world.agentIds()) {
      List<MemoryEntry> added = remembered.get(id);
      if (added == null) {
        continue;
      }
      if (window.size() >= windowCap) {
        StepWindow.awaitAny(window, budget, budgeted);
        window.removeIf(Promise::isCompleted);
      }
      if (events != null && events.awaitRoom()) {
        budget.newTask();
        window.removeIf(Promise::isCompleted);
      }
      long size = 0;
      if (budgeted) {
        // the memory call's request carries the agent's memory and the new entries
        size = TaskBudget.sizeOf(state.memories.get(id)) + TaskBudget.sizeOf(added);
        budget.beforeStart(size, window);
      }
      String model = input.optionsFor(state.world.roleOf(id)).model();
      Promise<MemoryKeeper.Update> p = keeper.remember(model, state.memories.get(id), added, current);
      budget.started(size, null);
      if (events != null) {
        events.activity(p);
      }
      running.put(id, p);
      window.add(p);
    }
    for (Map.Entry<String, Promise<MemoryKeeper.Update>> e : running.entrySet()) {
      state.countMemory(e.getKey(), e.getValue().get());
    }
  }
}
