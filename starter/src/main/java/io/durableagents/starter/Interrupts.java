package io.durableagents.starter;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * What Ctrl-C does. A command that owns child processes ({@code demo}, {@code agent}: the embedded
 * Temporal and a worker) stops them gracefully on the first Ctrl-C, the worker first, waits for them,
 * says what became of the run and how to keep runs next time, and exits with 130; a second Ctrl-C
 * stops everything at once. A command that only follows a run ({@code simulate}, {@code attach})
 * says that it detached and how to follow the run again.
 *
 * <p>Child JVMs ignore Ctrl-C (a terminal sends it to the whole process group: without this the
 * server would die under a worker that is still finishing its tasks), and exit when their parent
 * does, so that nothing is left behind even when the parent is killed.
 *
 * <pre>{@code
 * Interrupts.install(System.err, () -> "demo: interrupted; ...", stack::stopGracefully, stack::killNow);
 * Interrupts.detachOnInterrupt(System.err, "simulate", "attach");
 * }</pre>
 */
public final class Interrupts {
  /** Set in a child JVM's environment to its parent's pid. */
  public static final String PARENT_PID_VARIABLE = "DURABLE_AGENTS_PARENT_PID";

  private static final AtomicInteger SIGNALS = new AtomicInteger();
  private static volatile String runId;

  private Interrupts() {}

  /**
   * The run this process follows, for the message Ctrl-C prints: a run it started, or one it found
   * running (never an id the user typed before it is known to exist).
   */
  public static void runStarted(String workflowId) {
    runId = workflowId;
  }

  /** The run this process follows, or null. */
  public static String runId() {
    return runId;
  }

  /** Whether Ctrl-C has been pressed: the command's own failures are noise from then on. */
  static boolean interrupted() {
    return SIGNALS.get() > 0;
  }

  /**
   * Handles Ctrl-C for a command that owns processes: the first runs {@code graceful} (then exits
   * with 130) after printing {@code message}; a second runs {@code immediate} and halts.
   */
  public static void install(PrintStream err, java.util.function.Supplier<String> message, Runnable graceful,
      Runnable immediate) {
    handle(() -> {
      int n = SIGNALS.incrementAndGet();
      if (n == 1) {
        err.println();
        err.println(message.get());
        err.flush();
        try {
          graceful.run();
        } finally {
          System.exit(Failures.INTERRUPTED);
        }
      } else {
        err.println("Stopping at once.");
        err.flush();
        immediate.run();
        Runtime.getRuntime().halt(Failures.INTERRUPTED);
      }
    });
  }

  /**
   * Handles Ctrl-C for a command that only follows a run: says it detached and how to see the run
   * again ({@code follow <id>}: {@code attach} for simulations, {@code describe} for agent tasks), and
   * exits with 130.
   */
  public static void detachOnInterrupt(PrintStream err, String command, String follow) {
    handle(() -> {
      if (SIGNALS.incrementAndGet() > 1) {
        Runtime.getRuntime().halt(Failures.INTERRUPTED);
      }
      err.println();
      err.println(detachedLine(command, follow));
      err.flush();
      System.exit(Failures.INTERRUPTED);
    });
  }

  /**
   * What Ctrl-C says in a command that follows a run: that the run goes on only once the command has
   * started it or found it ({@link #runStarted}); before that, nothing goes on.
   */
  static String detachedLine(String command, String follow) {
    String id = runId;
    return command + ": detached; " + (id == null ? "nothing was started." : "the run goes on: " + follow + " " + id);
  }

  private static void handle(Runnable onSignal) {
    try {
      Signal.handle(new Signal("INT"), signal -> new Thread(onSignal, "durable-agents-interrupt").start());
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // no SIGINT here (or the JVM was started with -Xrs): Ctrl-C keeps the JVM's default
    }
  }

  /**
   * In a child JVM started by {@link io.durableagents.starter.local.ChildProcesses}: ignores Ctrl-C (the
   * parent stops it in order) and exits when the parent has gone.
   */
  static void superviseIfChild() {
    String parent = Environment.get(PARENT_PID_VARIABLE);
    if (parent == null || parent.isBlank()) {
      return;
    }
    try {
      Signal.handle(new Signal("INT"), s -> { });
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // keep the default
    }
    try {
      ProcessHandle.of(Long.parseLong(parent.trim())).ifPresentOrElse(
          p -> p.onExit().thenRun(Interrupts::parentGone),
          Interrupts::parentGone);
    } catch (NumberFormatException e) {
      // not ours
    }
  }

  private static void parentGone() {
    System.err.println("durable-agents: the process that started this one has exited; stopping");
    System.exit(0);
  }
}
