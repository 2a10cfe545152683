package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.durableagents.starter.run.Origin;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The view's HTTP server (the JDK's {@code com.sun.net.httpserver}): the pages and their scripts from the
 * classpath ({@code view/}, uPlot from its WebJar), the JSON API the pages read and act through, and one
 * Server-Sent Events stream per open simulation page, fed by one {@link SimulationFeed} per simulation.
 *
 * <p>Safety: with a token, every request must carry it ({@code Authorization: Bearer}, the cookie the
 * first page sets, or {@code ?token=} on the first page); without one, only this machine's names are
 * accepted as {@code Host} (no DNS rebinding). An action is a POST with a JSON body (which a page of
 * another site cannot send without CORS, which this server never allows). Nothing is fetched from or
 * sent to anywhere but the Temporal the view reads.
 */
public final class ViewServer implements AutoCloseable {
  /** How often an open simulation's progress is read, at most. */
  public static final long TICK_MILLIS = 1_000;
  static final String COOKIE = "durable_agents_view";
  private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
  /**
   * The pages, by path: each an HTML file under {@code view/} with its own script, which shares {@code
   * page.js} (requests, messages, the ready mark) with the others. A new page is one entry here, its HTML
   * and its script.
   */
  static final Map<String, String> PAGES = Map.of("/", "index.html", "/simulation", "simulation.html",
      "/experiment", "experiment.html");

  private final HttpServer http;
  private final ExecutorService handlers;
  private final ScheduledExecutorService pollers;
  private final WorkflowClient client;
  private final SimulationPast past;
  private final String token;
  private final String temporalUi;
  private final String temporalAddress;
  private final ObjectMapper json = new ObjectMapper().findAndRegisterModules();
  private final Map<String, SimulationFeed> feeds = new ConcurrentHashMap<>();
  private final Map<String, ScheduledFuture<?>> polling = new ConcurrentHashMap<>();

