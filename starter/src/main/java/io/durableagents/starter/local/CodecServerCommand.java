package io.durableagents.starter.local;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.StartChecks;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.worker.codec.CodecServer;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Serves the encryption codec to the Temporal UI, so an authorised viewer can read encrypted payloads. */
@Command(name = "codec-server",
    description = "Serve POST /decode and /encode for the Temporal UI's codec server setting "
        + "(keys from DURABLE_AGENTS_ENCRYPTION_KEYS; DURABLE_AGENTS_CODEC_TOKEN requires a bearer token).")
public final class CodecServerCommand implements Callable<Integer> {
  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "8888", description = "Port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--ui-origin", defaultValue = "http://localhost:8080",
      description = "The Temporal UI's origin, for CORS (default: ${DEFAULT-VALUE}).")
  String uiOrigin;

  @Option(names = "--insecure",
      description = "Listen on a non-loopback --host without " + TOKEN_VARIABLE + ": anyone who reaches the "
          + "port can decrypt every payload. Off by default.")
  boolean insecure;

  /** The bearer token the codec server requires. */
  static final String TOKEN_VARIABLE = "DURABLE_AGENTS_CODEC_TOKEN";

  /**
   * Refuses a host beyond this machine without a token (the server decrypts every payload for whoever
   * asks), unless {@code insecure}, which warns on {@code err}.
   *
   * @throws CommandFailure when refused
   */
  static void checkExposure(String host, String token, boolean insecure, java.io.PrintStream err) {
    boolean tokenSet = token != null && !token.isBlank();
    if (tokenSet || CodecServer.isLoopback(host)) {
      return;
    }
    if (!insecure) {
      throw CommandFailure.usage("--host " + host + " opens the codec server beyond this machine, and "
          + TOKEN_VARIABLE + " is not set: anyone who reaches it could decrypt every payload",
          "Set " + TOKEN_VARIABLE + " (the UI then sends it as a bearer token), keep --host 127.0.0.1, "
              + "or add --insecure if you really mean it.");
    }
    err.println("codec-server: WARNING: --insecure: listening on " + host + " without a token; "
        + "anyone who reaches it can decrypt every payload.");
  }

  @Override
  public Integer call() throws InterruptedException {
    AesGcmPayloadCodec codec;
    try {
      codec = AesGcmPayloadCodec.fromEnvironment(Environment.variables());
    } catch (IllegalArgumentException e) {
      System.err.println("codec-server: " + e.getMessage());
      return 2;
    }
    if (codec == null) {
      System.err.println("codec-server: set " + AesGcmPayloadCodec.KEYS_VARIABLE + " (id:base64key,...)");
      return 2;
    }
    String token = Environment.get(TOKEN_VARIABLE);
    checkExposure(host, token, insecure, System.err);
    StartChecks.port("--port", host, port);
    CodecServer server = new CodecServer(host, port, codec, uiOrigin, token == null || token.isBlank() ? null : token);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("Codec server on http://" + host + ":" + server.port() + " (CORS for " + uiOrigin + ", "
        + (token == null || token.isBlank() ? "no token required" : "bearer token required") + ")");
    new CountDownLatch(1).await();
    return 0;
  }
}
