package io.durableagents.activities.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.workflows.simulation.Checkpoint;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The checkpoint file format, {@value #FORMAT}: one JSON object with the simulation id, the step, the
 * scenario, seed and parameters (for people and tools to read), when it was saved, and the checkpoint
 * itself under {@code checkpoint}, followed by the SHA-256 of that part's compact JSON. The checkpoint
 * is written with the JSON mapper of Temporal's default data converter, so it reads back into the
 * same records a worker receives.
 *
 * <pre>{@code
 * {"format": "durable-agents-checkpoint/1", "simulation_id": "sim-epstein-42-ab12", "step": 40,
 *  "scenario": "epstein", "seed": 42, "steps": 100, "parameters": {...}, "saved_at": "2026-...Z",
 *  "sha256": "9f2c...", "checkpoint": {"simulationId": ..., "step": 40, "input": {...}}}
 * }</pre>
 */
public final class CheckpointFiles {
  public static final String FORMAT = "durable-agents-checkpoint/1";

  // Temporal's own mapper, as continue-as-new carries the state: maps keep their order (a world's
  // variables are columns in that order), and the checksum is over the compact form of the same tree.
  private static final ObjectMapper MAPPER = JacksonJsonPayloadConverter.newDefaultObjectMapper();

  private CheckpointFiles() {}

  /** The file's bytes for {@code checkpoint}, saved at {@code savedAt}. */
  public static byte[] write(Checkpoint checkpoint, Instant savedAt) {
    try {
      JsonNode body = MAPPER.valueToTree(checkpoint);
      ObjectNode file = MAPPER.createObjectNode();
      file.put("format", FORMAT);
      file.put("simulation_id", checkpoint.simulationId());
      file.put("step", checkpoint.step());
      file.put("scenario", checkpoint.input().scenario());
      file.put("seed", checkpoint.input().seed());
      file.put("steps", checkpoint.input().steps());
      file.set("parameters", checkpoint.input().parameters());
      file.put("saved_at", savedAt.toString());
      file.put("sha256", sha256(body));
      file.set("checkpoint", body);
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(file);
    } catch (IOException e) {
      throw new CheckpointFileException("cannot write the checkpoint of " + checkpoint.simulationId()
          + " at step " + checkpoint.step() + " as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The checkpoint in a file's bytes, checked.
   *
   * @param where the file's name, for messages
   * @throws CheckpointFileException when it is not a checkpoint, of another format, or not whole
   */
  public static Checkpoint read(byte[] bytes, String where) {
    JsonNode file;
    try {
      file = MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new CheckpointFileException(where + " is not a checkpoint: not JSON (" + firstLine(e.getMessage())
          + "); it may be cut short", e);
    }
    if (file == null || !file.isObject() || !file.has("checkpoint")) {
      throw new CheckpointFileException(where + " is not a checkpoint: it has no 'checkpoint' part");
    }
    if (!FORMAT.equals(file.path("format").asText())) {
      throw new CheckpointFileException(where + " has the format '" + file.path("format").asText()
          + "'; this version reads " + FORMAT);
    }
    JsonNode body = file.get("checkpoint");
    String expected = file.path("sha256").asText();
    String actual = sha256(body);
    if (!actual.equals(expected)) {
      throw new CheckpointFileException(where + " is damaged: its checksum is " + actual
          + ", the file says " + expected);
    }
    try {
      Checkpoint checkpoint = MAPPER.treeToValue(body, Checkpoint.class);
      if (checkpoint.input() == null || checkpoint.input().state() == null
          || checkpoint.input().state().step() != checkpoint.step()) {
        throw new CheckpointFileException(where + " is not a whole checkpoint: it holds no state of step "
            + checkpoint.step());
      }
      return checkpoint;
    } catch (IOException e) {
      throw new CheckpointFileException(where + " cannot be read as a checkpoint: " + firstLine(e.getMessage()), e);
    }
  }

  static String sha256(JsonNode body) {
    try {
      byte[] compact = MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(compact));
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot checksum a checkpoint", e);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
