package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.memory.MemoryPrompts;
import io.durableagents.workflows.simulation.AgentState;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowQueryException;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulation engine: continue-as-new equivalence, pause, resume and stop, the world and agent
 * queries, conflicts told to the losing agent, and each kind of memory, with the offline rules model.
 */
class SimulationEngineTest {
  private static final String MODEL = "recorded";
  private TestWorkflowEnvironment env;
  private RecordingChatModel model;

  private void start(RecordingChatModel recording) {
    model = recording;
    env = TestWorkers.start(Builtins.plugin().registerModel(MODEL, recording).build());
  }

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private SimulationWorkflow stub(String id) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  private SimulationWorkflow running(String id) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, id);
  }

  private static SimulationInput input(int steps, long seed, EpsteinParameters world, AgentOptions citizens,
      AgentOptions cops) {
    return new SimulationInput("epstein", steps, seed, world, citizens, Map.of("cop", cops), null);
  }

  private static AgentOptions options(Strategy strategy, int ttl) {
    return AgentOptions.newBuilder().setModel(MODEL).setStrategy(strategy).setTtl(ttl).build();
  }

  /** The result without the number of runs, which is all continue-as-new may change. */
  private static SimulationResult comparable(SimulationResult r) {
    return new SimulationResult(r.simulationId(), r.scenario(), r.seed(), r.steps(), r.perStep(),
        r.finalCounts(), r.agentSteps(), r.llmCalls(), r.toolCalls(), r.usage(), r.planCounts(),
        r.stopped(), 1);
  }

  private long historyLength(String id) {
    return env.getWorkflowClient().fetchHistory(id).getEvents().size();
  }

  @Test
  void continueAsNewCarriesPlansMemoryAndWorldAndGivesTheSameResult() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    // ReWOO citizens hold 3-step plans across the continue-as-new boundaries; cops use CoT
    SimulationInput in = input(30, 11, EpsteinParameters.DEFAULTS.withAgents(8, 2),
        options(Strategy.REWOO, 3), options(Strategy.COT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2));
    SimulationResult once = stub("can-none").run(
        in.withContinueAsNewEvery(1000).withContinueAsNewWhenSuggested(false));
    long withoutLength = historyLength("can-none");
    SimulationResult every4 = stub("can-4").run(in.withContinueAsNewEvery(4));
    long lastRunLength = historyLength("can-4");

    assertEquals(1, once.runs());
    assertEquals(8, every4.runs(), "continued as new after steps 4, 8, ..., 28");
    assertEquals(comparable(once), new SimulationResult("can-none", every4.scenario(), every4.seed(),
        every4.steps(), every4.perStep(), every4.finalCounts(), every4.agentSteps(), every4.llmCalls(),
        every4.toolCalls(), every4.usage(), every4.planCounts(), every4.stopped(), 1));
    assertTrue(once.planCounts().planStepsReused() > 0, "plans served later steps: " + once.planCounts());
    // memory went through the boundaries too: the same consolidations, in both runs
    assertEquals(running("can-none").agent("cop-0").memory(), running("can-4").agent("cop-0").memory());
    assertTrue(lastRunLength * 3 < withoutLength,
        "the last run's history (" + lastRunLength + " events) is a fraction of one run's ("
            + withoutLength + ")");
    System.out.println("history events: one run of 30 steps " + withoutLength
        + ", last run of 30 steps continued every 4: " + lastRunLength);
  }

  @Test
  void theNegotiationWorldAndItsMessagesCrossContinueAsNew() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationInput in = new SimulationInput("negotiation", 6, 42, null,
        AgentOptions.newBuilder().setModel(MODEL).build(), null, null)
        .withParameters(io.durableagents.scenarios.negotiation.NegotiationParameters.DEFAULTS)
        .withMemory(MemoryOptions.of(MemoryKind.SHORT_TERM, 3));
    SimulationResult once = stub("nego-none").run(
        in.withContinueAsNewEvery(1000).withContinueAsNewWhenSuggested(false));
    SimulationResult every2 = stub("nego-2").run(in.withContinueAsNewEvery(2));
    assertEquals(3, every2.runs());
    assertEquals(once.perStep(), every2.perStep());
    assertEquals(once.finalCounts(), every2.finalCounts());
    assertEquals(once.llmCalls(), every2.llmCalls());
    assertTrue(once.finalCounts().get("sales_seller-0").intValue() > 0, once.finalCounts().toString());
    assertEquals(running("nego-none").agent("buyer-0").memory(), running("nego-2").agent("buyer-0").memory());
  }

  @Test
  void aLargeSimulationContinuesAsNewBeforeItsHistoryPassesTenPercentOfTheLimits() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    // 120 agents add ~360 events a step: the 100-step interval alone would let a run reach 36,000; the
    // first run ends after about 12 steps, so 16 steps make a second
    EpsteinParameters crowd = new EpsteinParameters(12, 12, 100, 20, 1, 0.5, 0.1, 2.3, 30);
    SimulationResult r = stub("crowd").run(new SimulationInput("epstein", 16, 5, crowd,
        AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.REACT).build(), null, 200));
    assertTrue(r.runs() > 1, "continued as new: " + r.runs() + " runs");
    WorkflowExecutionHistory lastRun = env.getWorkflowClient().fetchHistory("crowd");
    // every run but the last ended in continue-as-new before one more step would pass 5,000 events
    String firstRun = lastRun.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
        .getFirstExecutionRunId();
    long firstRunEvents = env.getWorkflowClient().fetchHistory("crowd", firstRun).getEvents().size();
    assertTrue(firstRunEvents <= SimulationWorkflowImpl.HISTORY_EVENTS_BUDGET * 6 / 5,
        "the first run stopped near the budget: " + firstRunEvents + " events");
    assertTrue(firstRunEvents > SimulationWorkflowImpl.HISTORY_EVENTS_BUDGET / 2,
        "and not far below it: " + firstRunEvents + " events");
    assertEquals(16, r.steps());
    System.out.println("120 agents: " + r.runs() + " runs, the first with " + firstRunEvents + " events");
  }

  /**
   * A long run, continued as new twenty times (every 10 steps, while ReWOO plans of 8 steps cross the
   * boundaries), equals the same seed in one run without any continue-as-new. 200 steps have as many
   * boundaries as the 1,000 steps continued every 50 that this ran before, in a fifth of the time.
   */
  @Test
  void aLongRunContinuedAsNewTwentyTimesEqualsTheSameSeedWithoutIt() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationInput in = input(200, 5, EpsteinParameters.DEFAULTS.withAgents(2, 1),
        options(Strategy.REWOO, 8), options(Strategy.REWOO, 8));
    long t0 = System.nanoTime();
    // one run: no continue-as-new at all, not even at Temporal's suggestion
    SimulationResult once = stub("k-none").run(
        in.withContinueAsNewEvery(1000).withContinueAsNewWhenSuggested(false));
    long t1 = System.nanoTime();
    SimulationResult continued = stub("k-10").run(in.withContinueAsNewEvery(10));
    long t2 = System.nanoTime();
    assertEquals(1, once.runs());
    assertEquals(200, continued.steps());
    assertEquals(200, continued.perStep().size());
    assertEquals(20, continued.runs());
    assertEquals(once.perStep(), continued.perStep());
    assertEquals(once.finalCounts(), continued.finalCounts());
    assertEquals(once.llmCalls(), continued.llmCalls());
    assertEquals(once.usage(), continued.usage());
    assertEquals(once.planCounts(), continued.planCounts());
    assertTrue(once.planCounts().planStepsReused() > 0, "plans served later steps: " + once.planCounts());
    System.out.printf("200 steps: %d ms in one run (%d events), %d ms continued every 10 (last run %d "
        + "events)%n", (t1 - t0) / 1_000_000, historyLength("k-none"), (t2 - t1) / 1_000_000,
        historyLength("k-10"));
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  @Test
  void pauseHoldsTheRunAtAStepBoundaryResumeGoesOnAndStopReturnsTheStepsSoFar() throws Exception {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationInput in = input(10_000, 3, EpsteinParameters.DEFAULTS.withAgents(4, 1),
        options(Strategy.COT, 1), options(Strategy.COT, 1)).withContinueAsNewEvery(7)
        .withMemory(MemoryOptions.of(MemoryKind.SHORT_TERM, 3));
    WorkflowClient.start(stub("steer")::run, in);
    SimulationWorkflow sim = running("steer");
    waitFor(() -> sim.progress().step() >= 2, "step 2");

    sim.pause();
    waitFor(() -> sim.progress().paused(), "the pause");
    Thread.sleep(1000); // the step in progress completes
    int held = sim.progress().step();
    Thread.sleep(1500);
    SimulationProgress paused = sim.progress();
    assertEquals(held, paused.step(), "no step runs while paused");
    assertTrue(paused.paused());
    assertEquals(5, paused.agents());
    assertTrue(paused.llmCalls() > 0 && paused.usage().total() > 0);

    JsonNode world = sim.world();
    assertEquals(5, world.get("agents").size());
    assertEquals(4, world.get("parameters").get("citizens").asInt());
    AgentState cop = sim.agent("cop-0");
    assertEquals("cop", cop.role());
    assertEquals(held + 1, cop.observation().step());
    assertNotNull(cop.memory());
    assertEquals(Math.min(3, held), cop.memory().entries().size());
    WorkflowQueryException unknown =
        assertThrows(WorkflowQueryException.class, () -> sim.agent("mayor-1"));
    assertTrue(unknown.getMessage().contains("mayor-1") || String.valueOf(unknown.getCause()).contains("mayor-1"));

    sim.resume();
    waitFor(() -> sim.progress().step() >= held + 9, "steps after resuming, across a continue-as-new");
    assertTrue(sim.progress().runs() >= 2, "it continued as new meanwhile: " + sim.progress());
    sim.stop();
    SimulationResult r = env.getWorkflowClient().newUntypedWorkflowStub("steer")
        .getResult(SimulationResult.class);
    assertTrue(r.stopped());
    assertTrue(r.steps() >= held + 9 && r.steps() < 10_000, "stopped at " + r.steps());
    assertEquals(r.steps(), r.perStep().size(), "every completed step is in the result");
    assertEquals(r.steps(), r.perStep().get(r.perStep().size() - 1).step());
    assertTrue(r.runs() >= 2);
  }

  @Test
  void stopWhilePausedEndsAtOnceAndAPauseSurvivesContinueAsNew() throws Exception {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationInput in = input(10_000, 4, EpsteinParameters.DEFAULTS.withAgents(2, 1),
        options(Strategy.COT, 1), options(Strategy.COT, 1)).withContinueAsNewEvery(1);
    WorkflowClient.start(stub("stop-paused")::run, in);
    SimulationWorkflow sim = running("stop-paused");
    waitFor(() -> sim.progress().step() >= 3, "step 3");
    sim.pause();
    waitFor(() -> sim.progress().paused(), "the pause");
    Thread.sleep(1000); // the step in progress completes
    int held = sim.progress().step();
    Thread.sleep(1000);
    assertEquals(held, sim.progress().step());
    assertTrue(sim.progress().paused(), "the pause is carried into each new run");
    sim.stop();
    SimulationResult r = env.getWorkflowClient().newUntypedWorkflowStub("stop-paused")
        .getResult(SimulationResult.class);
    assertTrue(r.stopped());
    assertEquals(held, r.steps());
    assertEquals(held, r.perStep().size());
  }

  @Test
  void theAgentThatLosesAConflictIsToldInItsNextObservation() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    // 8 agents on a 3x3 torus: one free cell, so moves collide; the first activated wins it
    EpsteinParameters crowded = new EpsteinParameters(3, 3, 7, 1, 1, 0.5, 0.1, 2.3, 3);
    SimulationInput in = input(4, 2, crowded, options(Strategy.COT, 1), options(Strategy.COT, 1));
    stub("crowded").run(in);
    List<String> told = new ArrayList<>();
    for (var e : env.getWorkflowClient().fetchHistory("crowded/agent-citizen-0/step-4").getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
        told.add(e.getWorkflowExecutionStartedEventAttributes().getInput().toString());
      }
    }
    SimulationWorkflow sim = running("crowded");
    boolean someoneBlocked = false;
    for (String id : List.of("citizen-0", "citizen-1", "citizen-2", "citizen-3", "citizen-4",
        "citizen-5", "citizen-6", "cop-0")) {
      for (String outcome : sim.agent(id).lastActionResults()) {
        someoneBlocked |= outcome.contains("blocked, cell") && outcome.contains("is taken by");
      }
    }
    assertTrue(someoneBlocked, "a blocked move is in some agent's next observation");
    assertFalse(told.isEmpty());
  }

  @Test
  void agentStepsRunInParallelUpToTheLimitAndLlmCallsGoToTheirOwnRateLimitedQueue() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationInput in = new SimulationInput("epstein", 2, 5, EpsteinParameters.DEFAULTS.withAgents(8, 2),
        options(Strategy.COT, 1), Map.of(), 3);
    stub("window").run(in);
    int running = 0;
    int most = 0;
    for (var e : env.getWorkflowClient().fetchHistory("window").getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        most = Math.max(most, ++running);
      } else if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED) {
        running--;
      }
    }
    assertEquals(3, most, "at most maxConcurrentAgents agent steps at once, and that many used");

    io.temporal.worker.WorkerOptions.Builder llm = io.temporal.worker.WorkerOptions.newBuilder();
    io.temporal.worker.WorkerOptions.Builder agents = io.temporal.worker.WorkerOptions.newBuilder();
    DurableAgentsPlugin limited = Builtins.plugin()
        .configureFromEnvironment(Map.of("DURABLE_AGENTS_LLM_RATE_LIMIT", "2.5")).build();
    limited.configureWorker(TaskQueues.LLM, llm);
    limited.configureWorker(TaskQueues.AGENTS, agents);
    assertEquals(2.5, llm.build().getMaxTaskQueueActivitiesPerSecond());
    assertEquals(0.0, agents.build().getMaxTaskQueueActivitiesPerSecond(), "workflows and tools: no cap");
  }

  @Test
  void groupStepsGiveTheSameRunAsAWorkflowPerAgentStepWithEveryCallStillAnActivity() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    // ReWOO citizens with 3-step plans, ReAct cops, long-term memory: everything a step carries
    SimulationInput in = input(6, 11, EpsteinParameters.DEFAULTS.withAgents(8, 2),
        options(Strategy.REWOO, 3), options(Strategy.REACT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2));
    SimulationResult each = stub("per-agent").run(in);
    SimulationResult grouped = stub("grouped").run(in.withAgentsPerWorkflow(3));

    assertEquals(comparable(each), new SimulationResult("per-agent", grouped.scenario(), grouped.seed(),
        grouped.steps(), grouped.perStep(), grouped.finalCounts(), grouped.agentSteps(), grouped.llmCalls(),
        grouped.toolCalls(), grouped.usage(), grouped.planCounts(), grouped.stopped(), 1));
    assertEquals(running("per-agent").agent("citizen-3").memory(), running("grouped").agent("citizen-3").memory());

    int groups = 0;
    long agentCalls = 0;
    java.util.Set<String> callers = new java.util.TreeSet<>();
    for (var e : env.getWorkflowClient().fetchHistory("grouped").getEvents()) {
      if (e.getEventType() != EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        continue;
      }
      var child = e.getStartChildWorkflowExecutionInitiatedEventAttributes();
      assertEquals("AgentGroupStep", child.getWorkflowType().getName());
      assertTrue(child.getWorkflowId().matches("grouped/step-\\d+/group-\\d+"), child.getWorkflowId());
      groups++;
      for (var c : env.getWorkflowClient().fetchHistory(child.getWorkflowId()).getEvents()) {
        if (c.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
            && c.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("LlmChat")) {
          String summary = io.temporal.common.converter.DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
              c.getUserMetadata().getSummary(), String.class, String.class);
          assertTrue(summary.matches("llm: recorded · (citizen|cop)-\\d+"), summary);
          callers.add(summary.substring(summary.indexOf('·') + 2));
          agentCalls++;
        }
      }
    }
    // at most 3 agents of one role per workflow: citizens in groups of 3, 3 and 2, the cops in one
    assertTrue(groups <= 6 * 4 && groups * 3 >= grouped.agentSteps(), groups + " groups for "
        + grouped.agentSteps() + " agent steps");
    assertTrue(groups < grouped.agentSteps() / 2, "fewer workflows than agent steps: " + groups);
    long memoryCalls = grouped.llmCalls() - agentCalls;
    assertTrue(agentCalls > 0 && memoryCalls >= 0, agentCalls + " agent calls of " + grouped.llmCalls());
    assertEquals(each.llmCalls(), grouped.llmCalls());
    assertEquals(10, callers.size(), "every agent's calls are its own activities: " + callers);
  }

  @Test
  void groupStepsKeepToTheConcurrencyLimit() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    // groups of 2 with at most 5 agents at once: two groups run together, never three
    SimulationInput in = new SimulationInput("epstein", 2, 5, EpsteinParameters.DEFAULTS.withAgents(8, 2),
        options(Strategy.COT, 1), Map.of(), 5).withAgentsPerWorkflow(2);
    stub("group-window").run(in);
    int running = 0;
    int most = 0;
    for (var e : env.getWorkflowClient().fetchHistory("group-window").getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        most = Math.max(most, ++running);
      } else if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED) {
        running--;
      }
    }
    assertEquals(2, most, "at most 4 of the 5 allowed agents in groups of 2 at once");
  }

  // --- memory

  private AgentMemory memoryOf(String simulation, String agent) {
    return running(simulation).agent(agent).memory();
  }

  @Test
  void shortTermMemoryKeepsTheLastEntriesAndIsInTheNextPrompt() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    stub("mem-short").run(input(4, 6, EpsteinParameters.DEFAULTS.withAgents(3, 1),
        options(Strategy.COT, 1), options(Strategy.COT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.SHORT_TERM, 2)));
    AgentMemory cop = memoryOf("mem-short", "cop-0");
    assertEquals(MemoryKind.SHORT_TERM, cop.kind());
    assertEquals(List.of(3, 4), cop.entries().stream().map(MemoryEntry::step).toList());
    assertTrue(cop.entries().get(0).text().startsWith("you did: "), cop.toString());
    // the step-4 reasoning prompt of cop-0 shows steps 2 and 3, and no memory call was made
    String prompt = model.requests.stream().map(RecordingChatModel::text)
        .filter(t -> t.contains("\"id\":\"cop-0\"") && t.contains("Current observation (step 4)"))
        .findFirst().orElseThrow();
    assertTrue(prompt.contains("Your memory (short-term):\n- step 2: you did: "), prompt);
    assertTrue(prompt.contains("\n- step 3: "), prompt);
    assertFalse(prompt.contains("\n- step 1: "), prompt);
    assertTrue(model.startingWith(MemoryPrompts.CONSOLIDATION_HEADER).isEmpty());
    assertTrue(model.startingWith(MemoryPrompts.IMPORTANCE_HEADER).isEmpty());
  }

  @Test
  void longTermMemoryFoldsEveryEvictedEntryIntoTheSummaryAndLosesNone() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationResult r = stub("mem-long").run(input(6, 6, EpsteinParameters.DEFAULTS.withAgents(2, 1),
        options(Strategy.COT, 1), options(Strategy.COT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)));
    AgentMemory cop = memoryOf("mem-long", "cop-0");
    assertEquals(List.of(5, 6), cop.entries().stream().map(MemoryEntry::step).toList());
    assertEquals(4, cop.consolidatedEntries());
    assertTrue(cop.summary().startsWith(RulesChatModel.RULE_SUMMARY_PREFIX), cop.summary());
    // every entry of steps 1-4 reached a consolidation call exactly once, and is in the summary
    List<ChatRequest> calls = model.startingWith(MemoryPrompts.CONSOLIDATION_HEADER).stream()
        .filter(c -> RecordingChatModel.text(c).contains("cop-0") || true).toList();
    int copEntries = 0;
    for (int step = 1; step <= 4; step++) {
      String marker = "step " + step + ": you did: ";
      assertTrue(cop.summary().contains(marker), "step " + step + " in " + cop.summary());
    }
    for (ChatRequest c : calls) {
      copEntries += RecordingChatModel.text(c).split("\n- step ", -1).length - 1;
    }
    assertTrue(copEntries >= 4);
    // 3 agents x 4 steps over capacity: one consolidation per agent and step from step 3 on
    assertEquals(3 * 4, calls.size());
    assertEquals(2 * r.agentSteps() + calls.size(), r.llmCalls(), "memory calls count as LLM calls");
    for (ChatRequest c : model.requests) {
      if (RecordingChatModel.text(c).contains("\"id\":\"cop-0\"")
          && RecordingChatModel.text(c).contains("Current observation (step 6)")) {
        assertTrue(RecordingChatModel.text(c).contains("Long-term summary of 3 earlier entries: "));
      }
    }
  }

  @Test
  void aFailedConsolidationKeepsTheEntriesForTheNextOne() {
    // the first consolidation of every agent fails for good: its entries stay in the window
    java.util.concurrent.atomic.AtomicInteger consolidations = new java.util.concurrent.atomic.AtomicInteger();
    start(new RecordingChatModel(Builtins.rulesModel(), req ->
        RecordingChatModel.text(req).startsWith(MemoryPrompts.CONSOLIDATION_HEADER)
            && consolidations.incrementAndGet() == 1));
    stub("mem-fail").run(input(4, 6, EpsteinParameters.DEFAULTS.withAgents(0, 1),
        options(Strategy.COT, 1), options(Strategy.COT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)));
    AgentMemory cop = memoryOf("mem-fail", "cop-0");
    // step 3: the call for step 1 failed, 3 entries kept; step 4: one call folds steps 1 and 2
    assertEquals(List.of(3, 4), cop.entries().stream().map(MemoryEntry::step).toList());
    assertEquals(2, cop.consolidatedEntries());
    assertTrue(cop.summary().contains("step 1: ") && cop.summary().contains("step 2: "), cop.summary());
    List<ChatRequest> calls = model.startingWith(MemoryPrompts.CONSOLIDATION_HEADER);
    assertEquals(2, calls.size());
    String second = RecordingChatModel.text(calls.get(1));
    assertTrue(second.contains("- step 1: ") && second.contains("- step 2: "), second);
  }

  @Test
  void episodicMemoryGradesEntriesAndKeepsTheMostImportantAndRecent() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    SimulationResult r = stub("mem-epi").run(input(8, 7, EpsteinParameters.DEFAULTS.withAgents(6, 2),
        options(Strategy.COT, 1), options(Strategy.COT, 1))
        .withMemory(MemoryOptions.of(MemoryKind.EPISODIC, 3)));
    List<ChatRequest> grades = model.startingWith(MemoryPrompts.IMPORTANCE_HEADER);
    assertEquals(r.agentSteps(), grades.size(), "one grading call per agent step");
    for (String id : List.of("cop-0", "cop-1", "citizen-0")) {
      AgentMemory m = memoryOf("mem-epi", id);
      assertEquals(MemoryKind.EPISODIC, m.kind());
      assertTrue(m.entries().size() <= 3, m.toString());
      assertTrue(m.entries().stream().allMatch(e -> e.importance() != null), m.toString());
    }
    // an arrest (importance 5) outlives routine moves (importance 1) of later steps
    boolean arrestKept = false;
    boolean anyArrest = false;
    for (String id : List.of("cop-0", "cop-1")) {
      for (MemoryEntry e : memoryOf("mem-epi", id).entries()) {
        arrestKept |= e.importance() == 5 && e.step() < 8;
      }
    }
    for (ChatRequest g : grades) {
      anyArrest |= RecordingChatModel.text(g).contains("arrested");
    }
    if (anyArrest) {
      assertTrue(arrestKept, "an arrest is kept over later routine entries");
    }
  }

  @Test
  void everyStrategyShowsTheMemoryInItsPrompt() {
    start(new RecordingChatModel(Builtins.rulesModel()));
    for (Strategy s : Strategy.values()) {
      stub("mem-" + s.label()).run(input(3, 6, EpsteinParameters.DEFAULTS.withAgents(2, 1),
          options(s, 1), options(s, 1)).withMemory(MemoryOptions.of(MemoryKind.SHORT_TERM, 2)));
    }
    for (String header : List.of("Thought 1:", "ReAct", "plan")) {
      assertTrue(model.requests.stream().map(RecordingChatModel::text)
          .filter(t -> t.contains("Current observation (step 3)"))
          .anyMatch(t -> t.contains("Your memory (short-term):")), header);
    }
    long withMemory = model.requests.stream().map(RecordingChatModel::text)
        .filter(t -> t.contains("Current observation (step 3)") && t.contains("Your memory (short-term):\n- step 1:"))
        .count();
    // cot: 3 reasoning prompts; react: 3 turns; rewoo: 3 planner calls (TTL 1: a plan each step)
    assertTrue(withMemory >= 9, "prompts with memory at step 3: " + withMemory);
  }
}
