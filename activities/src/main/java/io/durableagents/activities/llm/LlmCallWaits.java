package io.durableagents.activities.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The heartbeat details of an LLM call: how long its attempts so far waited without being counted
 * against any of its limits (for one of its model's slots, and its first attempt in the task queue
 * before a worker took it). Heartbeat details survive a retry, so the next attempt reads them and leaves
 * that time out of the retry budget ({@link LlmCallClock}).
 *
 * @param waitedMillis the waits of the attempts so far, in milliseconds
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LlmCallWaits(long waitedMillis) {}