  /**
   * Listens on {@code host:port} (0: any free port).
   *
   * @param past the simulation's past (world and agents after a step), or null where none is read
   * @param token the token every request must carry, or null for none
   * @param temporalUi the Temporal UI's address for links, or null
   */
  public ViewServer(String host, int port, WorkflowClient client, SimulationPast past, String token,
      String temporalAddress, String temporalUi) throws IOException {
    this.client = client;
    this.past = past;
    this.token = token == null || token.isBlank() ? null : token;
    this.temporalAddress = temporalAddress;
    this.temporalUi = temporalUi;
    this.http = HttpServer.create(new InetSocketAddress(host, port), 0);
    this.handlers = Executors.newCachedThreadPool(daemon("durable-agents-view"));
    this.pollers = Executors.newScheduledThreadPool(2, daemon("durable-agents-view-poll"));
    http.setExecutor(handlers);
    http.createContext("/", this::handle);
    http.start();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  public int port() {
    return http.getAddress().getPort();
  }

  /** The queries the view has sent to a simulation so far, by name (for tests and the benchmark). */
  public Map<String, Long> queries(String simulationId) {
    SimulationFeed feed = feeds.get(simulationId);
    return feed == null ? Map.of() : feed.queries();
  }

  @Override
  public void close() {
    http.stop(0);
    pollers.shutdownNow();
    handlers.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      if (!hostAllowed(exchange)) {
        send(exchange, 403, "text/plain", "This view answers to its own address only.");
        return;
      }
      String path = exchange.getRequestURI().getRawPath();
      String query = exchange.getRequestURI().getRawQuery();
      boolean page = PAGES.containsKey(path);
      if (token != null) {
        String given = queryValue(query, "token");
        if (page && given != null && same(token, given)) {
          exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
        } else if (!authorized(exchange)) {
          send(exchange, 401, "text/plain", "This view needs its token: open the address it printed (with "
              + "?token=...), or send Authorization: Bearer <token>.");
          return;
        }
      }
      route(exchange, path, query);
    } catch (RuntimeException e) {
      ViewActions.Refusal refusal = ViewActions.refusal(e);
      ObjectNode body = json.createObjectNode().put("error", refusal != null ? refusal.message()
          : String.valueOf(e.getMessage()));
      if (refusal != null && refusal.hint() != null) {
        body.put("hint", refusal.hint());
      }
      int status = refusal == null ? 500 : refusal.exitCode() == 3 ? 404 : refusal.exitCode() == 2 ? 400 : 503;
      try {
        sendJson(exchange, status, body);
      } catch (IOException | RuntimeException closed) {
        // the page went away
      }
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, String path, String query) throws IOException {
    String method = exchange.getRequestMethod();
    List<String> parts = Arrays.stream(path.split("/")).skip(1)
        .map(p -> URLDecoder.decode(p, StandardCharsets.UTF_8)).toList();
    if (method.equals("GET") && PAGES.containsKey(path)) {
      resource(exchange, "view/" + PAGES.get(path));
    } else if (method.equals("GET") && parts.size() == 2 && parts.get(0).equals("api") && parts.get(1).equals("experiments")) {
      sendJson(exchange, 200, json.createObjectNode().set("experiments", new ExperimentView(client, json).list(50)));
    } else if (method.equals("GET") && parts.size() == 3 && parts.get(0).equals("api") && parts.get(1).equals("experiments")) {
      sendJson(exchange, 200, new ExperimentView(client, json).experiment(parts.get(2)));
    } else if (method.equals("GET") && parts.size() == 2 && parts.get(0).equals("assets")) {
      resource(exchange, "view/" + parts.get(1));
    } else if (method.equals("GET") && parts.size() == 3 && parts.get(0).equals("assets") && parts.get(1).equals("uplot")) {
      resource(exchange, UPLOT + parts.get(2));
    } else if (parts.size() >= 2 && parts.get(0).equals("api") && parts.get(1).equals("simulations")) {
      api(exchange, method, parts.subList(2, parts.size()), query);
    } else {
      send(exchange, 404, "text/plain", "Not here: " + path);
    }
  }

  private void api(HttpExchange exchange, String method, List<String> rest, String query) throws IOException {
    if (rest.isEmpty() && method.equals("GET")) {
      ObjectNode body = json.createObjectNode().put("temporal", temporalAddress).put("temporalUi", temporalUi);
      body.set("simulations", json.valueToTree(ViewActions.simulations(client.getWorkflowServiceStubs(),
          client.getOptions().getNamespace(), 50)));
      sendJson(exchange, 200, body);
      return;
    }
    if (rest.isEmpty()) {
      send(exchange, 405, "text/plain", "GET only");
      return;
    }
    String id = rest.get(0);
    String what = rest.size() > 1 ? rest.get(1) : "";
    if (method.equals("GET")) {
      switch (what) {
        case "" -> sendJson(exchange, 200, about(id));
        case "events" -> events(exchange, id);
        case "world" -> sendJson(exchange, 200, past().world(id, step(query)));
        case "agents" -> {
          if (rest.size() != 3) {
            send(exchange, 404, "text/plain", "GET /api/simulations/{id}/agents/{agentId}?step=N");
            return;
          }
          sendJson(exchange, 200, past().agent(id, rest.get(2), step(query)));
        }
        default -> send(exchange, 404, "text/plain", "No such view of a simulation: " + what);
      }
      return;
    }
    if (!method.equals("POST")) {
      send(exchange, 405, "text/plain", "GET or POST");
      return;
    }
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.startsWith("application/json")) {
      send(exchange, 415, "text/plain", "An action is a POST with a JSON body (Content-Type: application/json).");
      return;
    }
    JsonNode body;
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(1 << 20);
      body = bytes.length == 0 ? json.createObjectNode() : json.readTree(bytes);
    } catch (IOException e) {
      throw ViewActions.usage("the body is not JSON: " + e.getMessage(), "Send a JSON object.");
    }
    String said = new PageActions(client, json).act(id, what, body);
    SimulationFeed feed = feeds.get(id);
    if (feed != null) {
      feed.poke();
    }
    ObjectNode answer = json.createObjectNode().put("message", said);
    if (said.startsWith("Forked ")) {
      answer.put("id", said.substring(said.indexOf(" as ") + 4, said.indexOf(" (")));
    }
    sendJson(exchange, 200, answer);
  }

  private SimulationPast past() {
    if (past == null) {
      throw ViewActions.usage("this view reads no past steps", "Start it with 'durable-agents view'.");
    }
    return past;
  }

  private static int step(String query) {
    String s = queryValue(query, "step");
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw ViewActions.usage("step=" + s + " is not a step", "Give ?step=N, a completed step.");
    }
  }

  /** What the page needs once: the scenario's adjustable parameters and where the run is in the Temporal UI. */
  private ObjectNode about(String id) {
    ObjectNode about = json.createObjectNode().put("id", id).put("temporal", temporalAddress);
    String scenario = null;
    try {
      io.temporal.client.WorkflowExecutionDescription d = client.newUntypedWorkflowStub(id).describe();
      scenario = d.getTypedSearchAttributes().get(io.durableagents.workflows.SearchAttributes.SCENARIO);
      io.temporal.api.common.v1.Memo memo = d.getRawDescription().getWorkflowExecutionInfo().getMemo();
      if (memo.containsFields(Origin.MEMO_KEY)) {
        Map<?, ?> origin = io.temporal.common.converter.DefaultDataConverter.STANDARD_INSTANCE
            .fromPayload(memo.getFieldsOrThrow(Origin.MEMO_KEY), Map.class, Map.class);
        about.set("origin", json.valueToTree(origin));
        about.put("originText", Origin.describe(origin));
      }
    } catch (RuntimeException e) {
      // no search attributes (the in-memory server): the progress says the scenario
    }
    if (scenario == null) {
      try {
        scenario = client.newWorkflowStub(io.durableagents.workflows.simulation.SimulationWorkflow.class, id)
            .progress().scenario();
      } catch (RuntimeException e) {
        // closed and no worker: no form
      }
    }
    about.put("scenario", scenario);
    about.set("adjustable", json.valueToTree(ViewActions.adjustableParameters(scenario)));
    if (temporalUi != null) {
      about.put("temporalUi", temporalUi + "/namespaces/" + client.getOptions().getNamespace() + "/workflows/"
          + id.replace("/", "%2F"));
    }
    return about;
  }

  /** The page's stream: what was read so far, then each change, until the page closes. */
  private void events(HttpExchange exchange, String id) throws IOException {
    SimulationFeed feed = feeds.computeIfAbsent(id, k -> new SimulationFeed(client, k, json));
    BlockingQueue<SimulationFeed.Event> queue = feed.open();
    polling.computeIfAbsent(id, k -> pollers.scheduleWithFixedDelay(() -> tick(k), 0, TICK_MILLIS,
        TimeUnit.MILLISECONDS));
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    try {
      while (true) {
        SimulationFeed.Event e = queue.poll(15, TimeUnit.SECONDS);
        String text = e == null ? ": still here\n\n" : "event: " + e.name() + "\ndata: " + e.data() + "\n\n";
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException | InterruptedException gone) {
      // the page closed
    } finally {
      feed.close(queue);
    }
  }

  private void tick(String id) {
    SimulationFeed feed = feeds.get(id);
    if (feed == null || !feed.watched()) {
      ScheduledFuture<?> f = polling.remove(id);
      if (f != null) {
        f.cancel(false);
      }
      return;
    }
    try {
      feed.tick();
    } catch (RuntimeException e) {
      // Temporal did not answer this time: the next tick asks again
    }
  }

  private boolean hostAllowed(HttpExchange exchange) {
    if (token != null) {
      return true;
    }
    String host = exchange.getRequestHeaders().getFirst("Host");
    if (host == null) {
      return false;
    }
    String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1)
        : host.contains(":") ? host.substring(0, host.lastIndexOf(':')) : host;
    return name.equals("127.0.0.1") || name.equals("localhost") || name.equals("[::1]");
  }

  private boolean authorized(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null && header.startsWith("Bearer ") && same(token, header.substring(7))) {
      return true;
    }
    String cookies = exchange.getRequestHeaders().getFirst("Cookie");
    if (cookies != null) {
      for (String c : cookies.split(";")) {
        String[] kv = c.trim().split("=", 2);
        if (kv.length == 2 && kv[0].equals(COOKIE) && same(token, kv[1])) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean same(String expected, String given) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }

  static String queryValue(String rawQuery, String name) {
    if (rawQuery == null) {
      return null;
    }
    for (String pair : rawQuery.split("&")) {
      String[] kv = pair.split("=", 2);
      if (kv[0].equals(name)) {
        return kv.length == 2 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
      }
    }
    return null;
  }

  private void resource(HttpExchange exchange, String name) throws IOException {
    if (name.contains("..")) {
      send(exchange, 404, "text/plain", "Not here");
      return;
    }
    try (InputStream in = ViewServer.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        send(exchange, 404, "text/plain", "Not here: " + name);
        return;
      }
      String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".css") ? "text/css"
          : name.endsWith(".js") ? "text/javascript" : "application/octet-stream";
      exchange.getResponseHeaders().set("Cache-Control", "no-cache");
      send(exchange, 200, type, in.readAllBytes());
    }
  }

  private void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
    send(exchange, status, "application/json", json.writeValueAsBytes(body));
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
