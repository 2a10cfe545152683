package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import io.durableagents.activities.llm.LatencyChatModel;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.api.Observation;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.epstein.EpsteinActions;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinRulePolicy;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.temporal.client.WorkflowOptions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Part 1 of the benchmark, the overhead of durability: one CoT agent step (2 LLM calls of 50 ms) as an
 * {@code AgentStep} workflow on the benchmark's server, against the same two calls made in-process through
 * LangChain4j's {@code ChatModel}, and a table of the two medians.
 */
final class OverheadBenchmark {
  private final BenchmarkCommand bench;

  OverheadBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** 1. The same agent step (2 LLM calls of 50 ms) durable vs in-process. */
  void run() throws Exception {
    long latency = 50;
    int runs = bench.quick ? 5 : 20;
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "overhead", ChildProcesses.javaBinary(), Map.of());
    try {
      AgentStepInput input = overheadInput("rules+" + latency + "ms");
      AgentStepWorkflow warm = bench.client.newWorkflowStub(AgentStepWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("bench-overhead-warm").build());
      warm.step(input);
      long[] durable = new long[runs];
      for (int i = 0; i < runs; i++) {
        AgentStepWorkflow step = bench.client.newWorkflowStub(AgentStepWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
                .setWorkflowId("bench-overhead-" + i + "-" + System.nanoTime()).build());
        long t0 = System.nanoTime();
        step.step(input);
        durable[i] = System.nanoTime() - t0;
      }
      ChatModel model = new LatencyChatModel(
          new RulesChatModel(Map.of(EpsteinScenario.NAME, new EpsteinRulePolicy())), Duration.ofMillis(latency));
      inProcessStep(model, input);
      long[] direct = new long[runs];
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        inProcessStep(model, input);
        direct[i] = System.nanoTime() - t0;
      }
      double d = median(durable) / 1e6;
      double p = median(direct) / 1e6;
      bench.section("1. Overhead of durability",
          "One CoT agent step: 2 LLM calls of L = " + latency + " ms (the `rules` model with added latency), "
          + "median of " + runs + " sequential runs. Durable: an `AgentStep` workflow on the embedded "
          + "Temporal, each call an activity (worker in its own JVM). In-process: the same 2 calls through "
          + "LangChain4j's `ChatModel`, no Temporal.");
      bench.tableHeader("| | wall time per step (ms) | per LLM call (ms) |", "| --- | ---: | ---: |");
      bench.line(String.format(Locale.ROOT, "| durable (Temporal) | %.1f | %.1f |", d, d / 2));
      bench.line(String.format(Locale.ROOT, "| in-process (LangChain4j) | %.1f | %.1f |", p, p / 2));
      bench.line(String.format(Locale.ROOT, "| **ratio durable / in-process** | **%.2f** | overhead **%.1f ms** per call |",
          d / p, (d - p) / 2));
      bench.line("");
    } finally {
      worker.stop();
    }
  }

  /** An Epstein citizen's CoT step, the same every time. */
  private static AgentStepInput overheadInput(String model) {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    return new AgentStepInput("bench-overhead", EpsteinScenario.NAME, "citizen-2", EpsteinScenario.CITIZEN,
        world.observe("citizen-2", 1), null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
        AgentOptions.newBuilder().setModel(model).build());
  }

  /** The two calls of that CoT step, made directly: the reasoning pass, then the execution pass. */
  private static void inProcessStep(ChatModel model, AgentStepInput in) {
    List<ToolSpecification> tools = ToolSpecifications.toolSpecificationsFrom(new EpsteinActions()).stream()
        .filter(t -> in.tools().contains(t.name())).toList();
    Observation o = in.observation();
    EpsteinScenario prompts = new EpsteinScenario();
    AiMessage plan = model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(CotPrompts.reasoningSystem(prompts.roleDescription(in.role()), o, null,
            in.tools())), UserMessage.from(prompts.stepPrompt(in.role())))
        .toolSpecifications(tools).toolChoice(ToolChoice.NONE).build()).aiMessage();
    model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(CotPrompts.executionSystem()),
            UserMessage.from(CotPrompts.executionUser(plan.text())))
        .toolSpecifications(tools).toolChoice(ToolChoice.AUTO).build());
  }
}
