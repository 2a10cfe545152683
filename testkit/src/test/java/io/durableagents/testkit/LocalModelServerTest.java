package io.durableagents.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.output.FinishReason;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test kit's real model server: llama.cpp's server with SmolLM2-135M-Instruct in a child process,
 * reached through LangChain4j's OpenAI client as a worker reaches it. Skipped where {@code .ci/run} has not
 * installed it (failing under {@code CI=true}).
 */
class LocalModelServerTest {
  private static final int SERVER_CAP = 40;

  @Test
  void aRealModelAnswersCountsWhatItDidTakesToolsThroughTheTemplateAndStopsOnClose() throws Exception {
    Path python = LocalModelServer.pythonForTests();
    assumeTrue(python != null, LocalModelServer.MISSING);
    Process process;
    int port;
    try (LocalModelServer server = LocalModelServer.newBuilder().python(python).slots(1).contextPerSlot(1024)
        .toolTemplate().maxOutputTokens(SERVER_CAP).seed(7).directory(Path.of("target", "local-model-server"))
        .start()) {
      process = server.process();
      port = server.port();
      assertEquals("openai:smollm2", server.modelReference());
      assertEquals("http://127.0.0.1:" + port + "/v1", server.baseUrl());
      OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(server.baseUrl()).modelName(server.alias())
          .timeout(Duration.ofSeconds(60)).maxRetries(0).build();

      // a chat call: an answer, its usage, and the server counted exactly that
      LocalModelServer.Metrics before = server.metrics();
      ChatResponse answer = model.chat(ChatRequest.builder()
          .messages(UserMessage.from("What is the capital of France? Answer in one sentence."))
          .maxOutputTokens(24).build());
      LocalModelServer.Metrics call = server.metrics().minus(before);
      assertFalse(answer.aiMessage().text().isBlank(), "an answer");
      int prompt = answer.tokenUsage().inputTokenCount();
      int generated = answer.tokenUsage().outputTokenCount();
      assertTrue(prompt > 10 && generated > 0 && generated <= 24, answer.tokenUsage().toString());
      assertEquals(1, call.requestsStarted(), call.toString());
      assertEquals(1, call.requestsEnded(), call.toString());
      assertEquals(prompt, call.promptTokens(), call.toString());
      assertEquals(generated, call.generatedTokens(), call.toString());

      // a request that sets no maximum length gets the server's (one that sets one gets its own)
      ChatResponse story = model.chat(ChatRequest.builder()
          .messages(UserMessage.from("Write a very long story about a dragon who learns to cook.")).build());
      assertEquals(SERVER_CAP, story.tokenUsage().outputTokenCount(), story.tokenUsage().toString());
      assertEquals(FinishReason.LENGTH, story.finishReason());

      // tools reach the model through the template: the same question costs the tool list's tokens more,
      // and the answer is a tool call or text (a 135M model rarely calls a tool right)
      ToolSpecification calculator = ToolSpecification.builder().name("calculator")
          .description("Evaluates an arithmetic expression and returns its value")
          .parameters(JsonObjectSchema.builder().addStringProperty("expression", "e.g. 17 * 23")
              .required("expression").build())
          .build();
      UserMessage question = UserMessage.from("What is 17 * 23? Use the calculator.");
      ChatResponse plain = model.chat(ChatRequest.builder().messages(question).maxOutputTokens(16).build());
      LocalModelServer.Metrics beforeTools = server.metrics();
      ChatResponse withTools = model.chat(ChatRequest.builder().messages(question).toolSpecifications(calculator)
          .maxOutputTokens(32).build());
      LocalModelServer.Metrics toolCall = server.metrics().minus(beforeTools);
      AiMessage message = withTools.aiMessage();
      assertTrue(message.hasToolExecutionRequests() || !message.text().isBlank(), "a tool call or text");
      if (message.hasToolExecutionRequests()) {
        assertEquals(FinishReason.TOOL_EXECUTION, withTools.finishReason());
        assertEquals("calculator", message.toolExecutionRequests().get(0).name());
      }
      assertTrue(withTools.tokenUsage().inputTokenCount() > plain.tokenUsage().inputTokenCount() + 50,
          "the tools are in the prompt: " + withTools.tokenUsage() + " vs " + plain.tokenUsage());
      assertEquals((long) withTools.tokenUsage().inputTokenCount(), toolCall.promptTokens());
      assertEquals((long) withTools.tokenUsage().outputTokenCount(), toolCall.generatedTokens());
      assertEquals(0, server.busySlots().size(), "idle");

      // a client that goes away mid-answer (as a worker killed with kill -9 does): the server cancels the
      // request and has counted it, its whole prompt and the tokens it generated until then
      LocalModelServer.Metrics beforeCut = server.metrics();
      // the caller is a process of its own, killed as a worker is
      Process caller = new ProcessBuilder(python.toString(), "-c", "import urllib.request; urllib.request.urlopen("
          + "urllib.request.Request('" + server.baseUrl() + "/chat/completions', headers={'Content-Type': "
          + "'application/json'}, data=b'{\"model\": \"smollm2\", \"max_tokens\": 400, \"messages\": [{\"role\": "
          + "\"user\", \"content\": \"Tell a very long story about a lighthouse keeper.\"}]}'))")
          .redirectErrorStream(true).start();
      LocalModelServer.BusySlot cut = server.awaitGenerating(Duration.ofSeconds(60)).get(0);
      caller.destroyForcibly().waitFor();
      server.awaitLeft(cut, Duration.ofSeconds(30));
      LocalModelServer.Metrics cutCounts = server.metrics().minus(beforeCut);
      assertEquals(1, cutCounts.requestsStarted(), cutCounts.toString());
      assertEquals(cut.promptTokens(), cutCounts.promptTokens(), cutCounts.toString());
      long generatedByCut = server.generatedTokens(cut);
      assertEquals(generatedByCut, cutCounts.generatedTokens(), cutCounts.toString());
      assertTrue(generatedByCut >= cut.decodedTokens() && generatedByCut < 400, "cut at " + generatedByCut);
      System.out.printf("local model: %s; prompt %.0f tok/s, generation %.1f tok/s%n", server.metrics(),
          server.metrics().promptTokensPerSecond(), server.metrics().generatedTokensPerSecond());
    }
    assertFalse(process.isAlive(), "close() ends the server's process");
    assertFalse(listening(port), "nothing listens on its port any more");
  }

  @Test
  void aVariableThatNamesNoPythonIsRefusedNamingIt() throws Exception {
    Path notExecutable = Files.createTempFile("not-python", ".txt");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        LocalModelServer.findPython(Map.of(LocalModelServer.PYTHON_VARIABLE, notExecutable.toString()), Path.of("")));
    assertTrue(e.getMessage().startsWith(LocalModelServer.PYTHON_VARIABLE + " names "), e.getMessage());
    assertTrue(LocalModelServer.findPython(Map.of(), Path.of("/")).isEmpty(), "nothing at the file system's root");
    assertThrows(IllegalArgumentException.class, () -> LocalModelServer.newBuilder().slots(0));
    assertTrue(LocalModelServer.toolTemplate().contains("<tool_call>"), "the Hermes-style template");
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 300);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
