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
    // SQLite's pragma names are case-insensitive; dynamic configuration keys are not
    addOverridden(args, "--sqlite-pragma", LocalTemporal.DEFAULT_SQLITE_PRAGMAS, s.sqlitePragmas(),
        name -> name.toLowerCase(java.util.Locale.ROOT));
    addOverridden(args, "--dynamic-config-value", DYNAMIC_CONFIG, s.dynamicConfig(), String::trim);
    return args;
  }

  /**
   * {@code flag KEY=VALUE} for each of {@code defaults}, a value of {@code given} ({@code KEY=VALUE} each)
   * replacing the default of the same key ({@code key} normalizes it): one value per key on the command
   * line.
   */
  private static void addOverridden(List<String> args, String flag, Map<String, String> defaults,
      List<String> given, java.util.function.UnaryOperator<String> key) {
    Map<String, String> values = new java.util.LinkedHashMap<>(defaults);
    for (String value : given) {
      int eq = value.indexOf('=');
      values.put(key.apply(value.substring(0, eq)), value.substring(eq + 1));
    }
    values.forEach((name, value) -> {
      args.add(flag);
      args.add(name + "=" + value);
    });
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
