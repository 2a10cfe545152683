package io.durableagents.workflows.agent.react;

import io.durableagents.workflows.agent.cot.CotPrompts;
import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.Json;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.WorldAction;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.scenario.ScenarioPrompts;
import io.durableagents.workflows.task.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskResult.AgentTurn;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * <pre>{@code
 * AgentRuntime runtime = new AgentRuntime(input); // input.options().strategy() == Strategy.REACT
 * AgentStepResult result = new ReactReasoning(runtime, scenarios.prompts(input.scenario())).step();
 * }</pre>
 */
public final class ReactReasoning {
  /** The change id of asking the model once more after an empty or cut answer. */
  static final String ANSWER_CORRECTION_CHANGE = "react-answer-correction";

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
    Loop loop = new Loop(tools, List.of(
        ChatTurn.system(ReactPrompts.stepSystem(CotPrompts.roleHeader(prompts, in), in.observation(),
            in.plan(), tools, worldActions, in.options().actionFormat(), in.memory())),
        ChatTurn.user(prompts.stepPrompt(in.role()))));
    loop.run();
    String reasoning = loop.reasoning();
    return new AgentStepResult(in.agentId(), step, reasoning, loop.actions, loop.outcomes,
        new Plan(step, reasoning, 1), runtime.usage(), runtime.llmCalls(), runtime.toolCalls(),
        loop.forcedFinish, false, false, 0);
  }

  /** One task outside simulations: the loop until the agent answers or is forced to. */
  public AgentTaskResult task(String task) {
    AgentStepInput in = runtime.input();
    List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());
    Loop loop = new Loop(tools, List.of(
        ChatTurn.system(ReactPrompts.taskSystem(prompts.roleDescription(in.role()), tools,
            in.options().actionFormat())),
        ChatTurn.user(task)));
    loop.run();
    return new AgentTaskResult(loop.answer, Strategy.REACT.label(), loop.forcedFinish, loop.turns,
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
    Loop loop = new Loop(tools, messages);
    loop.control = control;
    loop.run();
    return new Conversation(loop.answer, loop.forcedFinish, loop.turns, List.copyOf(loop.messages));
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

  /** How a turn left the loop. */
  private enum TurnEnd {
    CONTINUE,
    FINISHED,
    REPEATED
  }

  /** One run of the loop: its conversation and everything it produced. */
  private final class Loop {
    private final AgentOptions options;
    private final boolean text;
    private final List<String> tools;
    private final List<String> offered;
    private final ToolChoice turnChoice;
    private final List<ChatTurn> messages;
    // Only for converse(): the workflow-side tools, and an answered conversation at the end.
    private ControlToolHandler control;

    private final List<AgentTurn> turns = new ArrayList<>();
    private final List<ToolOutcome> outcomes = new ArrayList<>();
    private final List<WorldAction> actions = new ArrayList<>();
    private final List<String> thoughts = new ArrayList<>();
    // Only asked whether it contains an id: its order never matters.
    private final Set<String> callIds = new HashSet<>();
    private String answer;
    private boolean answerCorrected;
    private String forcedFinish;
    private String repeatReason;
    private Long lastCallTokens;
    private String lastSignature;
    private int sameInARow;

    Loop(List<String> tools, List<ChatTurn> start) {
      this.options = runtime.input().options();
      this.text = options.actionFormat() == ActionFormat.TEXT;
      this.tools = tools;
      List<String> all = new ArrayList<>(tools);
      if (!all.contains(ReactPrompts.FINISH_TOOL)) {
        all.add(ReactPrompts.FINISH_TOOL);
      }
      this.offered = text ? List.of() : List.copyOf(all);
      this.turnChoice = text ? ToolChoice.NONE : turnChoice(options.toolChoice());
      this.messages = new ArrayList<>(start);
    }

    void run() {
      for (int iteration = 1; iteration <= options.maxIterations(); iteration++) {
        String overBudget = budgetProblem();
        if (overBudget != null) {
          forceFinish(overBudget);
          return;
        }
        LlmResponse response = chat(offered, turnChoice, ReactPrompts.TURN_PURPOSE);
        if (askedToCorrect(iteration, response)) {
          continue;
        }
        TurnEnd end = text ? textTurn(iteration, response) : functionCallingTurn(iteration, response);
        if (end == TurnEnd.FINISHED) {
          return;
        }
        if (end == TurnEnd.REPEATED) {
          forceFinish(repeatReason);
          return;
        }
      }
      forceFinish("max iterations (" + options.maxIterations() + ") reached");
    }

    /**
     * An empty answer, or one cut at the output limit with no tool call, is an observation the model
     * can correct once: it is shown what happened and asked again. The second time, the answer stands
     * (and the run's result says it is empty or cut).
     */
    private boolean askedToCorrect(int iteration, LlmResponse response) {
      boolean empty = response.answeredNothing();
      boolean cut = response.wasCut() && response.toolCalls().isEmpty();
      if (answerCorrected || !(empty || cut)
          || Workflow.getVersion(ANSWER_CORRECTION_CHANGE, Workflow.DEFAULT_VERSION, 1) < 1) {
        return false;
      }
      answerCorrected = true;
      String problem = empty ? ReactPrompts.EMPTY_ANSWER_PROBLEM : ReactPrompts.CUT_ANSWER_PROBLEM;
      String said = response.text() == null || response.text().isBlank() ? "(no answer)" : response.text();
      messages.add(ChatTurn.assistant(said, List.of()));
      messages.add(ChatTurn.user(problem));
      ToolOutcome observed = new ToolOutcome("answer-check-" + iteration, ReactPrompts.ANSWER_CHECK,
          problem, true);
      outcomes.add(observed);
      turns.add(new AgentTurn(iteration, null, List.of(observed)));
      return true;
    }

    private TurnEnd functionCallingTurn(int iteration, LlmResponse response) {
      String thought = response.text();
      List<ToolCall> calls = uniqueIds(response.toolCalls(), iteration);
      messages.add(ChatTurn.assistant(thought, calls));
      if (calls.isEmpty()) {
        return plainAnswer(iteration, thought);
      }
      Handled handled = handle(iteration, thought, calls);
      if (handled.finished && control == null) {
        return TurnEnd.FINISHED;
      }
      for (int i = 0; i < calls.size(); i++) {
        // Every call of a turn that goes on is answered: providers refuse a call left open.
        ToolOutcome o = handled.perCall.get(i);
        // A finish call (or world action) has no outcome: a continued conversation still answers it.
        messages.add(ChatTurn.toolResult(calls.get(i),
            o != null ? o.output() : control == null ? "" : "recorded"));
      }
      if (handled.finished) {
        return TurnEnd.FINISHED;
      }
      return handled.repeated ? TurnEnd.REPEATED : TurnEnd.CONTINUE;
    }

    private TurnEnd textTurn(int iteration, LlmResponse response) {
      TextActionParser.Parsed parsed = TextActionParser.parse(response.text());
      messages.add(ChatTurn.assistant(parsed.kept(), List.of()));
      if (parsed.error() != null) {
        String thought = blankToNull(parsed.thought());
        addThought(thought);
        ToolOutcome rejected = new ToolOutcome(textCallId(iteration, 1), ReactPrompts.UNPARSED_ACTION,
            compress(parsed.error()), true);
        boolean repeated = countRepeat(ReactPrompts.UNPARSED_ACTION, parsed.actionText());
        outcomes.add(rejected);
        turns.add(new AgentTurn(iteration, thought, List.of(rejected)));
        messages.add(ChatTurn.user(ReactPrompts.textObservation(
            List.of(rejected.tool()), List.of(rejected.output()))));
        if (repeated) {
          repeatReason = repeatedReason(ReactPrompts.UNPARSED_ACTION);
          return TurnEnd.REPEATED;
        }
        return TurnEnd.CONTINUE;
      }
      if (parsed.isPlainAnswer()) {
        return plainAnswer(iteration, parsed.thought());
      }
      List<ToolCall> calls = new ArrayList<>();
      for (TextActionParser.TextAction action : parsed.actions()) {
        calls.add(ToolCall.of(textCallId(iteration, calls.size() + 1), action.name(), action.arguments()));
      }
      Handled handled = handle(iteration, blankToNull(parsed.thought()), calls);
      if (handled.finished && control == null) {
        return TurnEnd.FINISHED;
      }
      List<String> names = new ArrayList<>();
      List<String> outputs = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        ToolOutcome o = handled.perCall.get(i);
        names.add(calls.get(i).name());
        outputs.add(o == null ? "" : o.output());
      }
      messages.add(ChatTurn.user(ReactPrompts.textObservation(names, outputs)));
      if (handled.finished) {
        return TurnEnd.FINISHED;
      }
      return handled.repeated ? TurnEnd.REPEATED : TurnEnd.CONTINUE;
    }

    private TurnEnd plainAnswer(int iteration, String thought) {
      addThought(thought);
      answer = thought == null ? "" : thought.strip();
      turns.add(new AgentTurn(iteration, blankToNull(thought), List.of()));
      return TurnEnd.FINISHED;
    }

    /** What became of the calls of one turn. */
    private final class Handled {
      /** The outcome of each call, by position; null for a finish call or a world action. */
      final List<ToolOutcome> perCall = new ArrayList<>();

      boolean finished;
      boolean repeated;
    }

    /**
     * Handles the calls of one turn: rejects what cannot run, collects world actions and the finish
     * answer, and runs the external tools in parallel. Records the turn.
     */
    private Handled handle(int iteration, String thought, List<ToolCall> calls) {
      addThought(thought);
      Handled handled = new Handled();
      List<Promise<ToolOutcome>> running = new ArrayList<>();
      String finishAnswer = null;
      boolean worldAction = false;
      for (ToolCall call : calls) {
        ToolOutcome immediate = null;
        Promise<ToolOutcome> started = null;
        boolean isFinish = ReactPrompts.FINISH_TOOL.equals(call.name());
        boolean isWorldAction = call.valid() && runtime.isWorldAction(call.name())
            && tools.contains(call.name());
        if (call.valid() && isFinish) {
          finishAnswer = finishAnswer(call.arguments());
        } else if (isWorldAction) {
          actions.add(new WorldAction(
              runtime.input().agentId(), call.id(), call.name(), call.arguments()));
          worldAction = true;
        } else if (countRepeat(call.name(), signature(call))) {
          handled.repeated = true;
          repeatReason = repeatedReason(call.name());
          immediate = rejected(call, ReactPrompts.repeatedCall(call.name(), options.repeatLimit()));
        } else if (!call.valid()) {
          immediate = rejected(call, call.error());
        } else if (control != null && control.handles(call.name())) {
          ToolOutcome handledHere = control.handle(call);
          immediate = new ToolOutcome(call.id(), call.name(), compress(handledHere.output()),
              handledHere.error());
        } else if (!tools.contains(call.name())) {
          // Only the text format gets here: the LLM activity already rejects unknown native calls.
          immediate = rejected(call, ReactPrompts.unknownTool(call.name(), tools));
        } else {
          started = runtime.runTool(call);
        }
        handled.perCall.add(immediate);
        running.add(started);
      }
      List<ToolOutcome> turnOutcomes = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        ToolOutcome o = handled.perCall.get(i);
        if (running.get(i) != null) {
          ToolOutcome result = running.get(i).get();
          o = new ToolOutcome(result.toolCallId(), result.tool(), compress(result.output()),
              result.error());
          handled.perCall.set(i, o);
        }
        if (o != null) {
          turnOutcomes.add(o);
        }
      }
      outcomes.addAll(turnOutcomes);
      turns.add(new AgentTurn(iteration, thought, turnOutcomes));
      if (finishAnswer != null || worldAction) {
        handled.finished = true;
        answer = finishAnswer != null ? finishAnswer : thought == null ? "" : thought.strip();
      } else if (control != null && control.turnEnd() != null) {
        handled.finished = true;
        answer = control.turnEnd();
      }
      return handled;
    }

    private ToolOutcome rejected(ToolCall call, String reason) {
      return new ToolOutcome(call.id(), call.name(), compress(reason), true);
    }

    /**
     * Counts calls of the same tool with the same arguments in a row, across turns; true when this
     * call reaches {@code repeatLimit}.
     */
    private boolean countRepeat(String tool, String arguments) {
      String signature = tool + " " + arguments;
      if (signature.equals(lastSignature)) {
        sameInARow++;
      } else {
        lastSignature = signature;
        sameInARow = 1;
      }
      return sameInARow >= options.repeatLimit();
    }

    private String repeatedReason(String tool) {
      return "repeated action (" + tool + " with the same arguments " + options.repeatLimit()
          + " times in a row)";
    }

    /** Ends the loop by force: asks for a final answer with tools off, if the budget allows. */
    private void forceFinish(String reason) {
      String overBudget = budgetProblem();
      if (overBudget != null) {
        forcedFinish = reason.equals(overBudget)
            ? reason : reason + "; the final answer was not asked for: " + overBudget;
        answer = lastThought();
        return;
      }
      forcedFinish = reason;
      messages.add(ChatTurn.user(ReactPrompts.forcedFinishRequest(reason)));
      LlmResponse response = chat(List.of(), ToolChoice.NONE, ReactPrompts.FINAL_PURPOSE);
      String said = response.text() == null ? "" : response.text().strip();
      if (text) {
        TextActionParser.Parsed parsed = TextActionParser.parse(said);
        if (!parsed.actions().isEmpty() && parsed.actions().get(0).isFinish()) {
          said = parsed.actions().get(0).answer();
        }
      }
      messages.add(ChatTurn.assistant(said, List.of()));
      answer = said;
    }

    /** Why the next call would break the token budget, or null when it fits (or there is none). */
    private String budgetProblem() {
      Long budget = options.tokenBudget();
      if (budget == null) {
        return null;
      }
      long used = runtime.usage().total();
      long estimate = lastCallTokens == null ? 0 : lastCallTokens;
      if (used + estimate <= budget) {
        return null;
      }
      return "token budget (" + budget + " tokens) reached: " + used
          + " used, and the next call would take about " + estimate;
    }

    private LlmResponse chat(List<String> toolsOffered, ToolChoice choice, String purpose) {
      LlmResponse response = runtime.chat(List.copyOf(messages), toolsOffered, choice, purpose);
      lastCallTokens = response.usage().total();
      return response;
    }

    /**
     * The calls with ids unique in this run. A provider that gives no ids gets {@code call-1},
     * {@code call-2}... from the activity in every answer; an id is part of the tool call's
     * idempotency key, so a repeated one is renamed (deterministically) in the conversation too.
     */
    private List<ToolCall> uniqueIds(List<ToolCall> calls, int iteration) {
      List<ToolCall> unique = new ArrayList<>();
      for (ToolCall c : calls) {
        String id = c.id();
        if (id == null || id.isBlank() || callIds.contains(id)) {
          String base = (id == null || id.isBlank() ? "call" : id) + "-t" + iteration;
          id = base;
          for (int n = 2; callIds.contains(id); n++) {
            id = base + "-" + n;
          }
        }
        callIds.add(id);
        unique.add(id.equals(c.id()) ? c
            : new ToolCall(id, c.name(), c.arguments(), c.rawArguments(), c.error()));
      }
      return unique;
    }

    private String textCallId(int iteration, int index) {
      return "react-" + iteration + "-" + index;
    }

    private String compress(String observation) {
      return ObservationCompressor.compress(observation, options.maxObservationChars());
    }

    private void addThought(String thought) {
      if (thought != null && !thought.isBlank()) {
        thoughts.add(thought.strip());
      }
    }

    private String lastThought() {
      return thoughts.isEmpty() ? "" : thoughts.get(thoughts.size() - 1);
    }

    /** The thoughts of every turn, then the final answer when it is not the last thought. */
    String reasoning() {
      List<String> parts = new ArrayList<>(thoughts);
      if (answer != null && !answer.isBlank()
          && (parts.isEmpty() || !parts.get(parts.size() - 1).equals(answer.strip()))) {
        parts.add(answer.strip());
      }
      return String.join("\n", parts);
    }
  }

  /** A turn's tool choice: the options', but never left to the provider (a turn must be free to answer). */
  static ToolChoice turnChoice(ToolChoice fromOptions) {
    return fromOptions == ToolChoice.REQUIRED || fromOptions == ToolChoice.NONE
        ? fromOptions : ToolChoice.AUTO;
  }

  /** The answer argument of a finish call; an absent one reads as an empty answer. */
  private static String finishAnswer(JsonNode arguments) {
    JsonNode a = arguments == null ? null : arguments.get(ReactPrompts.FINISH_ARGUMENT);
    return a == null || a.isNull() ? "" : a.isTextual() ? a.asText() : a.toString();
  }

  /** Arguments as sorted-key JSON, so that the same arguments in another key order count as the same. */
  private static String signature(ToolCall call) {
    if (call.arguments() == null) {
      return String.valueOf(call.rawArguments());
    }
    return Json.write(Json.MAPPER.convertValue(call.arguments(), Object.class));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
