package io.durableagents.worker;

import io.durableagents.devserver.DevServer;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.durableagents.activities.tools.DurableTool;
import io.durableagents.activities.tools.ToolCallContext;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A worker process for {@link UserToolKillTest}: the plugin configured from the environment (its
 * execution journal included), with a slow user tool and a scripted model of its own. It runs until it
 * is killed.
 *
 * <pre>{@code
 * TEMPORAL_ADDRESS=127.0.0.1:7233 USER_TOOL_LOG=tool.log java -cp <test classpath> \
 *     io.durableagents.worker.UserToolWorkerMain
 * }</pre>
 */
public final class UserToolWorkerMain {
  /** Where the tool writes a line when a call starts and when it is done. */
  static final String TOOL_LOG = "USER_TOOL_LOG";

  /** The keys the agent looks up, one tool call each, in this order. */
  static final List<String> KEYS = List.of("a", "b", "c");

  private UserToolWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
        .registerTool(new SlowLookup(Path.of(env.get(TOOL_LOG))))
        .registerModel(LookupModel.NAME, new LookupModel())
        .build();
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory.newInstance(client).start();
    System.out.println("user tool worker " + ProcessHandle.current().pid() + " started");
    new java.util.concurrent.CountDownLatch(1).await(); // until killed
  }

  /**
   * Looks a key up in about a second, heartbeating as it goes; writes {@code start|done <pid> <attempt>
   * <idempotency key>} lines to its log.
   */
  public static final class SlowLookup {
    private final Path log;

    SlowLookup(Path log) {
      this.log = log;
    }

    @Tool(name = "slow_lookup", value = "Looks a key up in the slow directory.")
    // 5 s: a fresh worker JVM on a busy machine can take 2 s from taking the retried call to its first heartbeat
    @DurableTool(startToClose = "PT5M", heartbeat = "PT5S", initialInterval = "PT0.2S")
    public String lookup(@P("the key") String key, ToolCallContext call) throws InterruptedException {
      write("start", call);
      for (int tenth = 1; tenth <= 10; tenth++) {
        Thread.sleep(100);
        call.heartbeat(tenth);
      }
      write("done", call);
      return "value of " + key;
    }

    private void write(String event, ToolCallContext call) {
      String line = event + " " + ProcessHandle.current().pid() + " " + call.attempt() + " "
          + call.idempotencyKey() + "\n";
      try {
        Files.writeString(log, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * The same answers in every process, from the conversation alone: look up each of {@link #KEYS} in
   * turn, then finish with what the lookups returned.
   */
  static final class LookupModel implements ChatModel {
    static final String NAME = "lookup-script";

    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<String> results = new ArrayList<>();
      for (ChatMessage m : request.messages()) {
        if (m instanceof ToolExecutionResultMessage r) {
          results.add(r.text());
        }
      }
      AiMessage answer;
      if (results.size() < KEYS.size()) {
        String id = "call_" + (results.size() + 1);
        answer = AiMessage.from(ToolExecutionRequest.builder().id(id).name("slow_lookup")
            .arguments("{\"key\":\"" + KEYS.get(results.size()) + "\"}").build());
      } else {
        answer = AiMessage.from(ToolExecutionRequest.builder().id("call_finish").name("finish")
            .arguments("{\"answer\":\"" + String.join("; ", results) + "\"}").build());
      }
      return ChatResponse.builder().aiMessage(answer).modelName(NAME).tokenUsage(new TokenUsage(10, 5))
          .finishReason(FinishReason.TOOL_EXECUTION).build();
    }
  }
}
