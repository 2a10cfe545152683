package io.durableagents.devserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.ArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;

/**
 * The Temporal CLI from Temporal's download site (temporal.download), as the Java SDK's dev server
 * downloads it (the CLI version that site names for this SDK version, into the same cache layout), but
 * saying so before it starts and how far it got while it runs: a first run's download took 14 s of
 * silence otherwise.
 *
 * <pre>{@code
 * Path temporal = CliDownload.install(settings.cliCache(), System.out::println);
 * }</pre>
 */
final class CliDownload {
  /** The system property (the SDK's own) naming another download site, e.g. a mirror or a test's server. */
  static final String BASE_URL_PROPERTY = "io.temporal.testing.devServerDownloadBaseUrl";
  static final String DEFAULT_BASE_URL = "https://temporal.download";
  /** What every progress line starts with (demo echoes the dev server's lines that start so). */
  static final String PREFIX = "Downloading the Temporal CLI";

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(10);
  /** A progress line at most this often, and at every tenth of the archive. */
  private static final long PROGRESS_EVERY_NANOS = 2_000_000_000L;

  private CliDownload() {}

  /** The download site: {@value #BASE_URL_PROPERTY}, else {@value #DEFAULT_BASE_URL}. */
  static URI base() {
    String base = System.getProperty(BASE_URL_PROPERTY, DEFAULT_BASE_URL);
    return URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
  }

  /**
   * The CLI in {@code cache}, downloaded (saying so, with progress, through {@code say}) when it is not
   * there yet.
   *
   * @throws IOException when the site, the archive or the file system fails
   */
  static Path install(Path cache, Consumer<String> say) throws IOException, InterruptedException {
    String os = osName();
    String arch = arch();
    String sdk = io.temporal.serviceclient.Version.LIBRARY_VERSION;
    Path dir = cache.resolve("default-sdk-java-" + sdk.replaceAll("[^A-Za-z0-9._-]", "_")).resolve(os + "_" + arch);
    Path target = dir.resolve(os.equals("windows") ? "temporal.exe" : "temporal");
    if (Files.isRegularFile(target) && Files.isExecutable(target)) {
      return target;
    }
    URI info = URI.create(base() + "/cli/default?platform=" + encode(os) + "&arch=" + encode(arch)
        + "&format=tar.gz&sdk-name=sdk-java&sdk-version=" + encode(sdk));
    say.accept(PREFIX + " once into " + cache + ", from " + info.getHost() + " ...");
    HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NORMAL).build();
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(info).timeout(Duration.ofSeconds(30))
        .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IOException(info.getHost() + " answered " + answer.statusCode() + " for " + info);
    }
    JsonNode json = new ObjectMapper().readTree(answer.body());
    String archiveUrl = json.path("archiveUrl").asText("");
    String fileToExtract = json.path("fileToExtract").asText("");
    if (archiveUrl.isBlank() || fileToExtract.isBlank()) {
      throw new IOException(info.getHost() + " named no archive for " + os + "/" + arch);
    }
    URI archive = info.resolve(archiveUrl);
    Files.createDirectories(dir);
    Path download = Files.createTempFile(dir, "archive-", ".downloading");
    Path unpacked = Files.createTempFile(dir, "temporal-", ".extracting");
    try {
      HttpResponse<InputStream> got = http.send(HttpRequest.newBuilder(archive).timeout(DOWNLOAD_TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = got.body()) {
        if (got.statusCode() != 200) {
          throw new IOException(archive.getHost() + " answered " + got.statusCode() + " for " + archive);
        }
        long total = got.headers().firstValueAsLong("Content-Length").orElse(-1);
        copyWithProgress(in, download, total, say);
      }
      extract(download, fileToExtract, unpacked);
      if (!unpacked.toFile().setExecutable(true, false)) {
        throw new IOException("cannot make " + unpacked + " executable");
      }
      Files.move(unpacked, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(download);
      Files.deleteIfExists(unpacked);
    }
    return target;
  }

  /** Copies {@code in} to {@code file}, a line through {@code say} at every tenth (or 2 s) and at the end. */
  static void copyWithProgress(InputStream in, Path file, long total, Consumer<String> say) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long done = 0;
    int tenthsSaid = 0;
    long lastSaid = System.nanoTime();
    try (OutputStream out = Files.newOutputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
        done += n;
        int tenths = total > 0 ? (int) (done * 10 / total) : 0;
        long now = System.nanoTime();
        if ((total > 0 && tenths > tenthsSaid && done < total) || now - lastSaid >= PROGRESS_EVERY_NANOS) {
          say.accept(progress(done, total));
          tenthsSaid = tenths;
          lastSaid = now;
        }
      }
    }
    say.accept(progress(done, total) + ", unpacking");
  }

  /** {@code Downloading the Temporal CLI: 12.3 of 45.6 MB (27%)}, or without the total when it is not known. */
  static String progress(long done, long total) {
    String mb = String.format(Locale.ROOT, "%.1f", done / 1_048_576.0);
    return total > 0
        ? PREFIX + ": " + mb + " of " + String.format(Locale.ROOT, "%.1f", total / 1_048_576.0) + " MB ("
            + done * 100 / total + "%)"
        : PREFIX + ": " + mb + " MB";
  }

  /** The file {@code name} of a tar.gz or zip {@code archive}, written to {@code destination}. */
  static void extract(Path archive, String name, Path destination) throws IOException {
    String wanted = normalize(name);
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(archive))) {
      raw.mark(2);
      boolean zip = raw.read() == 'P' && raw.read() == 'K';
      raw.reset();
      try (ArchiveInputStream<?> entries = zip ? new ZipArchiveInputStream(raw)
          : new TarArchiveInputStream(new GZIPInputStream(raw))) {
        for (ArchiveEntry e; (e = entries.getNextEntry()) != null; ) {
          if (!e.isDirectory() && normalize(e.getName()).equals(wanted)) {
            Files.copy(entries, destination, StandardCopyOption.REPLACE_EXISTING);
            return;
          }
        }
      }
    }
    throw new IOException("the Temporal CLI's archive holds no " + name);
  }

  private static String normalize(String name) {
    String n = name.replace('\\', '/');
    while (n.startsWith("./")) {
      n = n.substring(2);
    }
    return n;
  }

  private static String osName() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.contains("mac") || os.contains("darwin")) {
      return "darwin";
    }
    if (os.contains("windows")) {
      return "windows";
    }
    if (os.contains("linux")) {
      return "linux";
    }
    throw new IllegalStateException("the Temporal CLI has no build for " + os);
  }

  private static String arch() {
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (arch.equals("x86_64") || arch.equals("amd64")) {
      return "amd64";
    }
    if (arch.equals("aarch64") || arch.equals("arm64")) {
      return "arm64";
    }
    throw new IllegalStateException("the Temporal CLI has no build for " + arch);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
