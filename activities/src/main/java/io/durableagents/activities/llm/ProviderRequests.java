package io.durableagents.activities.llm;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.ToolChoice;
import java.util.List;

/**
 * How a request's tools, tool choice and response format are sent to each provider, within what its
 * LangChain4j client accepts, and whether a request asks for a ReWOO plan.
 */
final class ProviderRequests {
  private ProviderRequests() {}

  /**
   * Whether {@code provider} takes LangChain4j's schemaless {@link ResponseFormat#JSON}: OpenAI and
   * OpenAI-compatible servers ({@code response_format: json_object}), Ollama ({@code format: json}), and
   * models registered by name ({@code OTHER}: the offline rules model, test models), which read it from
   * the request. Anthropic's client (LangChain4j 1.19) throws {@code UnsupportedFeatureException}
   * ("Schemaless JSON response format") for it, so it is not sent there: the planner prompt asks for
   * JSON in words, and the answer is parsed the same way.
   */
  static boolean supportsJsonMode(ModelProvider provider) {
    return provider == ModelProvider.OPEN_AI || provider == ModelProvider.OLLAMA
        || provider == ModelProvider.OTHER;
  }

  /**
   * Sets the maximum output length: LangChain4j's {@code maxOutputTokens}, which its OpenAI client sends
   * as {@code max_tokens} (what llama.cpp's server, vLLM, LM Studio and Ollama's {@code /v1} read), its
   * Ollama client as {@code options.num_predict} and its Anthropic client as {@code max_tokens}. OpenAI's
   * own API ({@code openai:<model>} with {@code OPENAI_BASE_URL} at api.openai.com) gets {@code
   * max_completion_tokens} instead: its reasoning models (o1, o3, gpt-5 ...) reject {@code max_tokens},
   * and every chat model there takes {@code max_completion_tokens}.
   */
  static void maxOutputTokens(ChatRequest.Builder chat, int tokens, String reference, ModelProvider provider,
      LlmSettings settings) {
    if (provider == ModelProvider.OPEN_AI && settings.isOpenAiItself()
        && ModelReference.OPENAI.equals(providerOf(reference))) {
      chat.parameters(OpenAiChatRequestParameters.builder().maxCompletionTokens(tokens).build());
    } else {
      chat.maxOutputTokens(tokens);
    }
  }

  private static String providerOf(String reference) {
    try {
      return ModelReference.parse(reference).provider();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * A JSON-format request that offers tools the model may not call (tool choice NONE) asks for a
   * ReWOO plan of those tools: its answer is read as one.
   */
  static boolean isPlanRequest(LlmRequest request, List<ToolSpecification> specs) {
    return request.responseFormat() == LlmRequest.ResponseFormat.JSON && !specs.isEmpty()
        && request.toolChoice() == ToolChoice.NONE;
  }

  /**
   * Offers the tools with the tool choice the request asks for. Never sends a tool choice without
   * tools. Ollama's client (1.18.1) throws {@code UnsupportedFeatureException} for any choice but AUTO:
   * there NONE is honoured by not offering the tools, and REQUIRED falls back to the provider's default.
   */
  static void offerTools(
      ChatRequest.Builder chat, List<ToolSpecification> specs, ToolChoice choice, ModelProvider provider) {
    if (specs.isEmpty()) {
      return;
    }
    boolean onlyAuto = provider == ModelProvider.OLLAMA;
    switch (choice) {
      case PROVIDER_DEFAULT:
        chat.toolSpecifications(specs);
        break;
      case NONE:
        if (!onlyAuto) {
          chat.toolSpecifications(specs).toolChoice(dev.langchain4j.model.chat.request.ToolChoice.NONE);
        }
        break;
      case AUTO:
        chat.toolSpecifications(specs).toolChoice(dev.langchain4j.model.chat.request.ToolChoice.AUTO);
        break;
      case REQUIRED:
        chat.toolSpecifications(specs);
        if (!onlyAuto) {
          chat.toolChoice(dev.langchain4j.model.chat.request.ToolChoice.REQUIRED);
        }
        break;
      default:
        throw new IllegalStateException("unmapped tool choice " + choice);
    }
  }
}
