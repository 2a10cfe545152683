package io.durableagents.workflows.agent.cot;

import io.durableagents.api.ScenarioPrompts;
import io.durableagents.api.WorldAction;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Chain of thought, after Mesa-LLM's {@code CoTReasoning}.
 *
 * <ol>
 *   <li>Reasoning pass: the model sees its role, its observation and the names of its tools, with
 *       tool choice {@code none}, and writes numbered thoughts ending in an {@code Action:} line.
 *   <li>Execution pass: the model turns that plan into tool calls, with the agent's tool choice.
 *       Calls it gets wrong (an unknown tool, arguments that don't fit the schema) are sent back to it
 *       as observations, up to {@code maxCorrections} times.
 * </ol>
 *
 * <p>World actions are returned for the simulation to apply; external tools run as activities, in
 * parallel. A step costs 2 LLM calls when every call is right, 1 when there is nothing to execute
 * (no tools selected, or tool choice {@code none}).
 */
public final class CotReasoning {
  private final AgentRuntime runtime;
  private final ScenarioPrompts prompts;

  public CotReasoning(AgentRuntime runtime, ScenarioPrompts prompts) {
    this.runtime = runtime;
    this.prompts = prompts;
  }

  /** One task outside simulations: reason, run the planned tools, then answer from their results. */
  public AgentTaskResult task(String task) {
    AgentStepInput in = runtime.input();
    List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());
    LlmResponse reasoning = runtime.chat(
        List.of(ChatTurn.system(CotPrompts.taskReasoningSystem(
                prompts.roleDescription(in.role()), tools)),
            ChatTurn.user(task)),
        tools, ToolChoice.NONE, CotPrompts.REASONING_PURPOSE);
    String planText = reasoning.text() == null ? "" : reasoning.text();
    List<ToolOutcome> outcomes = new ArrayList<>();
    List<ChatTurn> messages = new ArrayList<>();
    messages.add(ChatTurn.system(CotPrompts.executionSystem()));
    messages.add(ChatTurn.user(CotPrompts.executionUser(planText)));
    ToolChoice choice = in.options().toolChoice();
    boolean ranTools = false;
    if (!tools.isEmpty() && choice != ToolChoice.NONE && plansAnAction(planText)) {
      for (int attempt = 0; attempt <= in.options().maxCorrections(); attempt++) {
        LlmResponse execution = runtime.chat(messages, tools, choice, CotPrompts.EXECUTION_PURPOSE);
        if (execution.toolCalls().isEmpty()) {
          break;
        }
        List<String> errors = new ArrayList<>();
        List<Promise<ToolOutcome>> running = new ArrayList<>();
        for (ToolCall call : execution.toolCalls()) {
          if (call.valid()) {
            running.add(runtime.runTool(call));
          } else {
            errors.add(call.name() + "(" + call.argumentsText() + "): " + call.error());
          }
        }
        messages.add(ChatTurn.assistant(execution.text(), execution.toolCalls()));
        int next = 0;
        for (ToolCall call : execution.toolCalls()) {
          ToolOutcome outcome = call.valid() ? running.get(next++).get()
              : new ToolOutcome(call.id(), call.name(), call.error(), true);
          outcomes.add(outcome);
          messages.add(ChatTurn.toolResult(call, outcome.output()));
        }
        ranTools |= !running.isEmpty();
        if (errors.isEmpty()) {
          break;
        }
        messages.add(ChatTurn.user(CotPrompts.correction(errors)));
      }
    }
    String answer = planText;
    if (ranTools) {
      messages.add(ChatTurn.user(CotPrompts.answerRequest()));
      LlmResponse final_ = runtime.chat(messages, List.of(), ToolChoice.NONE, CotPrompts.ANSWER_PURPOSE);
      answer = final_.text() == null ? "" : final_.text();
    }
    return new AgentTaskResult(answer, Strategy.COT.label(), null,
        List.of(new AgentTaskResult.AgentTurn(1, planText, outcomes)), null, List.of(), 0,
        runtime.usage(), runtime.llmCalls(), runtime.toolCalls());
  }

  /** False when the plan's Action line says there is nothing to do ({@code none}, or no line). */
  private static boolean plansAnAction(String planText) {
    for (String line : planText.split("\n")) {
      if (line.startsWith(CotPrompts.ACTION_PREFIX)) {
        String action = line.substring(CotPrompts.ACTION_PREFIX.length()).trim();
        return !action.isEmpty() && !action.equalsIgnoreCase("none");
      }
    }
    return false;
  }

  /** One agent step: reason, then turn the plan into tool calls; waits on each call it makes. */
  public AgentStepResult step() {
    StepState s = new StepState();
    s.planned(runtime.chat(s.reasoningMessages(), s.tools, ToolChoice.NONE, CotPrompts.REASONING_PURPOSE));
    if (s.executes()) {
      for (int attempt = 0; attempt <= s.in.options().maxCorrections(); attempt++) {
        if (s.executed(runtime.chat(s.messages, s.tools, s.choice, CotPrompts.EXECUTION_PURPOSE))) {
          break;
        }
      }
    }
    return s.result();
  }

  /**
   * The same agent step as {@link #step()}, making the same calls in the same order, but chained on
   * their promises: it returns at once and holds no workflow thread while its calls run, so a group
   * step of thousands of agents needs no thread per agent.
   */
  public Promise<AgentStepResult> stepAsync() {
    StepState s = new StepState();
    return runtime.chatAsync(s.reasoningMessages(), s.tools, ToolChoice.NONE, CotPrompts.REASONING_PURPOSE)
        .thenCompose(reasoning -> {
          s.planned(reasoning);
          return s.executes() ? execution(s, 0) : Workflow.newPromise((Void) null);
        })
        .thenCompose(ignored -> s.running.isEmpty()
            ? Workflow.newPromise((Void) null)
            : Promise.allOf(s.running))
        .thenApply(ignored -> s.result());
  }

  /** Execution attempt {@code attempt} and, while the model's calls need correcting, the next ones. */
  private Promise<Void> execution(StepState s, int attempt) {
    return runtime.chatAsync(s.messages, s.tools, s.choice, CotPrompts.EXECUTION_PURPOSE)
        .thenCompose(execution -> s.executed(execution) || attempt >= s.in.options().maxCorrections()
            ? Workflow.newPromise((Void) null)
            : execution(s, attempt + 1));
  }

  /** What one agent step has planned, called and collected so far. */
  private final class StepState {
    final AgentStepInput in = runtime.input();
    final List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());
    final ToolChoice choice = in.options().toolChoice();
    final int step = in.observation().step();
    final List<WorldAction> actions = new ArrayList<>();
    final List<ToolOutcome> outcomes = new ArrayList<>();
    final List<Promise<ToolOutcome>> running = new ArrayList<>();
    final List<ChatTurn> messages = new ArrayList<>();
    String planText;

    List<ChatTurn> reasoningMessages() {
      return List.of(
          ChatTurn.system(
              CotPrompts.reasoningSystem(
                  CotPrompts.roleHeader(prompts, in), in.observation(), in.plan(), tools,
                  in.memory())),
          ChatTurn.user(prompts.stepPrompt(in.role())));
    }

    void planned(LlmResponse reasoning) {
      planText = reasoning.text() == null ? "" : reasoning.text();
      messages.add(ChatTurn.system(CotPrompts.executionSystem()));
      messages.add(ChatTurn.user(CotPrompts.executionUser(planText)));
    }

    /** Whether the plan is turned into tool calls at all. */
    boolean executes() {
      return !tools.isEmpty() && choice != ToolChoice.NONE;
    }

    /**
     * Takes an execution answer: world actions kept, tools started, wrong calls sent back to the model.
     * True when every call was right (no correction needed).
     */
    boolean executed(LlmResponse execution) {
      List<String> errors = new ArrayList<>();
      for (ToolCall call : execution.toolCalls()) {
        if (!call.valid()) {
          errors.add(call.name() + "(" + call.argumentsText() + "): " + call.error());
          outcomes.add(new ToolOutcome(call.id(), call.name(), call.error(), true));
        } else if (runtime.isWorldAction(call.name())) {
          actions.add(new WorldAction(in.agentId(), call.id(), call.name(), call.arguments()));
        } else {
          running.add(runtime.runTool(call));
        }
      }
      if (errors.isEmpty()) {
        return true;
      }
      messages.add(ChatTurn.assistant(execution.text(), execution.toolCalls()));
      for (ToolCall call : execution.toolCalls()) {
        messages.add(
            ChatTurn.toolResult(call, call.valid() ? "accepted" : "rejected: " + call.error()));
      }
      messages.add(ChatTurn.user(CotPrompts.correction(errors)));
      return false;
    }

    /** The step's result, once its tools are done (waits for them). */
    AgentStepResult result() {
      for (Promise<ToolOutcome> p : running) {
        outcomes.add(p.get());
      }
      return new AgentStepResult(
          in.agentId(),
          step,
          planText,
          actions,
          outcomes,
          new Plan(step, planText, 1),
          runtime.usage(),
          runtime.llmCalls(),
          runtime.toolCalls());
    }
  }
}
