package io.durableagents.testkit;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * Recording workflow histories and replaying them against a {@link DurableAgentsPlugin}'s workflows:
 * a replay test. Keep a few recorded histories of your scenario under {@code
 * src/test/resources/histories/} and replay them in every build: a change to the scenario (or to the
 * engine) that would break the runs in flight when it is deployed then fails the build, with
 * Temporal's non-determinism error naming the first command that differs.
 *
 * <p>The replay runs on a worker that the plugin initialised, as a real worker would be: your scenario
 * is registered there (the workflows take the plugin's scenarios; they know no other).
 *
 * <pre>{@code
 * Path histories = Path.of("src", "test", "resources", "histories");
 * if (Boolean.getBoolean("recordHistories")
 *     && !Files.exists(histories.resolve(WorkflowHistories.fileName("wealth-replay")))) {
 *   try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
 *     DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "wealth-replay")
 *         .run(SimulationInput.of("wealth", 4, 42));
 *     WorkflowHistories.record(env.getWorkflowClient(), "wealth-replay", histories);
 *   }
 * }
 * WorkflowHistories.replay(PLUGIN, WorkflowHistories.readAll(histories));
 * }</pre>
 *
 * <p>Files are Temporal's JSON form of a history, as {@code temporal workflow show --output json} and
 * the Temporal UI's download write them, so a history taken from a real cluster replays too.
 */
public final class WorkflowHistories {
  private static final String JSON = ".json";

  private WorkflowHistories() {}

  /**
   * The history of the latest run of {@code workflowId}, written into {@code directory} (created if
   * need be) as {@link #fileName}{@code (workflowId)}, indented JSON: the file {@link #read(Path)}
   * reads it back from, workflow id and all.
   *
   * @return the file written
   */
  public static Path record(WorkflowClient client, String workflowId, Path directory) {
    Path file = directory.resolve(fileName(workflowId));
    write(client.fetchHistory(workflowId), file);
    return file;
  }

  /** Writes {@code history} to {@code file} as indented JSON, creating its directories. */
  public static void write(WorkflowExecutionHistory history, Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, history.toJson(true));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the history " + file, e);
    }
  }

  /**
   * The file name a recording of {@code workflowId} gets: the id, URL-encoded ({@code /} as {@code
   * %2F}), then {@code .json}. {@code wealth-replay} is {@code wealth-replay.json}.
   */
  public static String fileName(String workflowId) {
    return URLEncoder.encode(workflowId, StandardCharsets.UTF_8) + JSON;
  }

  /**
   * The history in {@code file}, replayed as the workflow id its first event records or, when it records
   * none (Temporal's embedded test server leaves it out), as the id its file name says (see {@link
   * #fileName}). The id matters: the ids of child workflows, such as a simulation's agent steps, are made
   * from it, and a replay checks them.
   */
  public static WorkflowExecutionHistory read(Path file) {
    String json = text(file);
    String recorded = WorkflowExecutionHistory.fromJson(json).getEvents().get(0)
        .getWorkflowExecutionStartedEventAttributes().getWorkflowId();
    return WorkflowExecutionHistory.fromJson(json, recorded.isEmpty() ? workflowIdOf(file) : recorded);
  }

  /** The history in {@code file}, replayed as workflow {@code workflowId}. */
  public static WorkflowExecutionHistory read(Path file, String workflowId) {
    return WorkflowExecutionHistory.fromJson(text(file), workflowId);
  }

  /**
   * Every {@code *.json} history in {@code directory}, by file name.
   *
   * @throws IllegalStateException when there is none: a replay test with nothing to replay proves nothing
   */
  public static List<WorkflowExecutionHistory> readAll(Path directory) {
    List<Path> files;
    try (Stream<Path> s = Files.list(directory)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(JSON)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the histories in " + directory.toAbsolutePath(), e);
    }
    if (files.isEmpty()) {
      throw new IllegalStateException("no recorded histories (*.json) in " + directory.toAbsolutePath());
    }
    List<WorkflowExecutionHistory> histories = new ArrayList<>();
    files.forEach(f -> histories.add(read(f)));
    return histories;
  }

  /**
   * Replays each history against the workflows of {@code plugin}, on a worker that the plugin
   * initialised in a fresh test environment.
   *
   * @throws Exception the first replay failure: Temporal's non-determinism error when the code no
   *     longer makes the commands the history recorded, or the failure the workflow code threw
   */
  public static void replay(DurableAgentsPlugin plugin, WorkflowExecutionHistory... histories) throws Exception {
    replay(plugin, List.of(histories));
  }

  /** As {@link #replay(DurableAgentsPlugin, WorkflowExecutionHistory...)}, for a collection. */
  public static void replay(DurableAgentsPlugin plugin, Collection<WorkflowExecutionHistory> histories)
      throws Exception {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(
        DurableAgentsTestEnvironment.options(plugin, TestEnvironmentOptions.getDefaultInstance()))) {
      // newWorker runs the plugin's initializeWorker: the workflows, with their scenario registry
      Worker worker = env.newWorker(TaskQueues.AGENTS);
      for (WorkflowExecutionHistory history : histories) {
        WorkflowReplayer.replayWorkflowExecution(history, worker);
      }
    }
  }

  private static String workflowIdOf(Path file) {
    String name = file.getFileName().toString();
    if (name.endsWith(JSON)) {
      name = name.substring(0, name.length() - JSON.length());
    }
    return URLDecoder.decode(name, StandardCharsets.UTF_8);
  }

  private static String text(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the history " + file.toAbsolutePath(), e);
    }
  }
}
