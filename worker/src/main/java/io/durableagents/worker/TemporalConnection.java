package io.durableagents.worker;

import com.uber.m3.tally.Scope;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowClientPlugin;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.GlobalDataConverter;
import io.temporal.envconfig.ClientConfigProfile;
import io.temporal.envconfig.LoadClientConfigProfileOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.GrpcCompression;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How the worker and the starter reach Temporal: always over gRPC, as they would reach a real
 * cluster. Temporal's envconfig conventions apply ({@code TEMPORAL_ADDRESS}, {@code
 * TEMPORAL_NAMESPACE}, {@code TEMPORAL_API_KEY}, {@code TEMPORAL_TLS*}, {@code TEMPORAL_PROFILE} and
 * the config file); with none of them set, the embedded dev server on {@value #DEFAULT_ADDRESS}.
 */
public final class TemporalConnection {
  /** Where the embedded dev server listens. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1:7233";

  public static final String DEFAULT_NAMESPACE = "default";

  /**
   * Set beside {@code TEMPORAL_ADDRESS} by a command line option that gave the address ({@code
   * --address}, {@code --port}): the option's name, which {@link #addressSource()} then names.
   */
  public static final String ADDRESS_FROM = "DURABLE_AGENTS_TEMPORAL_ADDRESS_FROM";

  private final ClientConfigProfile profile;
  private final Map<String, String> env;

  private TemporalConnection(ClientConfigProfile profile, Map<String, String> env) {
    this.profile = profile;
    this.env = env;
  }

  /** Reads the connection settings from the environment (and Temporal's config file, if any). */
  public static TemporalConnection fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  public static TemporalConnection fromEnvironment(Map<String, String> env) {
    try {
      ClientConfigProfile loaded =
          ClientConfigProfile.load(LoadClientConfigProfileOptions.newBuilder().setEnvOverrides(env).build());
      return new TemporalConnection(loaded, env);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Temporal's client configuration", e);
    }
  }

  /** The address to connect to. */
  public String address() {
    String a = profile.getAddress();
    return a == null || a.isBlank() ? DEFAULT_ADDRESS : a;
  }

  /**
   * Where {@link #address()} came from, for messages: {@code TEMPORAL_ADDRESS} (or the option that
   * set it, {@link #ADDRESS_FROM}), Temporal's config
   * file (with its profile), or the default.
   */
  public String addressSource() {
    String fromEnv = env.get("TEMPORAL_ADDRESS");
    if (fromEnv != null && !fromEnv.isBlank()) {
      String option = env.get(ADDRESS_FROM);
      return "from " + (option != null && !option.isBlank() ? option : "TEMPORAL_ADDRESS");
    }
    String a = profile.getAddress();
    if (a != null && !a.isBlank()) {
      String name = env.getOrDefault("TEMPORAL_PROFILE", "default");
      return "from Temporal's config file, profile " + name;
    }
    return "the default; --address or TEMPORAL_ADDRESS for another";
  }

  /** The namespace to use. */
  public String namespace() {
    String n = profile.getNamespace();
    return n == null || n.isBlank() ? DEFAULT_NAMESPACE : n;
  }

  /** Whether this is the embedded dev server's default address. */
  public boolean isDefaultAddress() {
    return DEFAULT_ADDRESS.equals(address());
  }

  /** Connects to the service; {@code metricsScope} may be null. */
  public WorkflowServiceStubs connect(Scope metricsScope) {
    return connect(metricsScope, java.util.List.of());
  }

  /**
   * Connects to the service with gRPC client interceptors (a worker's {@link WorkflowTaskFailures});
   * {@code metricsScope} may be null.
   */
  public WorkflowServiceStubs connect(Scope metricsScope, java.util.List<io.grpc.ClientInterceptor> interceptors) {
    return WorkflowServiceStubs.newServiceStubs(stubsOptions(metricsScope, interceptors));
  }

  /** The options {@link #connect} connects with. */
  WorkflowServiceStubsOptions stubsOptions(Scope metricsScope, java.util.List<io.grpc.ClientInterceptor> interceptors) {
    WorkflowServiceStubsOptions.Builder options =
        WorkflowServiceStubsOptions.newBuilder(profile.toWorkflowServiceStubsOptions())
            .setTarget(address())
            .setRpcTimeout(Duration.ofSeconds(10));
    if (!interceptors.isEmpty()) {
      java.util.List<io.grpc.ClientInterceptor> all = new java.util.ArrayList<>();
      var existing = options.build().getGrpcClientInterceptors();
      if (existing != null) {
        all.addAll(existing);
      }
      all.addAll(interceptors);
      options.setGrpcClientInterceptors(all);
    }
    if (metricsScope != null) {
      options.setMetricsScope(metricsScope);
    }
    if (isLoopback(address())) {
      // The SDK gzips every request by default: on this machine's own loopback that only costs CPU
      // on both ends (the worker's and the embedded Temporal's).
      options.setGrpcCompression(GrpcCompression.NONE);
    }
    return options.build();
  }

  /** Whether {@code address} ({@code host:port}) names this machine: localhost or a loopback IP. */
  static boolean isLoopback(String address) {
    int colon = address.lastIndexOf(':');
    String host = colon > 0 ? address.substring(0, colon) : address;
    host = host.replace("[", "").replace("]", "");
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
  }

  /**
   * A client of {@link #namespace()} with the given plugins. Without plugins (the starter), payloads go
   * through the encryption codec when {@code DURABLE_AGENTS_ENCRYPTION_KEYS} is set, so that it can
   * read what encrypted workers wrote; with our plugin, the plugin does that.
   */
  public WorkflowClient client(WorkflowServiceStubs service, WorkflowClientPlugin... plugins) {
    return client(service, null, plugins);
  }

  /**
   * As {@link #client(WorkflowServiceStubs, WorkflowClientPlugin...)}, with {@code identity} (null: the
   * SDK's {@code <pid>@<host>}) as the name its workers give Temporal, recorded in history with every
   * workflow and activity task they take.
   */
  public WorkflowClient client(WorkflowServiceStubs service, String identity, WorkflowClientPlugin... plugins) {
    WorkflowClientOptions.Builder options =
        WorkflowClientOptions.newBuilder(profile.toWorkflowClientOptions()).setNamespace(namespace());
    if (identity != null) {
      options.setIdentity(identity);
    }
    if (plugins.length > 0) {
      options.setPlugins(plugins);
    } else {
      AesGcmPayloadCodec codec = AesGcmPayloadCodec.fromEnvironment(env);
      if (codec != null) {
        // an unset converter is the SDK's default only once the client is built: wrap that one
        options.setDataConverter(new CodecDataConverter(
            java.util.Objects.requireNonNullElseGet(options.build().getDataConverter(), GlobalDataConverter::get),
            List.of(codec)));
      }
    }
    return WorkflowClient.newInstance(service, options.build());
  }
}
