package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.durableagents.worker.tracing.AgentTracing;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Spans leave the worker over OTLP as the standard variables say, in both protocols, to local
 * stand-ins of a collector: {@code http/protobuf} (a POST to {@code /v1/traces}) and {@code grpc}
 * (Temporal's own gRPC, {@code TraceService/Export}). The protobuf bodies carry our span names,
 * attributes and the service name in plain UTF-8, which is what is checked.
 */
class OtlpExportTest {
  @Test
  void httpProtobuf() throws Exception {
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    List<String> contentTypes = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/traces", exchange -> {
      bodies.add(exchange.getRequestBody().readAllBytes());
      contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
      exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    try {
      runATask(Map.of(
          "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort(),
          "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
          "OTEL_SERVICE_NAME", "otlp-http-test"));
    } finally {
      server.stop(0);
    }
    assertTrue(contentTypes.stream().allMatch("application/x-protobuf"::equals), contentTypes.toString());
    assertExported(bodies, "otlp-http-test");
  }

  @Test
  void grpc() throws Exception {
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    MethodDescriptor.Marshaller<byte[]> bytes = new MethodDescriptor.Marshaller<>() {
      @Override
      public InputStream stream(byte[] value) {
        return new ByteArrayInputStream(value);
      }

      @Override
      public byte[] parse(InputStream stream) {
        try {
          return stream.readAllBytes();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
    String service = "opentelemetry.proto.collector.trace.v1.TraceService";
    MethodDescriptor<byte[], byte[]> export = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(service + "/Export")
        .setRequestMarshaller(bytes).setResponseMarshaller(bytes).build();
    Server server = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
        .forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(ServerServiceDefinition.builder(service)
        .addMethod(export, ServerCalls.asyncUnaryCall((request, response) -> {
          bodies.add(request);
          response.onNext(new byte[0]); // an empty ExportTraceServiceResponse
          response.onCompleted();
        })).build()).build().start();
    try {
      runATask(Map.of(
          "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + server.getPort(),
          "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
          "OTEL_SERVICE_NAME", "otlp-grpc-test"));
    } finally {
      server.shutdownNow();
    }
    assertExported(bodies, "otlp-grpc-test");
  }

  /** A task with the rules model on a worker configured from {@code env}; closes its tracing. */
  private static void runATask(Map<String, String> env) {
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env).build();
    AgentTracing tracing = plugin.tracing().orElseThrow();
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    plugin.configureWorkerFactory(factory);
    try (TestWorkflowEnvironment env2 = TestWorkers.start(plugin,
        TestEnvironmentOptions.newBuilder().setWorkerFactoryOptions(factory.build()).build())) {
      env2.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("otlp-task").build())
          .run(new AgentTaskInput("What is 6 * 7?", List.of("calculator"), null));
    } finally {
      tracing.close();
    }
  }

  private static void assertExported(List<byte[]> bodies, String serviceName) {
    assertTrue(!bodies.isEmpty(), "nothing was exported");
    StringBuilder all = new StringBuilder();
    for (byte[] body : bodies) {
      all.append(new String(body, StandardCharsets.ISO_8859_1));
    }
    for (String expected : List.of(serviceName, "invoke_agent task", "chat rules", "execute_tool calculator",
        "gen_ai.operation.name", "gen_ai.usage.input_tokens", "gen_ai.tool.name", "temporal.workflow.id")) {
      assertTrue(all.indexOf(expected) >= 0, expected + " is in what was exported");
    }
    assertEquals(-1, all.indexOf("What is 6 * 7?"), "the task's text is not");
  }
}
