package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A call gives back its slot, or leaves the line ({@link ModelSlotsWorkflow#release}): only when
 * {@code request} is still the holder's, so an earlier attempt's late release frees nothing a retry
 * took over.
 *
 * @param holder the call, as it asked ({@link SlotRequest#holder()})
 * @param request the request it asked with ({@link SlotRequest#request()})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SlotRelease(String holder, String request) {}
