package io.durableagents.starter;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How a followed simulation is shown and where its results are written ({@code simulate}, {@code demo}, {@code attach}). */
public final class OutputOptions {
  /** How progress is shown. */
  enum ProgressStyle {
    /** A progress bar on a terminal, lines otherwise. */
    auto,
    /** Always the progress bar. */
    bar,
    /** A line per step (what logs and tests read). */
    lines
  }

  @Option(names = "--csv", paramLabel = "FILE",
      description = "Write the per-step variables (and LLM calls and tokens so far) as CSV to FILE.")
  public Path csv;

  @Option(names = "--chart", paramLabel = "FILE",
      description = "Draw the per-step variables as a PNG line chart into FILE.")
  public Path chart;

  @Option(names = "--progress", defaultValue = "auto", paramLabel = "STYLE",
      description = "auto (a progress bar on a terminal, a line per step otherwise), bar or lines "
          + "(default: ${DEFAULT-VALUE}).")
  ProgressStyle progress = ProgressStyle.auto;

  /** Whether to draw the progress bar: asked for, or on a terminal. */
  public boolean useBar() {
    return progress == ProgressStyle.bar || (progress == ProgressStyle.auto && System.console() != null);
  }
}
