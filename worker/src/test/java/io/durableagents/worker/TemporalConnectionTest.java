package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reaching a Temporal cluster or Temporal Cloud from Temporal's envconfig variables, as
 * docs/operations.md ("When one machine is not enough") tells: an API key alone goes over TLS (the Java
 * SDK turns HTTPS on for it), {@code TEMPORAL_TLS=true} turns TLS on, neither leaves the connection plain;
 * and the worker's identity.
 */
class TemporalConnectionTest {
  @TempDir Path dir;

  /** The given variables, with an empty config file so that this machine's own one is not read. */
  private Map<String, String> env(String... pairs) throws Exception {
    Path file = Files.writeString(dir.resolve("temporal.toml"), "[profile.default]\n");
    Map<String, String> env = new HashMap<>(Map.of("TEMPORAL_CONFIG_FILE", file.toString()));
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  private static WorkflowServiceStubsOptions options(TemporalConnection connection) {
    return connection.stubsOptions(null, List.of());
  }

  private static boolean usesTls(WorkflowServiceStubsOptions options) {
    return options.getSslContext() != null || options.getEnableHttps();
  }

  @Test
  void anApiKeyGoesOverTls() throws Exception {
    TemporalConnection cloud = TemporalConnection.fromEnvironment(env(
        "TEMPORAL_ADDRESS", "us-east-1.aws.api.temporal.io:7233", "TEMPORAL_NAMESPACE", "agents.a1b2c",
        "TEMPORAL_API_KEY", "a-key"));
    assertTrue(usesTls(options(cloud)), "TLS with the JVM's trusted CAs");
    assertEquals("agents.a1b2c", cloud.namespace());
    assertEquals("us-east-1.aws.api.temporal.io:7233", options(cloud).getTarget());
  }

  /**
   * What the SDK (1.39) does, pinned so that the docs are revisited when it changes: with an API key,
   * {@code TEMPORAL_TLS=false} does not turn TLS off (envconfig never calls {@code setEnableHttps(false)}).
   */
  @Test
  void tlsFalseDoesNotTurnTlsOffForAnApiKey() throws Exception {
    TemporalConnection keyed = TemporalConnection.fromEnvironment(env(
        "TEMPORAL_ADDRESS", "temporal.internal:7233", "TEMPORAL_API_KEY", "a-key", "TEMPORAL_TLS", "false"));
    assertTrue(usesTls(options(keyed)));
  }

  @Test
  void withoutAnApiKeyOrTlsSettingTheConnectionIsPlain() throws Exception {
    TemporalConnection local = TemporalConnection.fromEnvironment(env("TEMPORAL_ADDRESS", "127.0.0.1:7233"));
    assertFalse(usesTls(options(local)));
    TemporalConnection tls = TemporalConnection.fromEnvironment(env(
        "TEMPORAL_ADDRESS", "temporal.example.com:7233", "TEMPORAL_TLS", "true"));
    assertTrue(usesTls(options(tls)));
  }

  @Test
  void aWorkerIdentityIsCheckedAndTheDefaultIsPidAtHost() {
    assertTrue(WorkerSettings.identity(Map.of()).startsWith(ProcessHandle.current().pid() + "@"));
    assertEquals("worker-3@rack-2", WorkerSettings.identity(Map.of(WorkerSettings.WORKER_IDENTITY, "worker-3@rack-2")));
    for (String bad : List.of("", " ", " padded", "a\nb", "x".repeat(WorkerSettings.MAX_IDENTITY_LENGTH + 1))) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> WorkerSettings.identity(Map.of(WorkerSettings.WORKER_IDENTITY, bad)));
      assertTrue(e.getMessage().startsWith(WorkerSettings.WORKER_IDENTITY + "="), e.getMessage());
    }
  }
}
