package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * Which Temporal a command talks to, on its command line: {@code --address HOST:PORT}, or {@code --port
 * PORT} for {@code 127.0.0.1:PORT} (a dev server on this machine). Either stands for {@code
 * TEMPORAL_ADDRESS} while the command runs ({@link Environment#withCommandLine}), so that everything the
 * command does and starts (its client, a worker it starts) uses it. {@link #install} gives this mixin to
 * every command that talks to Temporal ({@code --port} only where the command has no {@code --port} of
 * its own, as {@code view} and {@code demo} have); {@link #around} checks the address, however given,
 * before the command runs.
 *
 * <pre>{@code
 * durable-agents list --port 7400
 * durable-agents describe sim-1 --address temporal.example.com:7233
 * }</pre>
 */
public final class TemporalOptions {
  /** The name the mixin has on each command. */
  static final String MIXIN = "temporal";

  /** The commands that do not talk to a Temporal of the user's (they start their own, or none). */
  static final Set<String> NOT_TEMPORAL = Set.of("help", "dev-server", "codec-server", "benchmark",
      "check-execution-log");

  private static final String EXAMPLE = "e.g. --address 127.0.0.1:7233 or TEMPORAL_ADDRESS=127.0.0.1:7233";

  @Option(names = "--address", paramLabel = "HOST:PORT",
      description = "The Temporal to talk to (default: TEMPORAL_ADDRESS, else Temporal's config file, "
          + "else 127.0.0.1:7233).")
  String address;

  @Option(names = "--port", paramLabel = "PORT",
      description = "The Temporal at 127.0.0.1:PORT on this machine: --address 127.0.0.1:PORT in short.")
  Integer port;

  /** Adds the options to every command under {@code root} that talks to Temporal. */
  static void install(CommandLine root) {
    for (CommandLine sub : root.getSubcommands().values()) {
      CommandSpec spec = sub.getCommandSpec();
      if (NOT_TEMPORAL.contains(spec.name()) || spec.mixins().containsKey(MIXIN)) {
        continue; // not Temporal's, or an alias of a command seen already
      }
      boolean ownPort = spec.findOption("--port") != null;
      CommandSpec mixin = CommandSpec.forAnnotatedObject(new TemporalOptions());
      if (ownPort) {
        mixin.remove(mixin.findOption("--port"));
      }
      spec.addMixin(MIXIN, mixin);
      install(sub);
    }
  }

  /**
   * Runs {@code work} (the command {@code parsed} names) with the address its command line gives as
   * TEMPORAL_ADDRESS, after checking that address, or the one from the environment, is host:port.
   */
  static <T> T around(ParseResult parsed, Callable<T> work) throws Exception {
    TemporalOptions given = null;
    boolean talksToTemporal = false;
    boolean help = false;
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      CommandSpec mixin = p.commandSpec().mixins().get(MIXIN);
      talksToTemporal = mixin != null;
      help |= p.isUsageHelpRequested() || p.isVersionHelpRequested();
      if (mixin != null && ((TemporalOptions) mixin.userObject()).given()) {
        given = (TemporalOptions) mixin.userObject();
      }
    }
    Map<String, String> settings = given == null ? Map.of() : given.settings();
    boolean check = talksToTemporal && !help;
    return Environment.withCommandLine(settings, () -> {
      if (check) {
        requireAddress(TemporalConnection.fromEnvironment(Environment.variables()));
      }
      return work.call();
    });
  }

  private boolean given() {
    return address != null || port != null;
  }

  /** What the options stand for: TEMPORAL_ADDRESS, and which option gave it. */
  private Map<String, String> settings() {
    if (address != null && port != null) {
      throw CommandFailure.usage("--address and --port exclude each other",
          "Give --address HOST:PORT, or --port PORT for 127.0.0.1:PORT.");
    }
    if (port != null) {
      if (port < 1 || port > 65535) {
        throw CommandFailure.usage("--port " + port + " is not a port", "Give 1 to 65535.");
      }
      return Map.of(ADDRESS, "127.0.0.1:" + port, TemporalConnection.ADDRESS_FROM, "--port");
    }
    return Map.of(ADDRESS, address, TemporalConnection.ADDRESS_FROM, "--address");
  }

  private static final String ADDRESS = "TEMPORAL_ADDRESS";

  /**
   * Checks that the address {@code connection} uses is {@code host:port} with a port from 1 to 65535 (a
   * gRPC target with a scheme, {@code dns:///...} or {@code unix:...}, is left to gRPC).
   *
   * @throws CommandFailure (usage) naming the address and where it came from when it is not
   */
  public static void requireAddress(TemporalConnection connection) {
    String problem = problem(connection.address());
    if (problem != null) {
      throw CommandFailure.usage("'" + connection.address() + "' (" + connection.addressSource()
          + ") is not a host:port address: " + problem, "Give the Temporal's address as host:port, " + EXAMPLE + ".");
    }
  }

  /** What is wrong with {@code address} as {@code host:port}, or null when nothing is. */
  static String problem(String address) {
    if (address.contains("://") || address.startsWith("unix:")) {
      return null; // a gRPC target: gRPC's to read
    }
    int colon = address.lastIndexOf(':');
    String host = colon < 0 ? address : address.substring(0, colon);
    String port = colon < 0 ? "" : address.substring(colon + 1);
    if (port.isEmpty()) {
      return "it has no port";
    }
    if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return "the port '" + port + "' is not a number";
    }
    if (port.length() > 5 || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      return "the port " + port + " is not 1 to 65535";
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      return "the host '" + host + "' has a ':' (an IPv6 address goes in brackets, as in [::1]:7233)";
    }
    if (host.isEmpty()) {
      return "it has no host";
    }
    if (host.chars().anyMatch(c -> Character.isWhitespace(c) || "/[]@?#".indexOf(c) >= 0)) {
      return "'" + host + "' is not a host name or IP address";
    }
    return null;
  }
}
