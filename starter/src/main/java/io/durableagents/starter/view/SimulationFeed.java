package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.LlmCosts;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One simulation as every open page of it sees it, read from Temporal by one poller however many pages are
 * open: its description (status and {@code SimStep}, from the server alone) at most once per {@link
 * ViewServer#TICK_MILLIS}; {@code progress()}, {@code stepsAfter(lastSeen)} and {@code interventions()} once
 * per new step (and after the page's own actions, and every {@link #QUIET_PROGRESS_EVERY_MILLIS} while no
 * step ends); the costs by role ({@code boundary()}) at most every {@link #ROLES_EVERY_MILLIS}; the waiting
 * tool calls (one visibility listing) at most every {@link #APPROVALS_EVERY_MILLIS}. What changed is pushed to each page's queue as a Server-Sent Event; a new page
 * gets what was read already, without a query. A finished run is read once, from its result.
 */
final class SimulationFeed {
  static final long ROLES_EVERY_MILLIS = 30_000;
  static final long APPROVALS_EVERY_MILLIS = 3_000;
  static final long QUIET_PROGRESS_EVERY_MILLIS = 5_000;

  /** One Server-Sent Event: its name and its JSON data. */
  record Event(String name, String data) {}

  private final WorkflowClient client;
  private final String id;
  private final ObjectMapper json;
  private final CopyOnWriteArraySet<BlockingQueue<Event>> pages = new CopyOnWriteArraySet<>();
  private final List<StepCounts> steps = new ArrayList<>();
  private String progress;
  private String interventions;
  private String roles;
  private String approvals;
  private String status = "RUNNING";
  private boolean finished;
  private long rolesReadAt;
  private long progressReadAt;
  private long approvalsEvery = APPROVALS_EVERY_MILLIS;
  private boolean poked;
  private long approvalsReadAt;
  private boolean rolesWithoutCalls = true;
  /** Queries sent by name, for the tests that check the view sends no storm of them. */
  private final java.util.Map<String, Long> queries = new java.util.TreeMap<>();

  SimulationFeed(WorkflowClient client, String id, ObjectMapper json) {
    this.client = client;
    this.id = id;
    this.json = json;
  }

  /** A new page's queue, filled first with everything read so far. */
  synchronized BlockingQueue<Event> open() {
    BlockingQueue<Event> page = new LinkedBlockingQueue<>();
    page.add(new Event("snapshot", snapshot()));
    pages.add(page);
    return page;
  }

  void close(BlockingQueue<Event> page) {
    pages.remove(page);
  }

  boolean watched() {
    return !pages.isEmpty();
  }

  synchronized java.util.Map<String, Long> queries() {
    return java.util.Map.copyOf(queries);
  }

  private void asked(String query) {
    queries.merge(query, 1L, Long::sum);
  }

  /** After an action of the page: the next tick reads the progress, interventions, costs and calls again. */
  synchronized void poke() {
    poked = true;
    approvalsReadAt = 0;
    approvalsEvery = APPROVALS_EVERY_MILLIS;
  }

  /**
   * One look at the run, which costs its worker nothing unless a step has ended: the run's description
   * (its status and {@code SimStep} search attribute, answered by the server alone); then, on a new step,
   * after an action of the page, or every {@link #QUIET_PROGRESS_EVERY_MILLIS} while no step ends (a pause
   * from the CLI), the queries. Sends what changed to every open page.
   */
  synchronized void tick() {
    if (finished) {
      return;
    }
    long millis = System.currentTimeMillis();
    Long reached;
    try {
      asked("describe");
      io.temporal.client.WorkflowExecutionDescription d = client.newUntypedWorkflowStub(id).describe();
      if (d.getRawDescription().getWorkflowExecutionInfo().getStatus()
          != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        readClosed();
        return;
      }
      reached = d.getTypedSearchAttributes().get(io.durableagents.workflows.SearchAttributes.SIM_STEP);
      if (reached == null && d.getTypedSearchAttributes().get(io.durableagents.workflows.SearchAttributes.SCENARIO)
          != null) {
        reached = 0L; // it sets its search attributes, and has not ended a step yet (paused before the first)
      }
    } catch (RuntimeException e) {
      readClosed();
      return;
    }
    // without search attributes (a run started without them, the in-memory server) the progress says it
    boolean stepped = reached == null || reached > lastSeen();
    if (!(stepped || poked || progress == null || millis - progressReadAt >= QUIET_PROGRESS_EVERY_MILLIS)) {
      readApprovals(millis);
      return;
    }
    boolean wasPoked = poked;
    poked = false;
    progressReadAt = millis;
    SimulationProgress p;
    try {
      asked("progress");
      p = client.newWorkflowStub(SimulationWorkflow.class, id).progress();
    } catch (RuntimeException e) {
      broadcast("status", statusJson("no answer to its query (is a worker running?)"));
      return;
    }
    if (p.step() > lastSeen()) {
      asked("stepsAfter");
      List<StepCounts> more = client.newWorkflowStub(SimulationWorkflow.class, id).stepsAfter(lastSeen());
      // only the steps the progress counts: a step that ended between the two queries comes with the
      // next progress, so that the header, the charts and the world never show two different steps
      List<StepCounts> fresh = more.stream().filter(s -> s.step() > lastSeen() && s.step() <= p.step()).toList();
      steps.addAll(fresh);
      broadcast("steps", write(fresh));
      readInterventions();
    } else if (interventions == null || wasPoked) {
      readInterventions();
    }
    String now = write(p);
    if (!now.equals(progress)) {
      progress = now;
      broadcast("progress", now);
    }
    // every ROLES_EVERY_MILLIS; sooner while the last reading had no LLM call and the run has made some
    if (millis - rolesReadAt >= ROLES_EVERY_MILLIS || wasPoked && roles == null
        || rolesWithoutCalls && p.llmCalls() > 0 && stepped) {
      rolesReadAt = millis;
      try {
        asked("boundary");
        Checkpoint boundary = client.newWorkflowStub(SimulationWorkflow.class, id).boundary();
        LlmCosts costs = boundary.input().state() == null ? null : boundary.input().state().llmCosts();
        readRoles(costs, boundary.step());
      } catch (RuntimeException e) {
        // no state yet (before the first step): read again at the next turn
      }
    }
    readApprovals(millis);
  }

  /**
   * The waiting calls, at most every {@link #APPROVALS_EVERY_MILLIS}, and never more than a tenth of the
   * time: where the server has no visibility queries (the in-memory one) the listing describes every open
   * run, and the next one waits ten times as long as it took.
   */
  private void readApprovals(long millis) {
    if (millis < approvalsReadAt + approvalsEvery) {
      return;
    }
    approvalsReadAt = millis;
    long started = System.nanoTime();
    try {
      asked("approvals");
      changed("approvals", ViewActions.waitingCalls(client, id));
    } catch (RuntimeException e) {
      // an agent step that ended meanwhile: read again at the next turn
    }
    approvalsEvery = Math.max(APPROVALS_EVERY_MILLIS, 10 * (System.nanoTime() - started) / 1_000_000);
  }

  /** The costs by role as of {@code step}, with that step: the page says which step they are of. */
  private void readRoles(LlmCosts costs, int step) {
    LlmCosts read = costs == null ? LlmCosts.NONE : costs;
    rolesWithoutCalls = read.byRole() == null || read.byRole().isEmpty();
    ObjectNode node = json.valueToTree(read);
    node.put("step", step);
    changed("roles", node);
  }

  private void readInterventions() {
    asked("interventions");
    List<Intervention> now = client.newWorkflowStub(SimulationWorkflow.class, id).interventions();
    changed("interventions", now);
  }

  /** The run is not running (or not there): when it completed, everything from its result (no worker needed). */
  private void readClosed() {
    WorkflowStub stub = client.newUntypedWorkflowStub(id);
    WorkflowExecutionStatus closed;
    try {
      closed = stub.describe().getRawDescription().getWorkflowExecutionInfo().getStatus();
    } catch (io.temporal.client.WorkflowNotFoundException notThere) {
      status = "NOT FOUND";
      finished = true;
      broadcast("status", statusJson("no simulation '" + id + "' on this Temporal"));
      return;
    } catch (RuntimeException unanswered) {
      broadcast("status", statusJson("Temporal does not answer: " + unanswered.getMessage()));
      return;
    }
    if (closed == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      broadcast("status", statusJson("no answer to its query (is a worker running?)"));
      return;
    }
    status = closed.name().replace("WORKFLOW_EXECUTION_STATUS_", "");
    finished = true;
    if (closed == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
      try {
        SimulationResult result = stub.getResult(10, TimeUnit.SECONDS, SimulationResult.class);
        List<StepCounts> fresh = result.perStep().stream().filter(s -> s.step() > lastSeen()).toList();
        steps.addAll(fresh);
        broadcast("steps", write(fresh));
        changed("interventions", result.interventions());
        readRoles(result.llmCosts(), result.steps());
        ObjectNode p = json.valueToTree(result);
        p.remove("perStep");
        p.put("step", result.steps());
        if (!result.stopped()) {
          p.put("totalSteps", result.steps()); // it ran them all (a stopped one ran fewer than it would have)
        }
        p.put("done", true);
        progress = write(p);
        broadcast("progress", progress);
      } catch (Exception e) {
        // the status says enough
      }
    }
    changed("approvals", List.of());
    broadcast("status", statusJson(null));
  }

  private String statusJson(String note) {
    ObjectNode s = json.createObjectNode().put("status", status).put("finished", finished);
    if (note != null) {
      s.put("note", note);
    }
    return write(s);
  }

  private int lastSeen() {
    return steps.isEmpty() ? 0 : steps.get(steps.size() - 1).step();
  }

  private void changed(String name, Object value) {
    String now = write(value);
    String before = switch (name) {
      case "interventions" -> interventions;
      case "roles" -> roles;
      default -> approvals;
    };
    if (Objects.equals(now, before)) {
      return;
    }
    switch (name) {
      case "interventions" -> interventions = now;
      case "roles" -> roles = now;
      default -> approvals = now;
    }
    broadcast(name, now);
  }

  private String snapshot() {
    ObjectNode s = json.createObjectNode();
    s.put("id", id);
    s.set("steps", json.valueToTree(steps));
    s.set("progress", read(progress));
    s.set("interventions", read(interventions));
    s.set("roles", read(roles));
    s.set("approvals", read(approvals));
    s.set("status", read(statusJson(null)));
    return write(s);
  }

  private JsonNode read(String text) {
    try {
      return text == null ? null : json.readTree(text);
    } catch (Exception e) {
      return null;
    }
  }

  private void broadcast(String name, String data) {
    Event e = new Event(name, data);
    for (BlockingQueue<Event> page : pages) {
      page.add(e);
    }
  }

  private String write(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
