package io.durableagents.activities.tools;

import java.nio.file.Path;

/** The tools every worker has: the built-in scenarios' world actions and the external tools. */
public final class BuiltinTools {
  private BuiltinTools() {}

  /**
   * A registry with Epstein's world actions, the calculator and the file reader.
   *
   * @param filesDirectory the only directory {@code read_file} may read from
   */
  public static ToolRegistry registry(Path filesDirectory) {
    return ToolRegistry.newBuilder()
        .addWorldActions(new EpsteinActions())
        .addExternalTools(new CalculatorTool(), new FileReaderTool(filesDirectory))
        .build();
  }
}
