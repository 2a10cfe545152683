package io.durableagents.workflows.agent.cot;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioPrompts;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.List;

/** The prompts of the chain-of-thought strategy, after Mesa-LLM's CoT format. */
public final class CotPrompts {
  /** The purpose labels of CoT's two LLM calls. */
  public static final String REASONING_PURPOSE = "cot-reasoning";

  public static final String EXECUTION_PURPOSE = "cot-execution";

  /** Line prefixes of the reasoning prompt and answer, which the offline rules model reads. */
  public static final String STEP_PREFIX = "Current observation (step ";

  public static final String SELF_STATE_PREFIX = "self_state: ";
  public static final String LOCAL_STATE_PREFIX = "local_state: ";
  public static final String ACTION_PREFIX = "Action: ";

  /** The line that names an agent's scenario and role: {@code Scenario: epstein, role: citizen}. */
  public static final String SCENARIO_PREFIX = "Scenario: ";

  public static final String ROLE_SEPARATOR = ", role: ";

  private CotPrompts() {}

  /**
   * The head of a simulation agent's system prompt, in every strategy: its scenario's role
   * description, then the line that names the scenario and the role (which the offline rules model
   * reads to pick the scenario's rule policy).
   */
  public static String roleHeader(ScenarioPrompts prompts, AgentStepInput in) {
    String description = prompts.roleDescription(in.role());
    if (in.scenario() == null) {
      return description;
    }
    return description + "\n" + SCENARIO_PREFIX + in.scenario() + ROLE_SEPARATOR + in.role();
  }

  /** The reasoning pass's system prompt, for an agent without memory. */
  public static String reasoningSystem(
      String roleDescription, Observation observation, Plan previousPlan, List<String> tools) {
    return reasoningSystem(roleDescription, observation, previousPlan, tools, null);
  }

  /** The reasoning pass's system prompt: the observation, the previous plan and the memory. */
  public static String reasoningSystem(String roleDescription, Observation observation,
      Plan previousPlan, List<String> tools, AgentMemory memory) {
    StringBuilder sb = new StringBuilder();
    sb.append(roleDescription).append("\n\n");
    sb.append("You think step by step before you act. Answer in exactly this format:\n")
        .append("Thought 1: [Initial reasoning based on the observation]\n")
        .append("Thought 2: [How what you remember informs the situation]\n")
        .append("Thought 3: [Possible alternatives or risks]\n")
        .append("Thought 4: [Final decision and justification]\n")
        .append("Action: [The action(s) you decide to take, as tool_name({json arguments}); ")
        .append("separate several with ';']\n\n");
    sb.append("Tools you can use in the Action line: ")
        .append(tools.isEmpty() ? "none" : String.join(", ", tools))
        .append(". Do not call them now: only write the plan.\n\n");
    sb.append(STEP_PREFIX).append(observation.step()).append("):\n");
    sb.append(SELF_STATE_PREFIX).append(Json.write(observation.selfState())).append('\n');
    sb.append(LOCAL_STATE_PREFIX).append(Json.write(observation.localState())).append('\n');
    if (previousPlan != null && previousPlan.llmPlan() != null) {
      sb.append("\nYour plan from step ").append(previousPlan.step()).append(":\n")
          .append(previousPlan.llmPlan()).append('\n');
    }
    sb.append(MemoryPrompts.section(memory));
    return sb.toString();
  }

  /** The execution pass's system prompt: turn the plan into tool calls. */
  public static String executionSystem() {
    return "You turn a plan into tool calls. Call the tools that carry out the plan's Action line, "
        + "with arguments that fit each tool's schema. Do not explain.";
  }

  /** The message that carries the plan into the execution pass. */
  public static String executionUser(String planText) {
    return "Plan:\n" + planText;
  }

  /** Tells the model which of its calls were rejected, so it can correct them. */
  public static String correction(List<String> errors) {
    return "Some tool calls were rejected:\n- " + String.join("\n- ", errors)
        + "\nCall the tools again with corrected names and arguments. Calls that were accepted "
        + "need not be repeated.";
  }

  /** The purpose label of the answer call of a single task, made after tools ran. */
  public static final String ANSWER_PURPOSE = "cot-answer";

  /** The reasoning pass's system prompt for a single task outside simulations. */
  public static String taskReasoningSystem(String roleDescription, List<String> tools) {
    StringBuilder sb = new StringBuilder();
    sb.append(roleDescription).append("\n\n");
    sb.append("You think step by step before you act. Answer in exactly this format:\n")
        .append("Thought 1: [What the task asks]\n")
        .append("Thought 2: [What you know and what you need to find out]\n")
        .append("Thought 3: [Possible alternatives or risks]\n")
        .append("Thought 4: [Final decision and justification]\n")
        .append("Action: [the tool call(s) to make, as tool_name({json arguments}) separated by ';', ")
        .append("or none when you can answer directly]\n")
        .append("Answer: [your answer, when no tool is needed]\n\n");
    sb.append("Tools you can use in the Action line: ")
        .append(tools.isEmpty() ? "none" : String.join(", ", tools))
        .append(". Do not call them now: only write the plan.");
    return sb.toString();
  }

  /** Asks for the final answer once the planned tools have run. */
  public static String answerRequest() {
    return "The tools have run; their results are above. Give the final answer to the task, "
        + "concisely. Do not call tools.";
  }
}
