package io.durableagents.devserver;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The dev server's database file cannot be had: its directory cannot be created, or it (or its directory)
 * cannot be written. Thrown before any server starts, naming the path and why; the caller names the
 * setting that chose the path.
 */
public final class DatabaseNotWritable extends IllegalStateException {
  private final Path database;

  DatabaseNotWritable(String message, Path database, Throwable cause) {
    super(message, cause);
    this.database = database;
  }

  /** The database file that cannot be had. */
  public Path database() {
    return database;
  }

  /**
   * Makes the directory of {@code database} and checks that the file can be written there (a file made
   * and removed again when it does not exist yet).
   *
   * @throws DatabaseNotWritable naming the directory or the file, and why
   */
  static void prepare(Path database) {
    Path file = database.toAbsolutePath();
    Path parent = file.getParent();
    if (parent != null) {
      try {
        Files.createDirectories(parent);
      } catch (IOException e) {
        throw new DatabaseNotWritable("cannot create the directory " + parent + " of the database file " + database
            + " (" + reason(e) + ")", database, e);
      }
    }
    if (Files.isDirectory(file)) {
      throw new DatabaseNotWritable("the database file " + database + " is a directory", database, null);
    }
    if (Files.exists(file)) {
      if (!Files.isWritable(file)) {
        throw new DatabaseNotWritable("cannot write the database file " + database + " (permission denied)",
            database, null);
      }
      return;
    }
    try {
      // SQLite writes the file and its journal beside it: try the directory as it will
      Files.delete(Files.createTempFile(parent, ".durable-agents-", ".probe"));
    } catch (IOException e) {
      throw new DatabaseNotWritable("cannot write in " + parent + ", the directory of the database file " + database
          + " (" + reason(e) + ")", database, e);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileAlreadyExistsException f) {
      return f.getFile() + " is a file, not a directory";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
