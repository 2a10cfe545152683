package io.durableagents.starter;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import java.util.List;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.LoggerFactory;

/**
 * What the libraries under the command line may print to the terminal. Every library logs through
 * logback and the starter's {@code logback.xml}: SLF4J's (Temporal's SDK, LangChain4j) directly, and
 * {@code java.util.logging}'s (gRPC's) through {@link #routeJavaUtilLogging()}. Without {@code --verbose}
 * (or {@code DURABLE_AGENTS_DEBUG=1}) a log line is one line: a message's own stack trace (gRPC puts the
 * trace of a {@code Status}'s cause into its message) and an exception's are cut to their first line. A
 * command that talks to a Temporal and says what went wrong itself ({@code list}, {@code simulate}, ...)
 * shows the libraries' errors only; the long-running ones ({@code worker}, {@code dev-server}) keep their
 * warnings, as logback.xml says.
 *
 * <pre>{@code
 * CliLogging.configure("list", false); // gRPC's "Failed to resolve name" warning stays out of the terminal
 * }</pre>
 */
final class CliLogging {
  /**
   * The context property the starter's logback.xml sets; a logging configuration of the user's own
   * (-Dlogback.configurationFile) lacks it, and its levels are left alone.
   */
  static final String OWN_CONFIGURATION_PROPERTY = "durableAgentsCli";

  /** The commands that run until stopped, whose log is their output. */
  static final Set<String> LONG_RUNNING = Set.of("worker", "dev-server", "codec-server", "benchmark");

  /** The loggers logback.xml sets to WARN that a short command turns to ERROR. */
  private static final List<String> LIBRARIES = List.of(Logger.ROOT_LOGGER_NAME, "io.grpc", "io.temporal");

  private static volatile boolean verbose;

  private CliLogging() {}

  /**
   * Routes {@code java.util.logging} through SLF4J (and so logback.xml), in place of its own console
   * handler that prints a record's trace in full; idempotent.
   */
  static synchronized void routeJavaUtilLogging() {
    java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
    for (Handler h : root.getHandlers()) {
      if (h instanceof ToSlf4j) {
        return;
      }
    }
    LogManager.getLogManager().reset();
    root.setLevel(java.util.logging.Level.INFO);
    root.addHandler(new ToSlf4j());
  }

  /**
   * Sets what reaches the terminal for {@code command}: with {@code verbose}, whole traces and the
   * libraries' warnings; without, one line per log event and, for a command that is not {@linkplain
   * #LONG_RUNNING long-running}, only the libraries' errors.
   */
  static void configure(String command, boolean verbose) {
    CliLogging.verbose = verbose;
    routeJavaUtilLogging();
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)
        || context.getProperty(OWN_CONFIGURATION_PROPERTY) == null) {
      return;
    }
    Level level = verbose || LONG_RUNNING.contains(command) ? Level.WARN : Level.ERROR;
    for (String name : LIBRARIES) {
      context.getLogger(name).setLevel(level);
    }
  }

  /** Whether log lines carry their whole traces: {@code --verbose} or {@code DURABLE_AGENTS_DEBUG}. */
  static boolean verbose() {
    return verbose || Failures.debugFromEnvironment();
  }

  /**
   * {@code %oneLine} in logback.xml: the message, cut at its first line break, and the exception's class
   * and message in brackets; with {@link #verbose()}, the whole message and the exception's trace.
   * Being a {@link ThrowableHandlingConverter}, it keeps logback from appending the trace by itself.
   */
  public static final class OneLine extends ThrowableHandlingConverter {
    @Override
    public String convert(ILoggingEvent event) {
      String message = String.valueOf(event.getFormattedMessage());
      IThrowableProxy thrown = event.getThrowableProxy();
      if (verbose()) {
        return thrown == null ? message : message + System.lineSeparator()
            + ThrowableProxyUtil.asString(thrown).stripTrailing();
      }
      String line = firstLine(message);
      if (thrown != null) {
        line += " [" + thrown.getClassName().substring(thrown.getClassName().lastIndexOf('.') + 1)
            + (thrown.getMessage() == null ? "" : ": " + firstLine(thrown.getMessage())) + "; --verbose for the trace]";
      } else if (!line.equals(message.stripTrailing())) {
        line += " [...; --verbose for the rest]";
      }
      return line;
    }

    private static String firstLine(String s) {
      int nl = s.indexOf('\n');
      return (nl < 0 ? s : s.substring(0, nl)).stripTrailing();
    }
  }

  /** A {@code java.util.logging} handler that hands each record to the SLF4J logger of the same name. */
  static final class ToSlf4j extends Handler {
    private final SimpleFormatter formatter = new SimpleFormatter();

    @Override
    public void publish(LogRecord record) {
      if (record == null) {
        return;
      }
      org.slf4j.Logger logger = LoggerFactory.getLogger(record.getLoggerName() == null ? "jul" : record.getLoggerName());
      int level = record.getLevel().intValue();
      Throwable thrown = record.getThrown();
      if (level >= java.util.logging.Level.SEVERE.intValue()) {
        if (logger.isErrorEnabled()) {
          logger.error(formatter.formatMessage(record), thrown);
        }
      } else if (level >= java.util.logging.Level.WARNING.intValue()) {
        if (logger.isWarnEnabled()) {
          logger.warn(formatter.formatMessage(record), thrown);
        }
      } else if (level >= java.util.logging.Level.INFO.intValue()) {
        if (logger.isInfoEnabled()) {
          logger.info(formatter.formatMessage(record), thrown);
        }
      } else if (level >= java.util.logging.Level.FINE.intValue()) {
        if (logger.isDebugEnabled()) {
          logger.debug(formatter.formatMessage(record), thrown);
        }
      } else if (logger.isTraceEnabled()) {
        logger.trace(formatter.formatMessage(record), thrown);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
