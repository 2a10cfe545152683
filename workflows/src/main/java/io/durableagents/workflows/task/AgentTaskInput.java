package io.durableagents.workflows.task;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.agent.AgentOptions;
import java.util.List;

/**
 * One task for one agent, outside any simulation: the user's question, the external tools the agent
 * may use, and its strategy and options. The task is the user's own text; every other prompt is built
 * inside the workflow, and no secret is ever part of the input.
 *
 * @param task what the agent is asked to do
 * @param tools the external tools it has ({@code calculator}, {@code read_file}, ...); null: the
 *     built-in ones ({@link #DEFAULT_TOOLS})
 * @param options strategy, model and bounds
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentTaskInput(String task, List<String> tools, AgentOptions options) {
  /** The built-in external tools. */
  public static final List<String> DEFAULT_TOOLS = List.of("calculator", "read_file");

  public AgentTaskInput {
    tools = tools == null ? DEFAULT_TOOLS : List.copyOf(tools);
    options = options == null ? AgentOptions.defaults() : options;
  }
}
