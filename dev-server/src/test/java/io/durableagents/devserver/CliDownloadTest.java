package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first run's download of the Temporal CLI says so before it starts and how far it got while it
 * runs; here from a download site on loopback that serves a fake CLI in a tar.gz as temporal.download
 * does (the answer naming the archive, then the archive).
 */
class CliDownloadTest {
  @TempDir
  Path dir;

  private HttpServer site;
  /** What was said and what the site served, in the order they happened. */
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void startSite() throws Exception {
    // 3 MB of a script that the archive's compression cannot shrink away: progress has bytes to count
    StringBuilder script = new StringBuilder("#!/bin/sh\necho fake temporal\n");
    java.util.Random random = new java.util.Random(7);
    while (script.length() < 3_000_000) {
      script.append("# ").append(Long.toHexString(random.nextLong())).append('\n');
    }
    byte[] cli = script.toString().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream tgz = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(tgz))) {
      TarArchiveEntry readme = new TarArchiveEntry("README.md");
      byte[] text = "not the CLI".getBytes(StandardCharsets.UTF_8);
      readme.setSize(text.length);
      tar.putArchiveEntry(readme);
      tar.write(text);
      tar.closeArchiveEntry();
      TarArchiveEntry entry = new TarArchiveEntry("./temporal");
      entry.setSize(cli.length);
      tar.putArchiveEntry(entry);
      tar.write(cli);
      tar.closeArchiveEntry();
    }
    byte[] archive = tgz.toByteArray();
    site = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    site.createContext("/cli/default", exchange -> {
      events.add("site: asked for " + exchange.getRequestURI().getQuery());
      byte[] body = ("{\"archiveUrl\":\"http://127.0.0.1:" + site.getAddress().getPort() + "/archive.tar.gz\","
          + "\"fileToExtract\":\"temporal\"}").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    site.createContext("/archive.tar.gz", exchange -> {
      events.add("site: archive sent");
      exchange.sendResponseHeaders(200, archive.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(archive);
      }
    });
    site.start();
    System.setProperty(CliDownload.BASE_URL_PROPERTY, "http://127.0.0.1:" + site.getAddress().getPort());
  }

  @AfterEach
  void stopSite() {
    System.clearProperty(CliDownload.BASE_URL_PROPERTY);
    site.stop(0);
  }

  @Test
  void theDownloadIsSaidBeforeItStartsThenItsProgressThenTheCliIsCached() throws Exception {
    Path cache = dir.resolve("temporal-cli");
    Path cli = CliDownload.install(cache, line -> events.add("said: " + line));
    List<String> seen = List.copyOf(events);
    assertEquals("said: Downloading the Temporal CLI once into " + cache + ", from 127.0.0.1 ...", seen.get(0),
        "said first, before the site was asked: " + seen);
    assertTrue(seen.get(1).startsWith("site: asked for platform=linux&arch="), seen.toString());
    assertTrue(seen.get(1).contains("&sdk-name=sdk-java&sdk-version="), seen.get(1));
    assertEquals("site: archive sent", seen.get(2));
    List<String> progress = seen.subList(3, seen.size());
    assertTrue(progress.size() >= 5, "a line at every tenth of the archive: " + progress);
    for (String line : progress) {
      assertTrue(line.matches("said: Downloading the Temporal CLI: \\d+\\.\\d of \\d+\\.\\d MB \\(\\d+%\\).*"), line);
    }
    assertTrue(progress.get(progress.size() - 1).endsWith("(100%), unpacking"), progress.toString());
    assertTrue(Files.isExecutable(cli), cli.toString());
    assertTrue(Files.readString(cli).startsWith("#!/bin/sh\necho fake temporal\n"));
    assertTrue(cli.startsWith(cache));
    assertEquals(cli, CliSources.cached(new LocalTemporal.Settings("127.0.0.1", 0, 0, dir.resolve("t.db"), null,
        null, true, false, dir, List.of())), "an earlier run's download is found in the cache");

    events.clear();
    assertEquals(cli, CliDownload.install(cache, line -> events.add("said: " + line)));
    assertEquals(List.of(), events, "downloaded once");
  }
}
