package io.durableagents.activities.tools;

import java.nio.file.Path;

/**
 * The tools a worker has without registrations of its own: the external tools (calculator, file
 * reader), ReAct's {@code finish} control tool, and the autonomous agent's think, todo and spawn
 * control tools. The plugin builds the same set, plus the scenarios and tools registered on it.
 */
public final class BuiltinTools {
  private BuiltinTools() {}

  /**
   * A registry with the calculator, the file reader and the control tools.
   *
   * @param filesDirectory the only directory {@code read_file} may read from
   */
  public static ToolRegistry registry(Path filesDirectory) {
    return builder(filesDirectory).build();
  }

  /** A registry builder with the same tools, to add others to. */
  public static ToolRegistry.Builder builder(Path filesDirectory) {
    return ToolRegistry.newBuilder()
        .addExternalTools(new CalculatorTool(), new FileReaderTool(filesDirectory))
        .addControlTools(new FinishTool(), new ThinkTool(), new TodoTools(), new SpawnTools());
  }
}
