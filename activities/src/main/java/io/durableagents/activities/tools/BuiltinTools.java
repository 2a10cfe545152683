package io.durableagents.activities.tools;

import java.nio.file.Path;

/**
 * The tools every worker has: the built-in scenarios' world actions, the external tools, and ReAct's
 * {@code finish} control tool, and the autonomous agent's think, todo and spawn control tools.
 */
public final class BuiltinTools {
  private BuiltinTools() {}

  /**
   * A registry with the world actions of Epstein's model and of the negotiation scenario, the
   * calculator, the file reader and {@code finish}.
   *
   * @param filesDirectory the only directory {@code read_file} may read from
   */
  public static ToolRegistry registry(Path filesDirectory) {
    return ToolRegistry.newBuilder()
        .addWorldActions(new EpsteinActions(), new NegotiationActions())
        .addExternalTools(new CalculatorTool(), new FileReaderTool(filesDirectory))
        .addControlTools(new FinishTool(), new ThinkTool(), new TodoTools(), new SpawnTools())
        .build();
  }
}
