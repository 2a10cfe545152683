package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.workflows.autonomous.ControlTools;

/**
 * The autonomous agent's {@code think} tool, declared for its schema only: it is a {@link
 * ToolKind#CONTROL} tool, whose calls the {@code AutonomousAgent} workflow handles (the chain of
 * thoughts is workflow state); it never runs as an activity.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder().addControlTools(new ThinkTool()).build();
 * }</pre>
 */
public class ThinkTool {
  @Tool(name = ControlTools.THINK, value = "Record a thought in your scratchpad. Returns your whole "
      + "numbered chain of thoughts so far.")
  public String think(@P(name = "thought", value = "one step of your reasoning") String thought) {
    return thought;
  }
}
