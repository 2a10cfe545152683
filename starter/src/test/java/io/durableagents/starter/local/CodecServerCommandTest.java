package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code codec-server}'s check, before it starts, of who could reach it. */
class CodecServerCommandTest {
  @Test
  void theCodecServerRefusesANonLoopbackHostWithoutAToken() {
    CommandFailure refused = assertThrows(CommandFailure.class,
        () -> CodecServerCommand.checkExposure("0.0.0.0", null, false, System.err));
    assertEquals(Failures.USAGE, refused.exitCode());
    assertTrue(refused.getMessage().contains("DURABLE_AGENTS_CODEC_TOKEN is not set"), refused.getMessage());
    assertTrue(refused.hint().contains("--insecure"), refused.hint());
    // loopback, a token, or --insecure (with a warning) start it
    CodecServerCommand.checkExposure("127.0.0.1", null, false, System.err);
    CodecServerCommand.checkExposure("localhost", null, false, System.err);
    CodecServerCommand.checkExposure("0.0.0.0", "s3cret", false, System.err);
    ByteArrayOutputStream warning = new ByteArrayOutputStream();
    CodecServerCommand.checkExposure("0.0.0.0", null, true, new PrintStream(warning, true, StandardCharsets.UTF_8));
    assertTrue(warning.toString(StandardCharsets.UTF_8).startsWith("codec-server: WARNING: --insecure"), warning.toString());
  }
}
