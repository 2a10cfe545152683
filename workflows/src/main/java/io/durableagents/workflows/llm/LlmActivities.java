package io.durableagents.workflows.llm;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Model calls, as Temporal activities. Every call a workflow makes to a model goes through here, so
 * that a call that completed is never paid for twice: after a crash, its result is read from history.
 *
 * <p>Retries belong to Temporal: the provider clients' own retries are off. Rate limits, time-outs and
 * server errors are thrown as retryable failures (honouring the provider's Retry-After); errors that
 * no retry can fix fail at once as non-retryable failures whose type is one of {@link LlmFailureTypes}.
 *
 * <pre>{@code
 * LlmActivities llm = Workflow.newActivityStub(LlmActivities.class, LlmCallOptions.forModel(model));
 * LlmResponse answer = llm.chat(new LlmRequest(model, messages, tools, ToolChoice.AUTO, null, "react"));
 * }</pre>
 */
@ActivityInterface
public interface LlmActivities {
  /** Sends the conversation to the model and returns its answer with token usage. */
  /** The activity type of {@link #chat}, as it appears in histories. */
  String CHAT_ACTIVITY_TYPE = "LlmChat";

  @ActivityMethod(name = CHAT_ACTIVITY_TYPE)
  LlmResponse chat(LlmRequest request);
}
