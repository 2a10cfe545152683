package io.durableagents.starter.benchmark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.util.List;

/**
 * The deterministic model and the slow tool of the parallel-levels benchmark: a task of {@value
 * #KEYS} independent look-ups. As a ReWOO planner the model plans all of them at once; in a ReAct turn
 * it looks up one key per turn, as the classic Thought/Action/Observation loop does, and finishes when
 * all are known. Not an LLM, and only for benchmarks.
 */
final class BenchmarkModels {
  /** How many independent look-ups the task needs. */
  static final int KEYS = 8;

  /** The look-up tool's name. */
  static final String LOOKUP = "lookup";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private BenchmarkModels() {}

  /** A tool that takes {@code millis} to answer, like a slow API. */
  static final class SlowLookupTool {
    private final long millis;

    SlowLookupTool(long millis) {
      this.millis = millis;
    }

    @Tool(name = LOOKUP, value = "Look up the value stored under a key.")
    public String lookup(@P("the key, e.g. k1") String key) throws InterruptedException {
      Thread.sleep(millis);
      return "value-of-" + key;
    }
  }

  /** The task's model: plans all look-ups (ReWOO) or makes them one per turn (ReAct). */
  static final class LookupTaskModel implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ToolSpecification> tools =
          request.toolSpecifications() == null ? List.of() : request.toolSpecifications();
      boolean json = request.responseFormat() != null
          && request.responseFormat().type() == ResponseFormatType.JSON;
      AiMessage answer;
      if (json) {
        ObjectNode plan = MAPPER.createObjectNode();
        ArrayNode steps = plan.putArray("plan");
        for (int i = 1; i <= KEYS; i++) {
          steps.addObject().put("id", "E" + i).put("tool", LOOKUP).putObject("args").put("key", "k" + i);
        }
        answer = AiMessage.from(plan.toString());
      } else if (tools.isEmpty()) {
        answer = AiMessage.from("All " + KEYS + " keys are looked up.");
      } else {
        int known = 0;
        for (ChatMessage m : request.messages()) {
          if (m instanceof ToolExecutionResultMessage) {
            known++;
          }
        }
        boolean canFinish = tools.stream().anyMatch(t -> t.name().equals("finish"));
        if (known < KEYS) {
          answer = AiMessage.from("Thought: I still need k" + (known + 1) + ".",
              List.of(ToolExecutionRequest.builder().id("lookup-" + (known + 1)).name(LOOKUP)
                  .arguments("{\"key\":\"k" + (known + 1) + "\"}").build()));
        } else if (canFinish) {
          answer = AiMessage.from(List.of(ToolExecutionRequest.builder().id("finish").name("finish")
              .arguments("{\"answer\":\"All " + KEYS + " keys are looked up.\"}").build()));
        } else {
          answer = AiMessage.from("All " + KEYS + " keys are looked up.");
        }
      }
      return ChatResponse.builder().aiMessage(answer).modelName("lookup-task")
          .tokenUsage(new TokenUsage(100, 20))
          .finishReason(answer.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
          .build();
    }
  }
}
