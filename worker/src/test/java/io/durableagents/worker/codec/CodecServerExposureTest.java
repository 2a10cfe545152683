package io.durableagents.worker.codec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The codec server's token check (constant time, exact) and what counts as this machine only. */
class CodecServerExposureTest {
  @Test
  void onlyTheExactBearerTokenIsAuthorized() {
    assertTrue(CodecServer.authorized("t0ken", "Bearer t0ken"));
    assertFalse(CodecServer.authorized("t0ken", null));
    assertFalse(CodecServer.authorized("t0ken", ""));
    assertFalse(CodecServer.authorized("t0ken", "Bearer t0ke"));
    assertFalse(CodecServer.authorized("t0ken", "Bearer t0ken "));
    assertFalse(CodecServer.authorized("t0ken", "Bearer T0KEN"));
    assertFalse(CodecServer.authorized("t0ken", "t0ken"));
  }

  @Test
  void loopbackIsThisMachineOnly() {
    assertTrue(CodecServer.isLoopback("127.0.0.1"));
    assertTrue(CodecServer.isLoopback("127.0.1.1"));
    assertTrue(CodecServer.isLoopback("localhost"));
    assertTrue(CodecServer.isLoopback("::1"));
    assertTrue(CodecServer.isLoopback("[::1]"));
    assertFalse(CodecServer.isLoopback("0.0.0.0"));
    assertFalse(CodecServer.isLoopback("::"));
    assertFalse(CodecServer.isLoopback("10.1.2.3"));
    assertFalse(CodecServer.isLoopback("no-such-host.invalid"));
  }
}
