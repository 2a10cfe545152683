package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer to a {@link SlotRequest}, given when it is decided.
 *
 * @param outcome what became of the request
 * @param holders the calls that held a slot of the model when it was answered, this one included when
 *     granted
 * @param waiting the calls that were waiting for one then
 * @param position with {@link Outcome#QUEUED}, how many calls are ahead of this one in line
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SlotAnswer(Outcome outcome, int holders, int waiting, int position) {
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
     * The request is in line, too far back to wait in the workflow (an update waiting there counts
     * against Temporal's limit of in-flight updates per workflow, 10 by default): the caller keeps its
     * place and asks again, with the same request, after a pause that grows with {@code position}.
     */
    QUEUED,
    /**
     * The request left the line without a slot: released by its caller, or taken over by a newer
     * request of the same holder (a retry of the call).
     */
    WITHDRAWN
  }
}
