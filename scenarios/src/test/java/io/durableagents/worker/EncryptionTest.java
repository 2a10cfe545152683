package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.worker.codec.CodecServer;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With encryption on, no history holds a plaintext prompt or answer, and keys can rotate. */
class EncryptionTest {
  private static final String K1 = Base64.getEncoder().encodeToString(new byte[32]);
  private static final String K2 = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

  private static AesGcmPayloadCodec codec(String current) {
    return AesGcmPayloadCodec.fromEnvironment(Map.of(AesGcmPayloadCodec.KEYS_VARIABLE, "k1:" + K1 + ",k2:" + K2,
        AesGcmPayloadCodec.KEY_ID_VARIABLE, current));
  }

  @Test
  void historiesHoldNoPlaintextAndTheResultStillReads() {
    AesGcmPayloadCodec codec = codec("k2");
    TestEnvironmentOptions options = TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder()
            .setDataConverter(new CodecDataConverter(DefaultDataConverter.newDefaultInstance(), List.of(codec)))
            .build())
        .build();
    try (TestWorkflowEnvironment env = TestWorkers.start(Builtins.plugin().build(), options)) {
      SimulationResult r = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-enc").build())
          .run(new SimulationInput("epstein", 1, 2, EpsteinParameters.DEFAULTS.withAgents(2, 1), null, null, null));
      assertEquals(1, r.steps());

      WorkflowClient plain = WorkflowClient.newInstance(env.getWorkflowServiceStubs());
      int payloads = 0;
      for (String wf : List.of("sim-enc", "sim-enc/agent-citizen-0/step-1")) {
        for (HistoryEvent e : plain.fetchHistory(wf).getEvents()) {
          for (Payload p : payloadsOf(e)) {
            payloads++;
            assertEquals(AesGcmPayloadCodec.ENCODING, p.getMetadataMap().get("encoding").toStringUtf8());
            assertEquals("k2", p.getMetadataMap().get(AesGcmPayloadCodec.METADATA_KEY_ID).toStringUtf8());
            String raw = p.getData().toString(StandardCharsets.ISO_8859_1);
            assertFalse(raw.contains("self_state") || raw.contains("Thought") || raw.contains("rule-based"), wf);
          }
        }
      }
      assertTrue(payloads > 5, "payloads checked: " + payloads);
    }
  }

  private static List<Payload> payloadsOf(HistoryEvent e) {
    if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      return e.getActivityTaskScheduledEventAttributes().getInput().getPayloadsList();
    }
    if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      return e.getActivityTaskCompletedEventAttributes().getResult().getPayloadsList();
    }
    if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      return e.getWorkflowExecutionStartedEventAttributes().getInput().getPayloadsList();
    }
    return List.of();
  }

  @Test
  void clientsMadeFromTheEnvironmentEncryptWithTheSdksDefaultConverterUnderneath() {
    Map<String, String> env = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1", AesGcmPayloadCodec.KEYS_VARIABLE, "k1:" + K1);
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:1").build());
    try {
      TemporalConnection connection = TemporalConnection.fromEnvironment(env);
      // the starter's client (no plugin) and a worker's (the plugin from the same environment)
      for (WorkflowClient client : List.of(connection.client(service),
          connection.client(service, Builtins.plugin().configureFromEnvironment(env).build()))) {
        Payload p = client.getOptions().getDataConverter().toPayload("What is 19 * 21?").orElseThrow();
        assertEquals(AesGcmPayloadCodec.ENCODING, p.getMetadataMap().get("encoding").toStringUtf8());
        assertEquals("What is 19 * 21?", client.getOptions().getDataConverter().fromPayload(p, String.class, String.class));
      }
    } finally {
      service.shutdownNow();
    }
  }

  @Test
  void keysRotateAndAnUnknownKeyIsAClearError() {
    Payload plain = DefaultDataConverter.newDefaultInstance().toPayload("secret answer").orElseThrow();
    List<Payload> byK1 = codec("k1").encode(List.of(plain));
    assertEquals(plain, codec("k2").decode(byK1).get(0), "old payloads still decrypt after rotating to k2");
    AesGcmPayloadCodec onlyK2 = AesGcmPayloadCodec.fromEnvironment(Map.of(AesGcmPayloadCodec.KEYS_VARIABLE, "k2:" + K2));
    assertTrue(assertThrows(RuntimeException.class, () -> onlyK2.decode(byK1)).getMessage().contains("'k1'"));
    assertEquals(List.of(plain), codec("k2").decode(List.of(plain)), "unencrypted payloads pass through");
    String bad = assertThrows(IllegalArgumentException.class, () -> AesGcmPayloadCodec.fromEnvironment(
        Map.of(AesGcmPayloadCodec.KEYS_VARIABLE, "k1:AAAA"))).getMessage();
    assertTrue(bad.contains("DURABLE_AGENTS_ENCRYPTION_KEYS") && bad.contains("16, 24 or 32 bytes"), bad);
  }

  @Test
  void theCodecEndpointDecodesForAnAuthorisedViewerOnly() throws Exception {
    AesGcmPayloadCodec codec = codec("k1");
    Payload plain = DefaultDataConverter.newDefaultInstance().toPayload("the model's answer").orElseThrow();
    Payload sealed = codec.encode(List.of(plain)).get(0);
    String body = com.google.protobuf.util.JsonFormat.printer().print(
        io.temporal.api.common.v1.Payloads.newBuilder().addPayloads(sealed).build());
    try (CodecServer server = new CodecServer("127.0.0.1", 0, codec, "http://localhost:8080", "t0ken")) {
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/decode"))
          .POST(HttpRequest.BodyPublishers.ofString(body)).header("X-Namespace", "default");
      assertEquals(401, http.send(req.build(), HttpResponse.BodyHandlers.ofString()).statusCode());
      HttpResponse<String> ok = http.send(req.header("Authorization", "Bearer t0ken").build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode());
      io.temporal.api.common.v1.Payloads.Builder decoded = io.temporal.api.common.v1.Payloads.newBuilder();
      com.google.protobuf.util.JsonFormat.parser().merge(ok.body(), decoded);
      assertEquals(plain, decoded.getPayloads(0));
      assertEquals("http://localhost:8080", ok.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
    }
  }
}
