package io.durableagents.starter.benchmark;

import io.durableagents.starter.inspect.ListCommand;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.client.WorkflowClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Events per agent step by the workflow that wrote them and their type, ours beside the yardstick's
 * ({@code ../shared/naive-bench}) on the same server: which events an agent step costs beyond the
 * simplest program of the design's shape, named one by one.
 */
final class EventBreakdown {
  /** The yardstick's simulation workflow type and the prefix of its measured runs' ids (not its warm-up's). */
  static final String YARDSTICK_TYPE = "Sim";

  static final String YARDSTICK_ID_PREFIX = "sim-";

  private EventBreakdown() {}

  /**
   * An event type written by one kind of workflow: the agent step's workflows sort before the
   * simulation's, each in the order of {@link EventType}'s numbers.
   *
   * @param workflow {@link AgentStepShape#STEP} or {@link AgentStepShape#SIMULATION}
   * @param type the event's type
   */
  record Key(String workflow, EventType type) implements Comparable<Key> {
    private static final Comparator<Key> ORDER = Comparator
        .comparing((Key k) -> k.workflow.equals(AgentStepShape.STEP) ? 0 : 1)
        .thenComparing(Key::workflow)
        .thenComparingInt(k -> k.type.getNumber());

    @Override
    public int compareTo(Key other) {
      return ORDER.compare(this, other);
    }

    /** The event type's name as Temporal's UI writes it ({@code WorkflowTaskScheduled}). */
    String eventName() {
      StringBuilder name = new StringBuilder();
      for (String word : type.name().replaceFirst("^EVENT_TYPE_", "").split("_")) {
        name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
      }
      return name.toString();
    }
  }

  /** The newest measured run of the yardstick on the server of {@code client}, or null. */
  static String yardstickWorkflowId(WorkflowClient client) {
    List<WorkflowExecutionInfo> runs = ListCommand.list(client.getWorkflowServiceStubs(),
        client.getOptions().getNamespace(), 20, YARDSTICK_TYPE);
    return runs.stream().map(r -> r.getExecution().getWorkflowId())
        .filter(id -> id.startsWith(YARDSTICK_ID_PREFIX)).findFirst().orElse(null);
  }

  /**
   * The table's rows: for every event type either wrote, ours and the yardstick's per agent step and the
   * difference; then the totals. Markdown, with its header.
   */
  static List<String> table(AgentStepShape ours, AgentStepShape yardstick) {
    List<String> lines = new ArrayList<>();
    lines.add("| workflow | event | ours per agent step | the yardstick's per agent step | ours - the yardstick's |");
    lines.add("| --- | --- | ---: | ---: | ---: |");
    TreeSet<Key> keys = new TreeSet<>(ours.eventTypes().keySet());
    keys.addAll(yardstick.eventTypes().keySet());
    for (Key key : keys) {
      double o = perAgentStep(ours, key);
      double y = perAgentStep(yardstick, key);
      lines.add(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %s |", key.workflow(), key.eventName(), o, y,
          difference(o - y)));
    }
    double o = ours.perAgentStep(ours.events());
    double y = yardstick.perAgentStep(yardstick.events());
    lines.add(String.format(Locale.ROOT, "| every workflow | all events | **%.2f** | **%.2f** | **%s** |", o, y,
        difference(o - y)));
    return lines;
  }

  private static double perAgentStep(AgentStepShape shape, Key key) {
    return shape.perAgentStep(shape.eventTypes().getOrDefault(key, 0L));
  }

  private static String difference(double d) {
    return Math.abs(d) < 0.005 ? "0" : String.format(Locale.ROOT, "%+.2f", d);
  }
}
