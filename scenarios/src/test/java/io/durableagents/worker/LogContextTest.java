package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The worker's log lines say whose they are: the workflow id, the agent id and the activity type, in
 * the format of the starter's logback.xml (a library ships none).
 */
class LogContextTest {
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private final Logger llmLogger = context.getLogger(LlmActivitiesImpl.class);
  private final Logger simLogger = context.getLogger(SimulationWorkflowImpl.class);
  private final Level llmLevel = llmLogger.getLevel();
  private final Level simLevel = simLogger.getLevel();

  @AfterEach
  void restore() {
    llmLogger.detachAppender(captured);
    simLogger.detachAppender(captured);
    llmLogger.setLevel(llmLevel);
    simLogger.setLevel(simLevel);
  }

  @Test
  void activityAndWorkflowLinesCarryWorkflowIdAgentIdAndActivityType() {
    captured.start();
    llmLogger.setLevel(Level.DEBUG);
    simLogger.setLevel(Level.INFO);
    llmLogger.addAppender(captured);
    simLogger.addAppender(captured);
    TestEnvironmentOptions options = TestEnvironmentOptions.newBuilder()
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
            .setWorkerInterceptors(new AgentLogContext()).build())
        .build();
    try (TestWorkflowEnvironment env = TestWorkers.start(Builtins.plugin().build(), options)) {
      env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-logs").build())
          .run(new SimulationInput("epstein", 1, 3, EpsteinParameters.DEFAULTS.withAgents(2, 1), null, null, null));
      // the same agents in group steps: the agent id comes from the LLM request, not the workflow id
      env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("grouped-logs").build())
          .run(new SimulationInput("epstein", 1, 3, EpsteinParameters.DEFAULTS.withAgents(2, 1), null, null, null)
              .withAgentsPerWorkflow(3));
    }
    PatternLayout layout = new PatternLayout();
    layout.setContext(context);
    // the pattern of starter/src/main/resources/logback.xml (the starter's LogFormatTest checks it writes this)
    layout.setPattern("workflowId=%X{WorkflowId:--} agentId=%X{AgentId:--} activity=%X{ActivityType:--} - %msg");
    layout.start();
    List<String> lines = captured.list.stream().map(layout::doLayout).toList();

    List<String> grouped = lines.stream()
        .filter(l -> l.contains("llm call to rules") && l.startsWith("workflowId=grouped-logs")).toList();
    assertTrue(grouped.stream().anyMatch(l -> l.startsWith(
        "workflowId=grouped-logs/step-1/group-1 agentId=citizen-1 activity=LlmChat - ")), grouped.toString());
    assertTrue(grouped.stream().anyMatch(l -> l.startsWith(
        "workflowId=grouped-logs/step-1/group-2 agentId=cop-0 activity=LlmChat - ")), grouped.toString());
    assertTrue(grouped.stream().allMatch(l -> !l.contains("agentId=-")), "every LLM line names its agent: " + grouped);
    assertEquals(6, grouped.size(), grouped.toString());
    List<String> llm = lines.stream()
        .filter(l -> l.contains("llm call to rules") && l.startsWith("workflowId=sim-logs")).toList();
    assertFalse(llm.isEmpty(), lines.toString());
    assertTrue(llm.stream().anyMatch(l -> l.startsWith(
        "workflowId=sim-logs/agent-citizen-0/step-1 agentId=citizen-0 activity=LlmChat - ")), llm.toString());
    assertTrue(llm.stream().allMatch(l -> !l.contains("agentId=-")), "every LLM line names its agent: " + llm);
    String step = lines.stream().filter(l -> l.contains("step 1/1 done")).findFirst().orElseThrow();
    assertTrue(step.startsWith("workflowId=sim-logs agentId=- activity=- - "), step);
    assertEquals(6, llm.size(), "3 agents x 2 CoT calls: " + llm);
  }
}
