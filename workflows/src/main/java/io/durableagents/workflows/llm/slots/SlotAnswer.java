package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer to a {@link SlotRequest}, given when it is decided.
 *
 * @param outcome what became of the request
 * @param holders the calls that held a slot of the model when it was answered, this one included when
 *     granted
 * @param waiting the calls that were waiting for one then
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SlotAnswer(Outcome outcome, int holders, int waiting) {
  /** What became of a request for a slot. */
  public enum Outcome {
    /** The slot is the caller's until it releases it, or until its hold time ends. */
    GRANTED,
    /**
     * The workflow is continuing as new: the caller keeps its place in line and asks again, with the
     * same request, which reaches the new run.
     */
    AGAIN,
    /**
     * The request left the line without a slot: released by its caller, or taken over by a newer
     * request of the same holder (a retry of the call).
     */
    WITHDRAWN
  }
}
