package io.durableagents.starter.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * Where the wall time of one simulation step of group steps goes, at a model latency: the step's boundary
 * (from the step before's last group ending to the last group's first calls going out), each wave of LLM
 * calls in flight (an agent's first call, its second, ...), and between waves the results coming back and
 * the next calls going out; with how busy the machine's cores were in each part (the whole machine, the
 * server's processes and the worker's JVM, from a sampler that reads /proc every 50 ms during the run).
 * Read from the group step workflows' histories ({@code <simulation>/step-<n>/group-<g>}): the times of
 * their activities' scheduled and completed events, each call placed in its agent's sequence by the
 * {@code agent} field of its input.
 */
final class StepTimeline {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** CPU readings taken every 50 ms: the time (epoch ms) and, in ms so far, the machine's busy time, the server's and the worker's CPU. */
  static final class Sampler implements AutoCloseable {
    private final List<double[]> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    Sampler(DoubleSupplier serverCpuMs, long workerPid) {
      thread = new Thread(() -> {
        while (running) {
          double[] s = {System.currentTimeMillis(), MachineReadings.machineBusyMillis(), serverCpuMs.getAsDouble(),
              MachineReadings.cpuMillis(workerPid)};
          synchronized (samples) {
            samples.add(s);
          }
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "step-timeline-sampler");
      thread.setDaemon(true);
      thread.start();
    }

    /** Cores busy between epoch ms {@code from} and {@code to}: the machine, the server, the worker; null when not sampled. */
    double[] coresBusy(double from, double to) {
      double[] a = null;
      double[] b = null;
      synchronized (samples) {
        for (double[] s : samples) {
          if (a == null || Math.abs(s[0] - from) < Math.abs(a[0] - from)) {
            a = s;
          }
          if (b == null || Math.abs(s[0] - to) < Math.abs(b[0] - to)) {
            b = s;
          }
        }
      }
      if (a == null || b == null || b[0] - a[0] < 40) {
        return null;
      }
      double span = b[0] - a[0];
      return new double[] {(b[1] - a[1]) / span, (b[2] - a[2]) / span, (b[3] - a[3]) / span};
    }

    @Override
    public void close() {
      running = false;
      thread.interrupt();
    }
  }

  /** One part of the step: its name, its seconds, and the cores busy in it (machine, server, worker), or null. */
  record Part(String name, double seconds, double[] cores) {}

  private StepTimeline() {}

  /**
   * The parts of step {@code step} of simulation {@code simulationId}, or an empty list when its groups'
   * histories cannot be read (a simulation without groups, a step that did not run).
   */
  static List<Part> of(WorkflowClient client, String simulationId, int step, Sampler sampler) {
    return parts(groups(client, simulationId, step), step > 1 ? groups(client, simulationId, step - 1) : List.of(),
        sampler);
  }

  /**
   * The parts of a step whose group step workflows had the histories {@code groups}, the step before's
   * {@code before} (none for a first step: it starts as its first group does); no sampler, no cores.
   */
  static List<Part> parts(List<List<HistoryEvent>> groups, List<List<HistoryEvent>> before, Sampler sampler) {
    if (groups.isEmpty()) {
      return List.of();
    }
    double start = Double.NaN;
    for (List<HistoryEvent> g : before) {
      start = Double.isNaN(start) ? millis(last(g)) : Math.max(start, millis(last(g)));
    }
    // per wave (an agent's k-th call): the last call scheduled, and the first result, over every group
    List<Double> lastScheduled = new ArrayList<>();
    List<Double> firstCompleted = new ArrayList<>();
    double end = 0;
    double firstGroup = Double.MAX_VALUE;
    for (List<HistoryEvent> g : groups) {
      firstGroup = Math.min(firstGroup, millis(g.get(0)));
      end = Math.max(end, millis(last(g)));
      Map<String, Integer> callsOfAgent = new HashMap<>();
      Map<Long, Integer> waveOfScheduled = new HashMap<>();
      Map<Long, Integer> waveOfTask = new HashMap<>();
      long task = 0;
      for (HistoryEvent e : g) {
        if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
          task = e.getEventId();
        } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
          String agent = agent(e.getActivityTaskScheduledEventAttributes().getInput());
          int wave = agent != null ? callsOfAgent.merge(agent, 1, Integer::sum) - 1
              : waveOfTask.computeIfAbsent(task, t -> waveOfTask.size());
          waveOfScheduled.put(e.getEventId(), wave);
          set(lastScheduled, wave, millis(e), true);
        } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
          Integer wave = waveOfScheduled.get(e.getActivityTaskCompletedEventAttributes().getScheduledEventId());
          if (wave != null) {
            set(firstCompleted, wave, millis(e), false);
          }
        }
      }
    }
    if (Double.isNaN(start)) {
      start = firstGroup;
    }
    List<String> names = new ArrayList<>();
    List<Double> points = new ArrayList<>();
    points.add(start);
    for (int w = 0; w < lastScheduled.size(); w++) {
      names.add(w == 0 ? "the step's boundary: the step before's last group ended -> the last group's first calls out"
          : "results of calls " + w + " back -> the last calls " + (w + 1) + " out");
      points.add(lastScheduled.get(w));
      names.add("calls " + (w + 1) + " in flight, none back yet");
      points.add(w < firstCompleted.size() ? firstCompleted.get(w) : lastScheduled.get(w));
    }
    names.add("results of calls " + lastScheduled.size() + " back -> the last group ended");
    points.add(end);
    List<Part> parts = new ArrayList<>();
    double at = points.get(0);
    for (int i = 0; i < names.size(); i++) {
      double to = Math.max(at, points.get(i + 1));
      parts.add(new Part(names.get(i), (to - at) / 1000.0, sampler == null ? null : sampler.coresBusy(at, to)));
      at = to;
    }
    parts.add(new Part("the whole step", (at - points.get(0)) / 1000.0,
        sampler == null ? null : sampler.coresBusy(points.get(0), at)));
    return parts;
  }

  /** The table's rows for {@code parts} of a row named {@code row}. */
  static List<String> rows(String row, int step, List<Part> parts) {
    List<String> lines = new ArrayList<>();
    for (Part p : parts) {
      String cores = p.cores() == null ? "- | - | -" : String.format(Locale.ROOT, "%.2f | %.2f | %.2f", p.cores()[0],
          p.cores()[1], p.cores()[2]);
      lines.add(String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %s |", row, step, p.name(), p.seconds(), cores));
    }
    return lines;
  }

  static final String HEADER = "| row | step | part of the step | seconds | cores busy: the machine | the server | the worker |";
  static final String ALIGNMENT = "| --- | ---: | --- | ---: | ---: | ---: | ---: |";

  private static List<List<HistoryEvent>> groups(WorkflowClient client, String simulationId, int step) {
    List<List<HistoryEvent>> groups = new ArrayList<>();
    for (int g = 1; ; g++) {
      try {
        WorkflowExecutionHistory h = client.fetchHistory(simulationId + "/step-" + step + "/group-" + g);
        groups.add(h.getEvents());
      } catch (RuntimeException e) {
        return groups; // no such group: they are numbered from 1 without gaps
      }
    }
  }

  private static void set(List<Double> list, int index, double value, boolean max) {
    while (list.size() <= index) {
      list.add(max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    }
    list.set(index, max ? Math.max(list.get(index), value) : Math.min(list.get(index), value));
  }

  private static String agent(Payloads input) {
    if (input.getPayloadsCount() == 0) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(input.getPayloads(0).getData().toByteArray());
      JsonNode agent = node == null ? null : node.get("agent");
      return agent == null || !agent.isTextual() ? null : agent.asText();
    } catch (Exception e) {
      return null; // not JSON (a codec's bytes): waves by workflow task instead
    }
  }

  private static HistoryEvent last(List<HistoryEvent> events) {
    return events.get(events.size() - 1);
  }

  private static double millis(HistoryEvent e) {
    return e.getEventTime().getSeconds() * 1000.0 + e.getEventTime().getNanos() / 1e6;
  }
}
