package io.durableagents.workflows.agent.react;

import io.durableagents.api.ScenarioPrompts;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.agent.AgentTaskResult.AgentTurn;
import io.durableagents.workflows.agent.AgentTaskResult;
import java.util.ArrayList;
import java.util.List;

/**
 * ReAct: Thought, Action, Observation as a bounded, deterministic loop in workflow code.
 *
 * <p>Each turn is one LLM call ({@link ReactPrompts#TURN_PURPOSE}): the model writes a thought and
 * acts. Every external tool call of a turn is an activity, and the calls of one turn run in parallel;
 * their results are the observations of the next turn. Nothing else happens between turns, so a
 * worker that dies mid-run costs at most the call that was in flight.
 *
 * <p>The loop ends
 *
 * <ul>
 *   <li>on its own, when a turn calls {@link ReactPrompts#FINISH_TOOL finish} (its {@code answer} is
 *       the answer), when a turn answers without any action, or, in a simulation step, when a turn
 *       chooses world actions. The rule: every valid call of the ending turn is still handled (its
 *       external tools run, its world actions are returned for the simulation to apply), then the
 *       loop stops. A world action is never run here and has no observation inside the step: the
 *       simulation applies it after the step and reports the outcome in the agent's next observation,
 *       together with the outcomes of the turn's external tools and rejected calls (a rejected call
 *       next to a world action is corrected at the next step, not in this one, so that a step never
 *       chooses world actions twice);
 *   <li>by force, after {@code maxIterations} turns, when the same tool is called with the same
 *       arguments {@code repeatLimit} times in a row (that call is not run again), or when the next
 *       call would exceed {@code tokenBudget}. The model is then asked once more, with no tools and
 *       tool choice {@code NONE} ({@link ReactPrompts#FINAL_PURPOSE}), for its final answer, and the
 *       result says why it was forced ({@code forcedFinish}).
 * </ul>
 *
 * <p>Bad actions are observations the model can correct, never failures: an unknown tool or
 * arguments that break the tool's schema (the LLM activity marks such calls), a tool that still fails
 * after Temporal's retries ({@link AgentRuntime#runTool}), or, in the text format, a line that cannot
 * be parsed. An observation longer than {@code maxObservationChars} is cut to its head and tail by
 * {@link ObservationCompressor} before it enters the conversation, the turns and the tool outcomes.
 *
 * <p><b>Action formats.</b> With {@link ActionFormat#FUNCTION_CALLING} (default) the agent's tools and
 * {@code finish} are offered natively. The tool choice comes from the options, except that {@code
 * PROVIDER_DEFAULT} becomes {@code AUTO}, since a turn must be free to answer; {@code REQUIRED} still
 * lets the model end, by calling {@code finish}, and {@code NONE} makes a single answering turn. Call
 * ids are made unique within a run (a provider that gives none gets {@code call-1} in every answer),
 * because they are part of each tool call's idempotency key. With {@link ActionFormat#TEXT} no tools
 * are offered to the provider: the prompt lists the tool names, the {@link TextActionParser} reads the
 * {@code Action:} line, an unknown tool name is an observation, argument errors of external tools come
 * back from the tool activity as error outcomes, and observations go back as {@code Observation:} user
 * turns. In a simulation, a text-mode world action is passed through as it was parsed: the workflow
 * checks that it is one of the agent's tools and that its arguments are a JSON object; the schema
 * check is the scenario world's, which changes nothing for bad arguments and says why in the agent's
 * next observation (see {@code ScenarioWorld.apply}).
 *
 * <p><b>Token budget.</b> Before every call, including the forced-finish call, the usage so far plus
 * the last call's total (the estimate of the next; the first call has none) must fit in {@code
 * tokenBudget}. When a turn would not fit, the run is forced to finish; when the forced-finish call
 * would not fit either, it is skipped and the answer is the model's last thought: the budget is a hard
 * limit, never exceeded by a call the estimate said would not fit.
 *
 * <p><b>Results.</b> A task's result has one {@link AgentTurn} per turn (its thought and the outcomes
 * of its calls); the forced-finish answer is the result's {@code answer}, not a turn. A step's {@code
 * reasoning} (and its {@link Plan}, valid for this step) is the thoughts of every turn followed by the
 * final answer; its tool outcomes are those of the external tools and the rejected calls.
 *
 * <p><b>Cost.</b> A run costs one LLM call per turn, plus one when it is forced to finish: at least 1
 * (an answer or a world action at once) and at most {@code maxIterations + 1}.
 *
 * <p>This class starts the loop for a simulation step, a task or a continued conversation; the loop
 * itself is {@link ReactLoop}, with {@link UniqueCallIds} and {@link RepeatedCalls}.
 *
 * <pre>{@code
 * AgentRuntime runtime = new AgentRuntime(input); // input.options().strategy() == Strategy.REACT
 * AgentStepResult result = new ReactReasoning(runtime, scenarios.prompts(input.scenario())).step();
 * }</pre>
 */
