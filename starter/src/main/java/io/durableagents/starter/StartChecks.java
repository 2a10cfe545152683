package io.durableagents.starter;

import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The checks a command makes before it starts anything (a server, a worker, a workflow): a bad value
 * fails here, in one line naming the option, instead of after half a minute of start-up or inside
 * the workflow.
 *
 * <pre>{@code
 * StartChecks.workflowId("--id", options.id);
 * StartChecks.simulation(input, LocalCatalog.get());
 * StartChecks.outputFile("--csv", output.csv);
 * }</pre>
 */
public final class StartChecks {
  /** Temporal's default limit on a workflow id's length ({@code limit.maxIDLength}). */
  static final int MAX_ID_LENGTH = 1000;

  private StartChecks() {}

  /** A workflow id given by the user ({@code null}: none given, one is generated). */
  public static void workflowId(String option, String id) {
    if (id == null) {
      return;
    }
    if (id.isBlank()) {
      throw CommandFailure.usage(option + " is empty", "Leave " + option + " out for a generated id, or give one.");
    }
    if (id.length() > MAX_ID_LENGTH) {
      throw CommandFailure.usage(option + " is " + id.length() + " characters long; Temporal allows "
          + MAX_ID_LENGTH, "Choose a shorter id.");
    }
    if (!id.equals(id.strip()) || id.chars().anyMatch(Character::isISOControl)) {
      throw CommandFailure.usage(option + " has leading or trailing spaces or control characters",
          "Choose an id of letters, digits, '-', '_' and '.'.");
    }
  }

  /**
   * A simulation's input against its scenario, as the workflow will see it: the world it creates has
   * agents, and every role with agents has the tools {@code --selected-tools} names.
   */
  public static void simulation(SimulationInput input, LocalCatalog catalog) {
    Scenario<?> scenario = catalog.scenarios().get(input.scenario());
    ScenarioWorld world = create(scenario, input);
    if (world.agentIds().isEmpty()) {
      throw CommandFailure.usage("the " + input.scenario() + " world has no agents with these parameters "
          + input.parameters(), "Give it at least one agent ('help simulate --scenario "
          + input.scenario() + "' lists the parameters).");
    }
    Map<String, Boolean> roles = new LinkedHashMap<>();
    for (String id : world.agentIds()) {
      String role = world.roleOf(id);
      if (roles.putIfAbsent(role, true) == null) {
        try {
          SelectedTools.resolve(world.toolsOf(role), input.optionsFor(role).selectedTools());
        } catch (ApplicationFailure e) {
          throw CommandFailure.usage("--selected-tools: the " + role + " agents of " + input.scenario()
              + " do not have " + input.optionsFor(role).selectedTools() + "; their tools: "
              + world.toolsOf(role), "Name tools of every role, '-' for none, or leave the option out.");
        }
      }
    }
  }

  /** How many agents the simulation's world has when it starts (0 for an unknown scenario). */
  public static int agentCount(SimulationInput input, LocalCatalog catalog) {
    Scenario<?> scenario = catalog.scenarios().get(input.scenario());
    return scenario == null ? 0 : create(scenario, input).agentIds().size();
  }

  private static <P extends Record> ScenarioWorld create(Scenario<P> scenario, SimulationInput input) {
    return scenario.create(ScenarioParameters.read(scenario, input.parameters()), new SeededRandom(input.seed()));
  }

