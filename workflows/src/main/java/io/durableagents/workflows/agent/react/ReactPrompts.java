package io.durableagents.workflows.agent.react;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.List;

/**
 * The prompts, purpose labels and reserved names of the ReAct strategy.
 *
 * <p>A simulation step's system prompt carries the observation in exactly CoT's line format ({@link
 * CotPrompts#STEP_PREFIX}, {@link CotPrompts#SELF_STATE_PREFIX}, {@link CotPrompts#LOCAL_STATE_PREFIX},
 * one line each), because the offline {@code rules} model reads those lines. In function-calling mode
 * no line of it starts with {@code "Action: "}: the rules model would take such a line for a CoT plan
 * and turn it into tool calls. The text format's instructions do name an {@code Action:} line; there no
 * tools are offered, so the rules model only reasons.
 */
public final class ReactPrompts {
  /** The pseudo-tool under which an empty or cut answer is shown to the model. */
  public static final String ANSWER_CHECK = "answer_check";
  /** What the model is told after an empty answer. */
  public static final String EMPTY_ANSWER_PROBLEM =
      "Your answer was empty. Answer the task, or call a tool.";
  /** What the model is told after an answer cut at the output limit. */
  public static final String CUT_ANSWER_PROBLEM =
      "Your answer was cut off at the output limit. Give a shorter, complete answer.";

  /** The purpose label of one Thought/Action turn (the strategy name first, for metrics). */
  public static final String TURN_PURPOSE = "react-turn";

  /** The purpose label of the forced-finish call, made with tools off at the end of a forced run. */
  public static final String FINAL_PURPOSE = "react-final";

  /**
   * The control tool that ends the loop with an answer. Its schema is declared in the activities
   * module ({@code FinishTool}); the workflow handles a call to it itself, never as an activity.
   */
  public static final String FINISH_TOOL = "finish";

  /** The one argument of {@link #FINISH_TOOL}: the final answer, as text. */
  public static final String FINISH_ARGUMENT = "answer";

  /** The line prefixes of the text action format. */
  public static final String THOUGHT_PREFIX = "Thought: ";

  public static final String ACTION_PREFIX = "Action: ";
  public static final String OBSERVATION_PREFIX = "Observation: ";

  /** The tool name a rejected text action is reported under when it could not be parsed at all. */
  public static final String UNPARSED_ACTION = "(unparsed action)";

  private ReactPrompts() {}

  /** The system prompt of a simulation step, for an agent without memory. */
  public static String stepSystem(String roleDescription, Observation observation, Plan previousPlan,
      List<String> tools, List<String> worldActions, ActionFormat format) {
    return stepSystem(roleDescription, observation, previousPlan, tools, worldActions, format, null);
  }

  /** The system prompt of a simulation step: the observation, the last reasoning and the memory. */
  public static String stepSystem(String roleDescription, Observation observation, Plan previousPlan,
      List<String> tools, List<String> worldActions, ActionFormat format, AgentMemory memory) {
    StringBuilder sb = new StringBuilder();
    sb.append(roleDescription).append("\n\n");
    sb.append(format == ActionFormat.TEXT ? textLoop(tools) : functionCallingLoop(tools));
    if (!worldActions.isEmpty()) {
      sb.append("World actions (").append(String.join(", ", worldActions)).append(") change the ")
          .append("world: they are applied after your turn, and your turn for this step ends with ")
          .append("them. Other tools answer at once, and you see their results before you go on.\n");
    }
    sb.append('\n');
    sb.append(CotPrompts.STEP_PREFIX).append(observation.step()).append("):\n");
    sb.append(CotPrompts.SELF_STATE_PREFIX).append(Json.write(observation.selfState())).append('\n');
    sb.append(CotPrompts.LOCAL_STATE_PREFIX).append(Json.write(observation.localState())).append('\n');
    if (previousPlan != null && previousPlan.llmPlan() != null && !previousPlan.llmPlan().isBlank()) {
      sb.append("\nYour reasoning at step ").append(previousPlan.step()).append(":\n")
          .append(quoted(previousPlan.llmPlan()));
    }
    sb.append(MemoryPrompts.section(memory));
    return sb.toString();
  }

  /** The system prompt of a single task outside simulations. */
  public static String taskSystem(String roleDescription, List<String> tools, ActionFormat format) {
    return roleDescription + "\n\n"
        + (format == ActionFormat.TEXT ? textLoop(tools) : functionCallingLoop(tools));
  }

  private static String functionCallingLoop(List<String> tools) {
    return "You work in turns of Thought, Action and Observation. In each turn, first write your "
        + "thought in a sentence or two: what you know and what you need. Then act by calling one or "
        + "more tools; their results come back to you as observations. When you are done, call "
        + FINISH_TOOL + " with your answer, or answer in plain text without calling a tool. If a tool "
        + "call is rejected or fails, read why and correct it; do not repeat a call that gave you "
        + "its answer already.\n"
        + "Tools: " + toolList(tools) + ", " + FINISH_TOOL + ".\n";
  }

  private static String textLoop(List<String> tools) {
    return "You work in turns of Thought, Action and Observation. Answer each turn in exactly this "
        + "format, and stop after the Action line: the Observation is written for you.\n"
        + THOUGHT_PREFIX + "[what you know and what you need]\n"
        + ACTION_PREFIX + "tool_name[{\"argument\": \"value\"}]\n"
        + "The arguments are a JSON object. To end, write " + ACTION_PREFIX + FINISH_TOOL
        + "[your answer]. If an action is rejected, read why and correct it.\n"
        + "Tools: " + toolList(tools) + ", " + FINISH_TOOL + ".\n";
  }

  private static String toolList(List<String> tools) {
    return tools.isEmpty() ? "none" : String.join(", ", tools);
  }

  /**
   * Earlier model text, each line behind {@code "> "}: no line of it can then pass for an {@code
   * Action:} line or an observation line of this prompt.
   */
  static String quoted(String text) {
    StringBuilder sb = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      sb.append("> ").append(line).append('\n');
    }
    return sb.toString();
  }

  /** Asks for the final answer, with tools off, when the loop was ended by force. */
  public static String forcedFinishRequest(String reason) {
    return "Stop here: " + reason + ". Do not call any tool. Give your final answer now, from what "
        + "you have found so far.";
  }

  /** What a repeated call gets instead of running again. */
  public static String repeatedCall(String tool, int times) {
    return "not run: you called " + tool + " with the same arguments " + times + " times in a row. "
        + "Its result will not change.";
  }

  /** The observation of a text-mode action that names a tool the agent does not have. */
  public static String unknownTool(String tool, List<String> tools) {
    return "unknown tool '" + tool + "'; available tools: " + toolList(tools) + ", " + FINISH_TOOL;
  }

  /** The observation turn of the text format: one result, or several numbered ones. */
  public static String textObservation(List<String> tools, List<String> outputs) {
    if (outputs.size() == 1) {
      return OBSERVATION_PREFIX + outputs.get(0);
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < outputs.size(); i++) {
      sb.append(i == 0 ? "" : "\n").append("Observation ").append(i + 1).append(" (")
          .append(tools.get(i)).append("): ").append(outputs.get(i));
    }
    return sb.toString();
  }
}