public final class ReactReasoning {
  private final AgentRuntime runtime;
  private final ScenarioPrompts prompts;

  /** A ReAct agent that calls models and tools through {@code runtime}, with the scenario's prompts. */
  public ReactReasoning(AgentRuntime runtime, ScenarioPrompts prompts) {
    this.runtime = runtime;
    this.prompts = prompts;
  }

  /**
   * One agent step in a simulation: the loop over the agent's observation, ending with the world
   * actions it chose (returned, not applied), a finish or a plain answer.
   */
  public AgentStepResult step() {
    AgentStepInput in = runtime.input();
    List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());
    List<String> worldActions = new ArrayList<>();
    for (String tool : tools) {
      if (runtime.isWorldAction(tool)) {
        worldActions.add(tool);
      }
    }
    int step = in.observation().step();
    ReactLoop loop = new ReactLoop(runtime, tools, List.of(
        ChatTurn.system(ReactPrompts.stepSystem(CotPrompts.roleHeader(prompts, in), in.observation(),
            in.plan(), tools, worldActions, in.options().actionFormat(), in.memory())),
        ChatTurn.user(prompts.stepPrompt(in.role()))), null);
    loop.run();
    String reasoning = loop.reasoning();
    return new AgentStepResult(in.agentId(), step, reasoning, loop.actions(), loop.outcomes(),
        new Plan(step, reasoning, 1), runtime.usage(), runtime.llmCalls(), runtime.toolCalls(),
        loop.forcedFinish(), false, false, 0);
  }

  /** One task outside simulations: the loop until the agent answers or is forced to. */
  public AgentTaskResult task(String task) {
    AgentStepInput in = runtime.input();
    List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());
    ReactLoop loop = new ReactLoop(runtime, tools, List.of(
        ChatTurn.system(ReactPrompts.taskSystem(prompts.roleDescription(in.role()), tools,
            in.options().actionFormat())),
        ChatTurn.user(task)), null);
    loop.run();
    return new AgentTaskResult(loop.answer(), Strategy.REACT.label(), loop.forcedFinish(), loop.turns(),
        null, List.of(), 0, runtime.usage(), runtime.llmCalls(), runtime.toolCalls());
  }

  /**
   * One ReAct loop that continues a conversation, for agents that work over several turns (the
   * autonomous strategies): it starts from {@code messages} (system prompt, earlier turns, the new
   * user prompt), offers {@code tools} plus {@code finish}, and hands every valid call of a tool that
   * {@code control} handles to it instead of running an activity. The loop also ends when {@code
   * control} says the turn is over ({@link ControlToolHandler#turnEnd()}). Every call of the last turn
   * is answered in the returned conversation, so the caller can append its next prompt to it.
   */
  public Conversation converse(List<ChatTurn> messages, List<String> tools,
      ControlToolHandler control) {
    ReactLoop loop = new ReactLoop(runtime, tools, messages, control);
    loop.run();
    return new Conversation(loop.answer(), loop.forcedFinish(), loop.turns(), List.copyOf(loop.messages()));
  }

  /**
   * Workflow-side tools that a {@link #converse} loop hands over instead of running them as
   * activities ({@code think}, {@code todo}, {@code spawn} in the autonomous agent). Workflow code
   * only: a handler may block on timers, child workflows and other promises.
   */
  public interface ControlToolHandler {
    /** True when this handler takes calls of {@code tool}. */
    boolean handles(String tool);

    /** Handles one valid call and returns its observation (an error outcome when it was refused). */
    ToolOutcome handle(ToolCall call);

    /** The answer that ends the current turn (e.g. {@code finish_task}), or null to go on. */
    String turnEnd();
  }

  /**
   * What one {@link #converse} loop produced.
   *
   * @param answer the answer that ended the loop
   * @param forcedFinish why it was ended by force, or null
   * @param turns its turns
   * @param messages the whole conversation, every tool call answered
   */
  public record Conversation(String answer, String forcedFinish, List<AgentTurn> turns,
      List<ChatTurn> messages) {}
}
