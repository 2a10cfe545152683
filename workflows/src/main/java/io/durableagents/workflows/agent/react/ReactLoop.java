package io.durableagents.workflows.agent.react;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.WorldAction;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.agent.AgentTaskResult.AgentTurn;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of the ReAct loop ({@link ReactReasoning}): its conversation and everything it produced.
 * Each turn is one LLM call whose calls are handled (rejected, collected as world actions or the
 * finish answer, handed to the workflow-side tools, or run as tool activities in parallel) and whose
 * observations go back into the conversation, in the function-calling or the text format; the loop
 * ends on its own or by force (iterations, a repeated call, the token budget), with one last call for
 * the answer when the budget allows. Workflow code.
 */
final class ReactLoop {
  /** The change id of asking the model once more after an empty or cut answer. */
  static final String ANSWER_CORRECTION_CHANGE = "react-answer-correction";

  /** How a turn left the loop. */
  private enum TurnEnd {
    CONTINUE,
    FINISHED,
    REPEATED
  }

  private final AgentRuntime runtime;
  private final AgentOptions options;
  private final boolean text;
  private final List<String> tools;
  private final List<String> offered;
  private final ToolChoice turnChoice;
  private final List<ChatTurn> messages;
  // Only for converse(): the workflow-side tools, and an answered conversation at the end.
  private final ReactReasoning.ControlToolHandler control;

  private final List<AgentTurn> turns = new ArrayList<>();
  private final List<ToolOutcome> outcomes = new ArrayList<>();
  private final List<WorldAction> actions = new ArrayList<>();
  private final List<String> thoughts = new ArrayList<>();
  private final UniqueCallIds callIds = new UniqueCallIds();
  private final RepeatedCalls repeats;
  private String answer;
  private boolean answerCorrected;
  private String forcedFinish;
  private String repeatReason;
  private Long lastCallTokens;

  /**
   * A loop that calls models and tools through {@code runtime}, offers {@code tools} (and {@code
   * finish}), starts from the conversation {@code start}, and hands the calls {@code control} handles
   * to it (null: none).
   */
  ReactLoop(AgentRuntime runtime, List<String> tools, List<ChatTurn> start,
      ReactReasoning.ControlToolHandler control) {
    this.runtime = runtime;
    this.control = control;
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
    this.repeats = new RepeatedCalls(options.repeatLimit());
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
    List<ToolCall> calls = callIds.of(response.toolCalls(), iteration);
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
      boolean repeated = repeats.count(ReactPrompts.UNPARSED_ACTION, parsed.actionText());
      outcomes.add(rejected);
      turns.add(new AgentTurn(iteration, thought, List.of(rejected)));
      messages.add(ChatTurn.user(ReactPrompts.textObservation(
          List.of(rejected.tool()), List.of(rejected.output()))));
      if (repeated) {
        repeatReason = repeats.reason(ReactPrompts.UNPARSED_ACTION);
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
  private static final class Handled {
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
      } else if (repeats.count(call.name(), RepeatedCalls.signature(call))) {
        handled.repeated = true;
        repeatReason = repeats.reason(call.name());
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

  /** The answer that ended the loop (a forced finish's included). */
  String answer() {
    return answer;
  }

  /** Why the loop was ended by force, or null. */
  String forcedFinish() {
    return forcedFinish;
  }

  /** Its turns, each with its thought and the outcomes of its calls. */
  List<AgentTurn> turns() {
    return turns;
  }

  /** The outcomes of the external tools and the rejected calls, in order. */
  List<ToolOutcome> outcomes() {
    return outcomes;
  }

  /** The world actions chosen, for the simulation to apply. */
  List<WorldAction> actions() {
    return actions;
  }

  /** The whole conversation. */
  List<ChatTurn> messages() {
    return messages;
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

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
