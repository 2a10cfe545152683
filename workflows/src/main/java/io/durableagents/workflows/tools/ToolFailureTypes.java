package io.durableagents.workflows.tools;

/** The types of failures that tool calls and tool selection end with. */
public final class ToolFailureTypes {
  /** {@code selected_tools} names a tool the agent does not have: a configuration error. */
  public static final String UNKNOWN_SELECTED_TOOL = "UnknownSelectedTool";

  /** A tool threw; retried by Temporal until its retry policy gives up. */
  public static final String TOOL_FAILED = "ToolFailed";

  /**
   * A tool threw an exception its options name as non-retryable ({@code @DurableTool(nonRetryable =
   * ...)}): reported once, never retried.
   */
  public static final String TOOL_FAILED_PERMANENTLY = "ToolFailedPermanently";

  private ToolFailureTypes() {}
}
