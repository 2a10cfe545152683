package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * An external tool that reads text files inside one directory and nowhere else: a path that leads
 * out of it (with {@code ..}, an absolute path or a symbolic link) is refused.
 */
public class FileReaderTool {
  /** The most bytes one call returns; longer files are cut, and the cut is noted. */
  public static final int MAX_BYTES = 64 * 1024;

  private final Path root;

  public FileReaderTool(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  public Path root() {
    return root;
  }

  @Tool(name = "read_file",
      value = "Read a text file from the agent's files directory, by a path relative to it.")
  public String readFile(@P("the file's path, relative to the files directory") String path)
      throws IOException {
    Path resolved = root.resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      throw new IllegalArgumentException("read_file: '" + path + "' is outside the files directory");
    }
    Path real;
    try {
      real = resolved.toRealPath();
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("read_file: no file '" + path + "'");
    }
    if (!real.startsWith(root.toRealPath())) {
      throw new IllegalArgumentException("read_file: '" + path + "' leads outside the files directory");
    }
    if (!Files.isRegularFile(real)) {
      throw new IllegalArgumentException("read_file: '" + path + "' is not a file");
    }
    try (InputStream in = Files.newInputStream(real)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        return new String(bytes, 0, MAX_BYTES, StandardCharsets.UTF_8)
            + "\n[cut: the file is longer than " + MAX_BYTES + " bytes]";
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
