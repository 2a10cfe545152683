package io.durableagents.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How an {@link Observation} is written to JSON, and so into every agent step's input in history. Its
 * neighbours ({@code localState}) are written once as a table: the attribute names once, in {@code
 * columns}, and each neighbour as a row of values in that order, instead of every neighbour repeating
 * every attribute name. With dozens of neighbours in sight the names were most of an agent step's
 * input; the table carries the same values in about half the bytes, and reads as a table in the
 * Temporal UI:
 *
 * <pre>{@code
 * "localStateTable": {"columns": ["position", "role", "state"],
 *                     "rows": {"citizen-0": [[3, 5], "citizen", "quiet"], "cop-0": [[2, 6], "cop"]}}
 * }</pre>
 *
 * <p>A row ends early when a neighbour lacks the last attributes (the cop above has no state); a
 * neighbour whose attributes are not such a prefix of the columns is written as it is, an object. Read
 * back, the observation is the same maps as before (prompts are written with sorted keys, so they are
 * the same text), and an observation written the old way, {@code localState} as a map of maps (older
 * histories), reads as it always did.
 */
final class ObservationJson {
  /** The property of the neighbour table. */
  static final String TABLE = "localStateTable";

  private ObservationJson() {}

  /** Writes an observation with its neighbours as a table. */
  public static final class Serializer extends JsonSerializer<Observation> {
    @Override
    public void serialize(Observation o, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeStartObject();
      gen.writeNumberField("step", o.step());
      gen.writeFieldName("selfState");
      provider.defaultSerializeValue(o.selfState(), gen);
      Map<String, Map<String, Object>> local = o.localState();
      if (!local.isEmpty()) {
        List<String> columns = columns(local);
        gen.writeFieldName(TABLE);
        gen.writeStartObject();
        gen.writeFieldName("columns");
        gen.writeStartArray();
        for (String c : columns) {
          gen.writeString(c);
        }
        gen.writeEndArray();
        gen.writeFieldName("rows");
        gen.writeStartObject();
        // rows in the map's order, sorted where the mapper sorts map keys: as the map of maps was
        Map<String, Map<String, Object>> rows =
            provider.isEnabled(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS) ? new TreeMap<>(local) : local;
        for (Map.Entry<String, Map<String, Object>> e : rows.entrySet()) {
          gen.writeFieldName(e.getKey());
          Map<String, Object> attributes = e.getValue() == null ? Map.of() : e.getValue();
          int length = prefixLength(attributes, columns);
          if (length < 0) {
            provider.defaultSerializeValue(attributes, gen);
            continue;
          }
          gen.writeStartArray();
          for (int i = 0; i < length; i++) {
            provider.defaultSerializeValue(attributes.get(columns.get(i)), gen);
          }
          gen.writeEndArray();
        }
        gen.writeEndObject();
        gen.writeEndObject();
      }
      gen.writeEndObject();
    }

    /**
     * Every attribute name of the neighbours, the most common first (ties by name): the attributes
     * all neighbours have come first, so that rows lacking some end early rather than need objects.
     */
    private static List<String> columns(Map<String, Map<String, Object>> local) {
      Map<String, Integer> counts = new HashMap<>();
      for (Map<String, Object> attributes : local.values()) {
        if (attributes != null) {
          for (String name : attributes.keySet()) {
            counts.merge(name, 1, Integer::sum);
          }
        }
      }
      List<String> columns = new ArrayList<>(counts.keySet());
      columns.sort(Comparator.<String>comparingInt(counts::get).reversed()
          .thenComparing(Comparator.naturalOrder()));
      return columns;
    }

    /**
     * How many leading columns {@code attributes} fills, or -1 when its names are not exactly those
     * columns (then it is written as an object).
     */
    private static int prefixLength(Map<String, Object> attributes, List<String> columns) {
      int n = attributes.size();
      if (n > columns.size()) {
        return -1;
      }
      for (int i = 0; i < n; i++) {
        if (!attributes.containsKey(columns.get(i))) {
          return -1;
        }
      }
      return n;
    }
  }

  /** Reads an observation written either way: neighbours as a table, or as a map of maps. */
  public static final class Deserializer extends JsonDeserializer<Observation> {
    @Override
    public Observation deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      ObjectCodec codec = p.getCodec();
      JsonNode node = codec.readTree(p);
      int step = node.path("step").asInt();
      Map<String, Object> self = new LinkedHashMap<>();
      JsonNode selfNode = node.get("selfState");
      if (selfNode != null && selfNode.isObject()) {
        fill(self, selfNode, codec);
      }
      Map<String, Map<String, Object>> local = new LinkedHashMap<>();
      JsonNode table = node.get(TABLE);
      JsonNode old = node.get("localState");
      if (table != null && table.isObject()) {
        List<String> columns = new ArrayList<>();
        table.path("columns").forEach(c -> columns.add(c.asText()));
        Iterator<Map.Entry<String, JsonNode>> rows = table.path("rows").fields();
        while (rows.hasNext()) {
          Map.Entry<String, JsonNode> row = rows.next();
          Map<String, Object> attributes = new LinkedHashMap<>();
          if (row.getValue().isArray()) {
            for (int i = 0; i < row.getValue().size() && i < columns.size(); i++) {
              attributes.put(columns.get(i), value(row.getValue().get(i), codec));
            }
          } else if (row.getValue().isObject()) {
            fill(attributes, row.getValue(), codec);
          }
          local.put(row.getKey(), attributes);
        }
      } else if (old != null && old.isObject()) {
        Iterator<Map.Entry<String, JsonNode>> others = old.fields();
        while (others.hasNext()) {
          Map.Entry<String, JsonNode> other = others.next();
          Map<String, Object> attributes = new LinkedHashMap<>();
          if (other.getValue().isObject()) {
            fill(attributes, other.getValue(), codec);
          }
          local.put(other.getKey(), attributes);
        }
      }
      return new Observation(step, self, local);
    }

    private static void fill(Map<String, Object> into, JsonNode object, ObjectCodec codec)
        throws IOException {
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> f = fields.next();
        into.put(f.getKey(), value(f.getValue(), codec));
      }
    }

    /** A value as Jackson reads untyped JSON: maps, lists, strings, numbers, booleans, null. */
    private static Object value(JsonNode v, ObjectCodec codec) throws IOException {
      return v == null || v.isNull() ? null : codec.treeToValue(v, Object.class);
    }
  }
}
