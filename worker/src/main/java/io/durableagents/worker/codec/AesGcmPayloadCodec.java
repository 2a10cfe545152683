package io.durableagents.worker.codec;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.temporal.api.common.v1.Payload;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts every payload with AES-GCM, so that a history holds no plaintext prompt or answer. The key
 * id travels in the payload's metadata, so keys can rotate: new payloads use the current key, and any
 * key still configured decrypts the payloads it wrote. Payloads that are not encrypted pass through
 * decoding unchanged. It composes with a codec you already have: wrap your converter, don't replace it
 * ({@code new CodecDataConverter(yourConverter, List.of(codec))}).
 *
 * <pre>{@code
 * DURABLE_AGENTS_ENCRYPTION_KEYS=k1:<base64 AES key>,k2:<base64 AES key>
 * DURABLE_AGENTS_ENCRYPTION_KEY_ID=k2
 * }</pre>
 */
public final class AesGcmPayloadCodec implements PayloadCodec {
  public static final String ENCODING = "binary/encrypted";
  public static final String METADATA_ENCODING = "encoding";
  public static final String METADATA_KEY_ID = "encryption-key-id";
  public static final String KEYS_VARIABLE = "DURABLE_AGENTS_ENCRYPTION_KEYS";
  public static final String KEY_ID_VARIABLE = "DURABLE_AGENTS_ENCRYPTION_KEY_ID";

  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final Map<String, SecretKey> keys;
  private final String currentKeyId;
  private final SecureRandom random = new SecureRandom();

  public AesGcmPayloadCodec(Map<String, SecretKey> keys, String currentKeyId) {
    if (!keys.containsKey(currentKeyId)) {
      throw new IllegalArgumentException(KEY_ID_VARIABLE + "='" + currentKeyId + "' is not one of the keys "
          + keys.keySet() + " in " + KEYS_VARIABLE);
    }
    this.keys = Map.copyOf(keys);
    this.currentKeyId = currentKeyId;
  }

  /**
   * The codec the environment asks for, or null when {@value #KEYS_VARIABLE} is unset.
   *
   * @throws IllegalArgumentException naming the variable whose value is not allowed
   */
  public static AesGcmPayloadCodec fromEnvironment(Map<String, String> env) {
    String spec = env.get(KEYS_VARIABLE);
    if (spec == null || spec.isBlank()) {
      return null;
    }
    Map<String, SecretKey> keys = new LinkedHashMap<>();
    String last = null;
    for (String entry : spec.split(",")) {
      int colon = entry.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(KEYS_VARIABLE + " must be id:base64key[,id:base64key...]");
      }
      String id = entry.substring(0, colon).trim();
      byte[] key;
      try {
        key = Base64.getDecoder().decode(entry.substring(colon + 1).trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(KEYS_VARIABLE + ": key '" + id + "' is not base64");
      }
      if (key.length != 16 && key.length != 24 && key.length != 32) {
        throw new IllegalArgumentException(KEYS_VARIABLE + ": key '" + id
            + "' must be 16, 24 or 32 bytes (AES-128/192/256), was " + key.length);
      }
      keys.put(id, new SecretKeySpec(key, "AES"));
      last = id;
    }
    String current = env.getOrDefault(KEY_ID_VARIABLE, last);
    return new AesGcmPayloadCodec(keys, current == null || current.isBlank() ? last : current.trim());
  }

  @Override
  public List<Payload> encode(List<Payload> payloads) {
    List<Payload> out = new ArrayList<>(payloads.size());
    for (Payload p : payloads) {
      byte[] iv = new byte[IV_BYTES];
      random.nextBytes(iv);
      byte[] sealed = crypt(Cipher.ENCRYPT_MODE, keys.get(currentKeyId), iv, p.toByteArray());
      out.add(Payload.newBuilder()
          .putMetadata(METADATA_ENCODING, ByteString.copyFrom(ENCODING, StandardCharsets.UTF_8))
          .putMetadata(METADATA_KEY_ID, ByteString.copyFrom(currentKeyId, StandardCharsets.UTF_8))
          .setData(ByteString.copyFrom(ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array()))
          .build());
    }
    return out;
  }

  @Override
  public List<Payload> decode(List<Payload> payloads) {
    List<Payload> out = new ArrayList<>(payloads.size());
    for (Payload p : payloads) {
      ByteString encoding = p.getMetadataMap().get(METADATA_ENCODING);
      if (encoding == null || !ENCODING.equals(encoding.toStringUtf8())) {
        out.add(p);
        continue;
      }
      String keyId = p.getMetadataMap().getOrDefault(METADATA_KEY_ID, ByteString.EMPTY).toStringUtf8();
      SecretKey key = keys.get(keyId);
      if (key == null) {
        throw new PayloadCodecException("payload encrypted with key '" + keyId + "', which is not in "
            + KEYS_VARIABLE);
      }
      byte[] data = p.getData().toByteArray();
      byte[] iv = java.util.Arrays.copyOfRange(data, 0, IV_BYTES);
      byte[] plain = crypt(Cipher.DECRYPT_MODE, key, iv, java.util.Arrays.copyOfRange(data, IV_BYTES, data.length));
      try {
        out.add(Payload.parseFrom(plain));
      } catch (InvalidProtocolBufferException e) {
        throw new PayloadCodecException(e);
      }
    }
    return out;
  }

  private static byte[] crypt(int mode, SecretKey key, byte[] iv, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, iv));
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new PayloadCodecException(e);
    }
  }
}
