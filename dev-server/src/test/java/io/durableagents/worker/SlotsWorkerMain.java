package io.durableagents.worker;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.Map;

/**
 * A worker process for {@link SharedSlotsAcrossWorkersTest}: the plugin configured from the environment
 * ({@code DURABLE_AGENTS_LLM_SLOTS} and {@code DURABLE_AGENTS_LLM_SLOTS_SCOPE}), with a model {@value
 * #MODEL} that calls the test's OpenAI-compatible stand-in ({@value #STAND_IN_URL}). The LLM activity waits
 * for the model's slot itself, through the plugin's seam ({@link PluginSettings#modelSlots}). It runs until
 * it is killed.
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
    ChatModel standIn = OpenAiChatModel.builder().baseUrl(env.get(STAND_IN_URL)).apiKey("not-needed")
        .modelName(MODEL).timeout(Duration.ofSeconds(60)).maxRetries(0).build();
    DurableAgentsPlugin plugin = builder.registerModel(MODEL, standIn).build();
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory.newInstance(client).start();
    System.out.println("slots worker " + ProcessHandle.current().pid() + " started");
    new java.util.concurrent.CountDownLatch(1).await(); // until killed
  }
}
