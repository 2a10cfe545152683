package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.durableagents.workflows.SearchAttributes;
import io.temporal.common.SearchAttributeKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The compose stack holds together: no Docker engine is needed to check that the worker is built from
 * a Dockerfile that exists, talks to the stack's Temporal, serves metrics where Prometheus scrapes them,
 * that it can be scaled to several replicas, that the search attributes the workflows set are the
 * ones the stack registers, and that every file the stack mounts exists. (Starting it needs {@code docker compose up}; see the README.)
 */
class ComposeStackTest {
  private static final Path ROOT = Path.of("..");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void theWorkerPrometheusAndTheSearchAttributesFitTogether() throws Exception {
    JsonNode compose = YAML.readTree(ROOT.resolve("docker-compose.yml").toFile());
    JsonNode services = compose.path("services");
    for (String service : List.of("postgresql", "temporal", "temporal-ui", "worker", "prometheus")) {
      assertTrue(services.has(service), "no service " + service + " in " + services.fieldNames());
    }

    JsonNode worker = services.path("worker");
    assertTrue(Files.exists(ROOT.resolve(worker.path("build").path("dockerfile").asText())), "worker Dockerfile");
    assertEquals("temporal:7233", worker.path("environment").path("TEMPORAL_ADDRESS").asText());
    String metricsPort = worker.path("environment").path(WorkerSettings.METRICS_PORT).asText();
    // the endpoint listens on loopback by default: the published port needs every interface
    assertEquals("0.0.0.0", worker.path("environment").path(MetricsServer.HOST_VARIABLE).asText());
    assertTrue(metricsPort.matches("\\d+"), "the worker serves metrics: " + worker);
    assertTrue(worker.path("environment").path("OPENAI_API_KEY").asText().startsWith("${"),
        "keys come from the host's environment, never from the file");

    assertTheWorkerScales(worker, metricsPort);

    for (JsonNode service : services) {
      for (JsonNode volume : service.path("volumes")) {
        String source = volume.asText().split(":")[0];
        if (source.startsWith("./")) {
          assertTrue(Files.exists(ROOT.resolve(source)), "mounted " + source + " exists");
        }
      }
    }

    assertTracesGoToJaeger(services);

    String script = Files.readString(ROOT.resolve("deploy/scripts/create-namespace.sh"));
    List<String> expected = new ArrayList<>();
    for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
      String type = key.getValueType().name();
      String cli = type.equals("INDEXED_VALUE_TYPE_KEYWORD") ? "Keyword"
          : type.equals("INDEXED_VALUE_TYPE_INT") ? "Int"
          : type.equals("INDEXED_VALUE_TYPE_BOOL") ? "Bool"
          : type.substring("INDEXED_VALUE_TYPE_".length()).toLowerCase(Locale.ROOT);
      expected.add(key.getName() + ":" + cli);
    }
    for (String attribute : expected) {
      assertTrue(script.contains(attribute), "the stack registers " + attribute + ": " + script);
    }
  }

  /**
   * {@code docker compose up --scale worker=3} can run: the worker has no fixed container name, and
   * publishes its metrics port from a range with room for several replicas, not one fixed host port
   * (a second replica could not bind it); {@code deploy.replicas} defaults to one. Prometheus finds
   * every replica by the service's name in Docker's DNS instead of scraping one fixed target.
   */
  private static void assertTheWorkerScales(JsonNode worker, String metricsPort) throws Exception {
    assertTrue(worker.path("container_name").isMissingNode(), "a fixed container name stops scaling: " + worker);
    assertEquals("${WORKER_REPLICAS:-1}", worker.path("deploy").path("replicas").asText());
    for (JsonNode port : worker.path("ports")) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)-(\\d+):(\\d+)").matcher(port.asText());
      assertTrue(m.matches(), "a fixed host port stops a second replica: " + port.asText());
      assertTrue(Integer.parseInt(m.group(2)) - Integer.parseInt(m.group(1)) >= 2, "room for 3 replicas: " + port);
      assertEquals(metricsPort, m.group(3));
    }
    JsonNode prometheus = YAML.readTree(ROOT.resolve("deploy/prometheus/prometheus.yml").toFile());
    JsonNode dns = prometheus.path("scrape_configs").path(0).path("dns_sd_configs").path(0);
    assertEquals("worker", dns.path("names").path(0).asText(), prometheus.toString());
    assertEquals("A", dns.path("type").asText());
    assertEquals(metricsPort, dns.path("port").asText());
  }

  /**
   * The worker's OTEL_* variables turn tracing on and point at the stack's Jaeger, on the OTLP port of
   * the protocol they name; Jaeger's UI is published on 16686.
   */
  private static void assertTracesGoToJaeger(JsonNode services) {
    assertTrue(services.has("jaeger"), "no service jaeger");
    JsonNode jaeger = services.path("jaeger");
    assertTrue(jaeger.path("image").asText().startsWith("jaegertracing/"), jaeger.toString());
    java.util.Map<String, String> env = new java.util.HashMap<>();
    services.path("worker").path("environment").fields()
        .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    assertTrue(io.durableagents.worker.tracing.AgentTracing.isConfigured(env), "the worker traces: " + env);
    String protocol = env.getOrDefault("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
    String port = protocol.equals("grpc") ? "4317" : "4318";
    assertEquals("http://jaeger:" + port, env.get(io.durableagents.worker.tracing.AgentTracing.OTLP_ENDPOINT));
    List<String> published = new ArrayList<>();
    jaeger.path("ports").forEach(p -> published.add(p.asText()));
    assertTrue(published.contains("16686:16686"), "Jaeger's UI is published: " + published);
    assertTrue(published.contains(port + ":" + port), "the OTLP port is published: " + published);
    assertTrue(services.path("worker").path("depends_on").has("jaeger"), "the worker starts after Jaeger");
  }
}