  /** A port to listen on: 0 (any free port) to 65535, and free on {@code host}. */
  public static void port(String option, String host, int port) {
    if (port < 0 || port > 65535) {
      throw CommandFailure.usage(option + " " + port + " is not a port", "Give 1 to 65535 (0: any free port).");
    }
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new CommandFailure(Failures.LOCAL, "cannot listen on " + host + ":" + port + ": "
          + (e instanceof java.net.BindException ? "the port is in use or the address is not this machine's"
          : e.getMessage()), "Choose another with " + option + ", or stop what listens there.", e);
    }
  }

  /** A count such as {@code --limit}: at least 1. */
  public static void atLeastOne(String option, int value) {
    if (value < 1) {
      throw CommandFailure.usage(option + " must be at least 1, was " + value, null);
    }
  }

  /**
   * A file to write ({@code null}: none): not a directory, writable if it exists, and its directory
   * either writable or creatable (missing directories are created, as {@code --csv} always did); tried
   * by creating it and removing it again (or opening it, when it exists).
   */
  public static void outputFile(String option, Path file) {
    if (file == null) {
      return;
    }
    Path absolute = file.toAbsolutePath();
    if (Files.isDirectory(absolute)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + file + " is a directory",
          "Give a file name, e.g. " + file.resolve("out" + extension(option)) + ".");
    }
    if (Files.exists(absolute) && !Files.isWritable(absolute)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + file + " is not writable", "Choose another file.");
    }
    Path ancestor = absolute.getParent();
    while (ancestor != null && !Files.exists(ancestor)) {
      ancestor = ancestor.getParent();
    }
    if (ancestor == null || !Files.isDirectory(ancestor)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + file + ": " + ancestor + " is not a directory",
          "Choose a path in a directory.");
    }
    if (!Files.isWritable(ancestor)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + file + ": no permission to write in " + ancestor,
          "Choose a path you can write to.");
    }
    tryWriting(option, file, absolute, ancestor);
  }

  /**
   * Opens {@code absolute} for writing, as the command will once it has run: an existing file is opened
   * to append nothing, a new one (and the directories missing under {@code ancestor}) created and removed
   * again. Permissions alone do not tell: root may write anywhere, and {@code /proc} or a read-only mount
   * refuses what they allow.
   */
  private static void tryWriting(String option, Path file, Path absolute, Path ancestor) {
    if (Files.exists(absolute)) {
      try {
        Files.newOutputStream(absolute, java.nio.file.StandardOpenOption.APPEND).close();
      } catch (IOException e) {
        throw cannotWrite(option, file, e);
      }
      return;
    }
    java.util.Deque<Path> missing = new java.util.ArrayDeque<>(); // the outermost first
    for (Path d = absolute.getParent(); d != null && !d.equals(ancestor); d = d.getParent()) {
      missing.push(d);
    }
    java.util.Deque<Path> created = new java.util.ArrayDeque<>(); // the last created on top
    try {
      for (Path d : missing) {
        created.push(Files.createDirectory(d));
      }
      created.push(Files.createFile(absolute));
    } catch (IOException e) {
      throw cannotWrite(option, file, e);
    } finally {
      for (Path p : created) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // left behind, empty: the command writes there anyway
        }
      }
    }
  }

  private static CommandFailure cannotWrite(String option, Path file, IOException e) {
    return new CommandFailure(Failures.LOCAL, option + " " + file + " cannot be written: " + why(e),
        "Choose a path you can write to.", e);
  }

  private static String why(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException f) {
      return f.getReason() != null ? f.getReason() : "the file system refused to create it";
    }
    return e.getMessage();
  }

  /** A directory to write files into: a directory or creatable, and writable. */
  public static void outputDirectory(String option, Path dir) {
    Path absolute = dir.toAbsolutePath();
    if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + dir + " is a file, not a directory",
          "Give a directory (it is created if missing).");
    }
    Path ancestor = absolute;
    while (ancestor != null && !Files.exists(ancestor)) {
      ancestor = ancestor.getParent();
    }
    if (ancestor == null || !Files.isDirectory(ancestor) || !Files.isWritable(ancestor)) {
      throw new CommandFailure(Failures.LOCAL, option + " " + dir + ": cannot write in " + ancestor,
          "Choose a directory you can write to.");
    }
  }

  private static String extension(String option) {
    return switch (option) {
      case "--csv" -> ".csv";
      case "--chart" -> ".png";
      default -> ".json";
    };
  }
}
