package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a first run finds a Temporal CLI it was not given: the PATH, then the download cache. */
class CliSourcesTest {
  private static Path file(Path path, boolean executable) throws Exception {
    Files.createDirectories(path.getParent());
    Files.writeString(path, "#!/bin/sh\n");
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
    return path;
  }

  @Test
  void theFirstExecutableTemporalOnThePathIsTakenAndAFileThatIsNotExecutableIsPassedOver(@TempDir Path dir)
      throws Exception {
    file(dir.resolve("a/temporal"), false);
    Path found = file(dir.resolve("b/temporal"), true);
    file(dir.resolve("c/temporal"), true);
    assertEquals(found, CliSources.onPath(List.of(dir.resolve("a"), dir.resolve("b"), dir.resolve("c"))));
    assertNull(CliSources.onPath(List.of(dir.resolve("a"))));
  }

  @Test
  void aCliAnEarlierRunDownloadedIsFoundInTheCacheOfTheDataDirectory(@TempDir Path dir) throws Exception {
    LocalTemporal.Settings settings = new LocalTemporal.Settings("127.0.0.1", 0, 0, dir.resolve("db"), null, null,
        false, false, dir.resolve("data"), List.of());
    assertNull(CliSources.cached(settings));
    Path cached = file(dir.resolve("data/temporal-cli/pypi-1.0/temporal"), true);
    assertEquals(cached, CliSources.cached(settings));
  }
}
