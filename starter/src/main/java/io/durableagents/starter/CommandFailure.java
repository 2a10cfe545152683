package io.durableagents.starter;

/**
 * A failure a command found and can say in words: its exit code (one of {@link Failures}'
 * constants), a one-line message and one line on what to do. Thrown by the checks that run before a
 * command starts anything, and by the Temporal check; printed by {@link Failures} as it is.
 *
 * <pre>{@code
 * throw new CommandFailure(Failures.USAGE, "--id is empty", "leave --id out for a generated one");
 * }</pre>
 */
public final class CommandFailure extends RuntimeException {
  private final int exitCode;
  private final String hint;

  public CommandFailure(int exitCode, String message, String hint) {
    this(exitCode, message, hint, null);
  }

  public CommandFailure(int exitCode, String message, String hint, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
    this.hint = hint;
  }

  /** A bad option or argument ({@link Failures#USAGE}). */
  public static CommandFailure usage(String message, String hint) {
    return new CommandFailure(Failures.USAGE, message, hint);
  }

  public int exitCode() {
    return exitCode;
  }

  /** What to do about it, or null. */
  public String hint() {
    return hint;
  }
}
