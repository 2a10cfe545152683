package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings docs/configuration.md gives for a slow local model (30-60 s per call) are read as the
 * worker reads them, and no limit of the call's clock ends a 60 s call or its wait for the slot:
 * ModelSlotsTest shows the same at a smaller scale, running.
 */
class SlowLocalModelSettingsTest {
  private static final Duration SLOWEST_CALL = Duration.ofSeconds(60);

  /** The variables of the block that follows "A slow local model" in docs/configuration.md. */
  private static Map<String, String> documentedSettings() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
    int at = doc.indexOf("**A slow local model**");
    assertTrue(at >= 0, "docs/configuration.md has the settings for a slow local model");
    int open = doc.indexOf("```\n", at) + 4;
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : doc.substring(open, doc.indexOf("```", open)).strip().split("\n")) {
      int eq = line.indexOf('=');
      env.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
    }
    return env;
  }

  @Test
  void theDocumentedSettingsLetA60sCallAndItsWaitForTheSlotRun() throws Exception {
    Map<String, String> env = documentedSettings();
    DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env);
    LlmSettings llm = builder.settings.llmSettings;
    String model = "openai:smollm2";
    assertEquals(1, builder.settings.llmSlots.of(model), env.toString());
    assertTrue(llm.timeout().compareTo(SLOWEST_CALL.multipliedBy(2)) >= 0,
        "an attempt has room for the slowest call: " + llm.timeout());
    assertTrue(llm.callBudget(model).compareTo(llm.timeout().multipliedBy(3)) >= 0,
        "the budget leaves room for retries: " + llm.callBudget(model));
    Duration startToClose = WorkerTuning.llmStartToClose(llm.timeout(), !builder.settings.llmSlots.isNone());
    assertTrue(startToClose.compareTo(Duration.ofHours(24)) >= 0,
        "Temporal never ends a call waiting for the slot: " + startToClose);
  }
}
