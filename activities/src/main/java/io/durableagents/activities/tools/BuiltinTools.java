package io.durableagents.activities.tools;

import io.durableagents.activities.scenario.BuiltinScenarioRegistrations;
import io.durableagents.activities.scenario.ScenarioRegistration;
import java.nio.file.Path;

/**
 * The tools a worker has without registrations of its own: the built-in scenarios' world actions,
 * the external tools (calculator, file reader), ReAct's {@code finish} control tool, and the
 * autonomous agent's think, todo and spawn control tools. The plugin builds the same set, plus the
 * scenarios and tools registered on it.
 */
public final class BuiltinTools {
  private BuiltinTools() {}

  /**
   * A registry with the world actions of the built-in scenarios, the calculator, the file reader and
   * the control tools.
   *
   * @param filesDirectory the only directory {@code read_file} may read from
   */
  public static ToolRegistry registry(Path filesDirectory) {
    ToolRegistry.Builder tools = ToolRegistry.newBuilder();
    for (ScenarioRegistration r : BuiltinScenarioRegistrations.all()) {
      tools.addWorldActions(r.actions());
    }
    return tools
        .addExternalTools(new CalculatorTool(), new FileReaderTool(filesDirectory))
        .addControlTools(new FinishTool(), new ThinkTool(), new TodoTools(), new SpawnTools())
        .build();
  }
}
