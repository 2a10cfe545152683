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
  static final Map<String, String> DYNAMIC_CONFIG = dynamicConfigDefaults();

  /**
   * {@code history.eventsCacheMaxSizeBytes}: the history service's cache of recent events, 512 KiB per
   * shard in Temporal's server, and the dev server has one shard: with more than a few workflows running
   * at once (a simulation's group steps, its agent steps' workflows) each workflow task's new events fell
   * out of it and were read back from SQLite ({@code ReadHistoryBranch}); 64 MiB keeps them.
   */
  private static Map<String, String> dynamicConfigDefaults() {
    Map<String, String> defaults = new java.util.LinkedHashMap<>();
    defaults.put("system.enableActivityEagerExecution", "true");
    defaults.put("history.eventsCacheMaxSizeBytes", Integer.toString(64 * 1024 * 1024));
    return java.util.Collections.unmodifiableMap(defaults);
  }

  /**
   * What the dev server is given beyond the SDK's own flags: our search attributes, the UI's codec server,
   * the SQLite pragmas ({@link LocalTemporal#DEFAULT_SQLITE_PRAGMAS} under the settings' own), the dynamic
   * configuration ({@link #DYNAMIC_CONFIG} under the settings' own).
   */
  static List<String> extraArgs(LocalTemporal.Settings s) {
    List<String> args = new ArrayList<>();
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
    // the settings' own values replace ours of the same key: one value per key on the command line
    Map<String, String> dynamic = new java.util.LinkedHashMap<>(DYNAMIC_CONFIG);
    for (String value : s.dynamicConfig()) {
      int eq = value.indexOf('=');
      dynamic.put(value.substring(0, eq).trim(), value.substring(eq + 1));
    }
    dynamic.forEach((key, value) -> {
      args.add("--dynamic-config-value");
      args.add(key + "=" + value);
    });
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
