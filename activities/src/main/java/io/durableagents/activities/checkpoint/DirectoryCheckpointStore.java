package io.durableagents.activities.checkpoint;

import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.CheckpointSaved;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Checkpoints as files: {@code <directory>/<simulation id>/step-<000040>.json}, each written to a
 * temporary file, forced to disk and renamed over the name at once, so a reader (or a crash) never
 * finds half of one. The file format is {@link CheckpointFiles}'.
 */
public final class DirectoryCheckpointStore implements CheckpointStore {
  /** Where the worker writes checkpoints (default {@code checkpoints} in its working directory). */
  public static final String DIRECTORY_VARIABLE = "DURABLE_AGENTS_CHECKPOINT_DIR";

  private final Path directory;
  private final Clock clock;

  public DirectoryCheckpointStore(Path directory) {
    this(directory, Clock.systemUTC());
  }

  DirectoryCheckpointStore(Path directory, Clock clock) {
    this.directory = directory;
    this.clock = clock;
  }

  /** The store a worker started in this environment uses: {@code DURABLE_AGENTS_CHECKPOINT_DIR}, else {@code checkpoints}. */
  public static DirectoryCheckpointStore fromEnvironment(java.util.Map<String, String> env) {
    String dir = env.get(DIRECTORY_VARIABLE);
    return new DirectoryCheckpointStore(Path.of(dir == null || dir.isBlank() ? "checkpoints" : dir));
  }

  public Path directory() {
    return directory;
  }

  /** The file of {@code simulationId}'s checkpoint after {@code step}. */
  public Path file(String simulationId, int step) {
    return directory.resolve(safe(simulationId)).resolve(String.format("step-%06d.json", step));
  }

  @Override
  public CheckpointSaved save(Checkpoint checkpoint) {
    byte[] bytes = CheckpointFiles.write(checkpoint, clock.instant());
    Path target = file(checkpoint.simulationId(), checkpoint.step());
    try {
      Files.createDirectories(target.getParent());
      Path temporary = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
      try {
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
          ByteBuffer buffer = ByteBuffer.wrap(bytes);
          while (buffer.hasRemaining()) {
            channel.write(buffer);
          }
          channel.force(true);
        }
        try {
          Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException e) {
      throw new CheckpointFileException("cannot write " + target.toAbsolutePath() + ": " + e, e);
    }
    return new CheckpointSaved(target.toAbsolutePath().toString(), checkpoint.step(), bytes.length,
        shaOf(bytes, target));
  }

  @Override
  public Checkpoint load(String location) {
    Path file = Path.of(location);
    try {
      return CheckpointFiles.read(Files.readAllBytes(file), file.toString());
    } catch (NoSuchFileException e) {
      throw new CheckpointFileException("no checkpoint file " + file, e);
    } catch (IOException e) {
      throw new CheckpointFileException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The checkpoint file of {@code simulationId} written last in this directory, if any: the latest
   * state of the latest simulation of that id. Not the highest step: an earlier simulation that used
   * the same id (finished, lost with an in-memory Temporal, or gone on from an earlier checkpoint) may
   * have left files of later steps than the current one has reached. Equal times go to the higher step.
   */
  public Optional<Path> latest(String simulationId) {
    Path dir = directory.resolve(safe(simulationId));
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches("step-\\d+\\.json"))
          .map(p -> Map.entry(p, modified(p)))
          .max(Comparator.<Map.Entry<Path, FileTime>, FileTime>comparing(Map.Entry::getValue)
              .thenComparing(e -> e.getKey().getFileName().toString()))
          .map(Map.Entry::getKey);
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String shaOf(byte[] bytes, Path where) {
    try {
      return com.fasterxml.jackson.databind.json.JsonMapper.builder().build().readTree(bytes).path("sha256").asText();
    } catch (IOException e) {
      throw new CheckpointFileException("cannot read back " + where, e);
    }
  }

  /** A simulation id as a directory name: child ids hold slashes. */
  static String safe(String id) {
    return id.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
