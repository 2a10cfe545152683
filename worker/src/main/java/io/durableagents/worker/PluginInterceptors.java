package io.durableagents.worker;

import io.durableagents.worker.tracing.AgentTracing;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.GlobalDataConverter;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.common.interceptors.WorkflowClientInterceptor;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.worker.WorkerFactoryOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the plugin adds to the clients and worker factories made with it, after what the application set
 * there already: the worker interceptors (log context, execution journal, tracing, the application's own),
 * tracing's client interceptor, and the payload codec around the data converter.
 */
final class PluginInterceptors {
  private final List<WorkerInterceptor> interceptors;
  private final AgentTracing tracing;
  private final PayloadCodec payloadCodec;

  /** The builder's worker interceptors, then tracing's (if any); and the codec (null for none). */
  PluginInterceptors(List<WorkerInterceptor> workerInterceptors, AgentTracing tracing, PayloadCodec payloadCodec) {
    List<WorkerInterceptor> all = new ArrayList<>(workerInterceptors);
    if (tracing != null) {
      all.add(tracing.workerInterceptor());
    }
    this.interceptors = List.copyOf(all);
    this.tracing = tracing;
    this.payloadCodec = payloadCodec;
  }

  /** Adds tracing's client interceptor and wraps the data converter in the codec. */
  void configureWorkflowClient(WorkflowClientOptions.Builder builder) {
    if (tracing != null) {
      WorkflowClientInterceptor[] existing = builder.build().getInterceptors();
      List<WorkflowClientInterceptor> all = new ArrayList<>();
      if (existing != null) {
        all.addAll(Arrays.asList(existing));
      }
      all.add(tracing.clientInterceptor());
      builder.setInterceptors(all.toArray(new WorkflowClientInterceptor[0]));
    }
    if (payloadCodec != null) {
      // wrap, don't replace: a converter (and codecs) the application already set keep working
      // (an unset converter is the SDK's default only once the client is built: wrap that one)
      builder.setDataConverter(new CodecDataConverter(
          java.util.Objects.requireNonNullElseGet(builder.build().getDataConverter(), GlobalDataConverter::get),
          List.of(payloadCodec)));
    }
  }

  /** Adds the worker interceptors after the factory's own. */
  void configureWorkerFactory(WorkerFactoryOptions.Builder builder) {
    if (!interceptors.isEmpty()) {
      WorkerInterceptor[] existing = builder.build().getWorkerInterceptors();
      List<WorkerInterceptor> all = new ArrayList<>();
      if (existing != null) {
        all.addAll(Arrays.asList(existing));
      }
      all.addAll(interceptors);
      builder.setWorkerInterceptors(all.toArray(new WorkerInterceptor[0]));
    }
  }
}
