package io.durableagents.devserver;

import io.durableagents.workflows.SearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.common.SearchAttributeKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flags the Temporal CLI's dev server is started with beyond the SDK's own: eager activity execution,
 * our search attributes, the UI's codec server, the database's SQLite pragmas and the settings' dynamic
 * configuration values.
 */
final class DevServerArgs {
  private DevServerArgs() {}

  /**
   * The dev server's dynamic configuration beyond the SDK's: eager activity execution (off by default in
   * Temporal's server), so that an activity a workflow schedules on its own task queue, a tool call or an
   * eager LLM call ({@code DURABLE_AGENTS_EAGER_LLM_CALLS}), goes back to the worker with its answer to the
   * workflow task instead of through the task queue: one round trip and one database write fewer.
   */
  static final List<String> DYNAMIC_CONFIG = List.of("--dynamic-config-value",
      "system.enableActivityEagerExecution=true");

  /**
   * What the dev server is given beyond the SDK's own flags: {@link #DYNAMIC_CONFIG}, our search
   * attributes, the UI's codec server.
   */
  static List<String> extraArgs(LocalTemporal.Settings s) {
    List<String> args = new ArrayList<>(DYNAMIC_CONFIG);
    args.addAll(searchAttributeArgs());
    if (s.uiCodecEndpoint() != null) {
      args.add("--ui-codec-endpoint");
      args.add(s.uiCodecEndpoint());
    }
    Map<String, String> pragmas = new java.util.LinkedHashMap<>(LocalTemporal.DEFAULT_SQLITE_PRAGMAS);
    for (String pragma : s.sqlitePragmas()) {
      int eq = pragma.indexOf('=');
      pragmas.put(pragma.substring(0, eq).toLowerCase(java.util.Locale.ROOT), pragma.substring(eq + 1));
    }
    pragmas.forEach((name, value) -> {
      args.add("--sqlite-pragma");
      args.add(name + "=" + value);
    });
    for (String value : s.dynamicConfig()) {
      args.add("--dynamic-config-value");
      args.add(value);
    }
    return args;
  }

  /** {@code --search-attribute Name=Type} for each of ours, as the Temporal CLI takes them. */
  static List<String> searchAttributeArgs() {
    List<String> args = new ArrayList<>();
    for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
      args.add("--search-attribute");
      args.add(key.getName() + "=" + cliType(key.getValueType()));
    }
    return args;
  }

  private static String cliType(IndexedValueType type) {
    return switch (type) {
      case INDEXED_VALUE_TYPE_TEXT -> "Text";
      case INDEXED_VALUE_TYPE_KEYWORD -> "Keyword";
      case INDEXED_VALUE_TYPE_INT -> "Int";
      case INDEXED_VALUE_TYPE_DOUBLE -> "Double";
      case INDEXED_VALUE_TYPE_BOOL -> "Bool";
      case INDEXED_VALUE_TYPE_DATETIME -> "Datetime";
      case INDEXED_VALUE_TYPE_KEYWORD_LIST -> "KeywordList";
      default -> throw new IllegalArgumentException("no Temporal CLI type for " + type);
    };
  }
}
