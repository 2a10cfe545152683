package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's start with an MCP server that cannot be reached: it stops, naming the server. */
class WorkerMainMcpTest {
  @Test
  void aWorkerWhoseMcpServerCannotBeReachedStopsNamingIt(@TempDir Path dir) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path file = dir.resolve("mcp.yaml");
    Files.writeString(file, "mcp_servers:\n  search:\n    url: http://127.0.0.1:" + port + "/mcp\n");
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      code = WorkerMain.run(Map.of(WorkerSettings.MCP_SERVERS, file.toString(), WorkerSettings.STICKY, "on",
          "TEMPORAL_ADDRESS", "127.0.0.1:" + port));
    } finally {
      System.setErr(err);
    }
    String said = captured.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, said);
    assertTrue(said.contains("durable-agents worker: MCP server search (http://127.0.0.1:" + port
        + "/mcp) cannot be reached"), said);
    assertTrue(said.contains("Start that server, or fix or remove its entry (DURABLE_AGENTS_MCP_SERVERS)."), said);
  }
}
