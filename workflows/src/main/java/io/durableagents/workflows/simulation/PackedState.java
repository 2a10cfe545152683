package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.durableagents.api.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * How a {@link SimulationState} travels in a simulation's input (continue-as-new, checkpoints, forks):
 * as its JSON while that is small, and deflated once it passes {@link #PACK_OVER} bytes, as {@code
 * {"deflatedJson": "<base64 of the deflated JSON>"}}. A large simulation's state is mostly agents'
 * plans, positions and last outcomes, whose JSON repeats itself: 2,000 Epstein agents' state is 1.37 MB
 * of JSON and 121 KB deflated, so 10,000 agents continue as new within a Temporal server's limits (2 MB
 * per payload, 4 MB per gRPC message) where their 6.8 MB of JSON would be refused. Both forms are read
 * back, so histories and checkpoints written before either read as they were.
 *
 * <p>Workflow code: compression is a pure function of the bytes; the bytes a continue-as-new sends are
 * never compared on replay.
 */
public final class PackedState {
  /** States whose JSON is larger than this are deflated. */
  public static final int PACK_OVER = 256 * 1024;

  /** The field that holds a deflated state. */
  static final String FIELD = "deflatedJson";

  private PackedState() {}

  /**
   * The bytes {@code state} takes in a simulation's input, as written (JSON, or the deflated form).
   */
  public static long sizeOf(SimulationState state) {
    byte[] json = json(state);
    return json.length <= PACK_OVER ? json.length : base64(deflate(json)).length() + FIELD.length() + 6;
  }

  private static byte[] json(SimulationState state) {
    try {
      return Json.MAPPER.writeValueAsBytes(state);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the simulation's state as JSON", e);
    }
  }

  static byte[] deflate(byte[] json) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(json.length / 8 + 64);
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
    try (DeflaterOutputStream z = new DeflaterOutputStream(out, deflater)) {
      z.write(json);
    } catch (IOException e) {
      throw new IllegalStateException(e); // a ByteArrayOutputStream does not fail
    } finally {
      deflater.end();
    }
    return out.toByteArray();
  }

  static byte[] inflate(byte[] deflated) throws IOException {
    try (InputStream in = new InflaterInputStream(new java.io.ByteArrayInputStream(deflated))) {
      return in.readAllBytes();
    }
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Writes a state as its JSON, or deflated when that is over {@link #PACK_OVER} bytes. */
  public static final class Serializer extends JsonSerializer<SimulationState> {
    @Override
    public void serialize(SimulationState state, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      byte[] json = json(state);
      if (json.length <= PACK_OVER) {
        provider.defaultSerializeValue(state, gen);
        return;
      }
      gen.writeStartObject();
      gen.writeStringField(FIELD, base64(deflate(json)));
      gen.writeEndObject();
    }
  }

  /** Reads a state written either way. */
  public static final class Deserializer extends JsonDeserializer<SimulationState> {
    @Override
    public SimulationState deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonNode node = p.readValueAsTree();
      if (node == null || node.isNull()) {
        return null;
      }
      JsonNode packed = node.get(FIELD);
      if (packed != null && node.size() == 1) {
        return Json.MAPPER.readValue(inflate(Base64.getDecoder().decode(packed.asText())), SimulationState.class);
      }
      return Json.MAPPER.treeToValue(node, SimulationState.class);
    }
  }
}
