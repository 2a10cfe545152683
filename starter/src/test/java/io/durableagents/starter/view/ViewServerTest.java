package io.durableagents.starter.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.starter.StarterMain;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The view's HTTP rules without a Temporal: the token (refused at start-up without one beyond this machine;
 * then required on every request, by bearer or by the cookie the first page sets), the Host check on
 * loopback, actions only as JSON POSTs, the pages and uPlot served from the classpath, and the world and
 * agent endpoints answered from a {@link SimulationPast} (a stand-in here).
 */
class ViewServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static WorkflowServiceStubs nowhere;
  private static final List<String> asked = new ArrayList<>();
  private static ViewServer open;
  private static ViewServer guarded;
  private final HttpClient http = HttpClient.newHttpClient();

  /** A past of two agents on a 3x2 grid, that records what it was asked. */
  static final class StandInPast implements SimulationPast {
    @Override
    public JsonNode world(String simulationId, int step) {
      asked.add("world " + simulationId + " " + step);
      return JSON.valueToTree(java.util.Map.of("step", step, "grid", java.util.Map.of("width", 3, "height", 2),
          "agents", List.of(java.util.Map.of("id", "citizen-0", "role", "citizen", "x", 1, "y", 0, "color", "red",
              "shape", "circle", "label", "active", "attributes", java.util.Map.of()))));
    }

    @Override
    public JsonNode agent(String simulationId, String agentId, int step) {
      asked.add("agent " + simulationId + " " + agentId + " " + step);
      return JSON.valueToTree(java.util.Map.of("agentId", agentId, "step", step, "memory", "rebelled at step 4"));
    }
  }

  @BeforeAll
  static void start() throws Exception {
    // a Temporal that is not there: these requests never reach it
    nowhere = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:1").build());
    WorkflowClient client = WorkflowClient.newInstance(nowhere);
    open = new ViewServer("127.0.0.1", 0, client, new StandInPast(), null, "127.0.0.1:1", null);
    guarded = new ViewServer("127.0.0.1", 0, client, new StandInPast(), "s3cret", "127.0.0.1:1", null);
  }

  @AfterAll
  static void stop() {
    open.close();
    guarded.close();
    nowhere.shutdownNow();
  }

  private HttpResponse<String> get(ViewServer server, String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aHostBeyondThisMachineIsRefusedWithoutAToken() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    var line = StarterMain.commandLine();
    line.setErr(new java.io.PrintWriter(err, true));
    PrintStream before = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = line.execute("view", "--host", "0.0.0.0", "--port", "0");
    } finally {
      System.setErr(before);
    }
    String said = printed + err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, said);
    assertTrue(said.contains("--host 0.0.0.0") && said.contains("--token")
        && said.contains(ViewCommand.TOKEN_VARIABLE), said);
    assertTrue(said.lines().count() <= 3 && !said.contains("\tat "), "a line or two, no stack trace: " + said);
  }

  @Test
  void everyRequestCarriesTheTokenWhenThereIsOne() throws Exception {
    assertEquals(401, get(guarded, "/").statusCode());
    assertEquals(401, get(guarded, "/api/simulations/s1/world?step=1").statusCode());
    assertEquals(401, get(guarded, "/api/simulations/s1/world?step=1", "Authorization", "Bearer wrong").statusCode());
    HttpResponse<String> bearer = get(guarded, "/api/simulations/s1/world?step=1", "Authorization", "Bearer s3cret");
    assertEquals(200, bearer.statusCode(), bearer.body());

    HttpResponse<String> first = get(guarded, "/?token=s3cret");
    assertEquals(200, first.statusCode());
    String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
    HttpResponse<String> script = get(guarded, "/assets/simulation.js", "Cookie", cookie.split(";")[0]);
    assertEquals(200, script.statusCode());
    assertEquals(401, get(guarded, "/assets/simulation.js", "Cookie", ViewServer.COOKIE + "=guess").statusCode());
    assertEquals(401, get(guarded, "/?token=guess").statusCode());
  }

  @Test
  void withoutATokenOnlyThisMachinesNamesAreAnswered() throws Exception {
    assertEquals(200, get(open, "/").statusCode());
    HttpRequest rebound = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + open.port() + "/api/simulations"))
        .build();
    // the JDK's client will not send another Host: ask over a plain socket as a rebinding page would
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", open.port())) {
      s.getOutputStream().write(("GET /api/simulations HTTP/1.1\r\nHost: attacker.example:" + open.port()
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
    }
    assertNotNull(rebound);
  }

  @Test
  void actionsArePostsWithAJsonBody() throws Exception {
    HttpResponse<String> form = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + open.port() + "/api/simulations/s1/pause"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("x=1")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(415, form.statusCode());
    HttpResponse<String> unknown = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + open.port() + "/api/simulations/s1/explode"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(400, unknown.statusCode(), unknown.body());
    assertTrue(unknown.body().contains("no action 'explode'"), unknown.body());
  }

  @Test
  void thePagesAndUplotComeFromTheClasspath() throws Exception {
    assertTrue(get(open, "/").body().contains("Simulations"));
    assertTrue(get(open, "/simulation?id=s1").body().contains("uPlot.iife.min.js"));
    HttpResponse<String> uplot = get(open, "/assets/uplot/uPlot.iife.min.js");
    assertEquals(200, uplot.statusCode());
    assertTrue(uplot.body().contains("uPlot"), "uPlot's own script");
    assertEquals(404, get(open, "/assets/..%2F..%2Fapplication.conf").statusCode());
  }

  @Test
  void theWorldAndAnAgentAtAStepComeFromThePast() throws Exception {
    asked.clear();
    HttpResponse<String> world = get(open, "/api/simulations/sim%2Fx/world?step=5");
    assertEquals(200, world.statusCode(), world.body());
    JsonNode w = JSON.readTree(world.body());
    assertEquals(3, w.path("grid").path("width").asInt());
    assertEquals("citizen-0", w.path("agents").get(0).path("id").asText());
    HttpResponse<String> agent = get(open, "/api/simulations/sim%2Fx/agents/citizen-0?step=5");
    assertEquals("rebelled at step 4", JSON.readTree(agent.body()).path("memory").asText());
    assertEquals(List.of("world sim/x 5", "agent sim/x citizen-0 5"), asked);
    HttpResponse<String> bad = get(open, "/api/simulations/s1/world?step=five");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("step=five is not a step"), bad.body());
  }
}
