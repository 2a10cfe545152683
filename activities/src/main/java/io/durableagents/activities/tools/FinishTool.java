package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.workflows.agent.react.ReactPrompts;

/**
 * ReAct's {@code finish} action, declared as a tool so that a model with native function calling can
 * end the loop by calling it, with its answer checked against the schema like any other call.
 *
 * <p>It is a {@link ToolKind#CONTROL} tool: the ReAct workflow handles a call to it itself and never
 * runs it as an activity; {@link ToolActivitiesImpl} refuses it. The method only declares the name and
 * the one argument.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder().addControlTools(new FinishTool()).build();
 * }</pre>
 */
public class FinishTool {
  @Tool(name = ReactPrompts.FINISH_TOOL,
      value = "Finish: give your final answer and end your turns. Call it when you need no more "
          + "tools; in a simulation, summarise what you decided.")
  public String finish(
      @P(name = ReactPrompts.FINISH_ARGUMENT, value = "your final answer") String answer) {
    return answer;
  }
}
