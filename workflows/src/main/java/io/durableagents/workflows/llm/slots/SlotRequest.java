package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One call's request for a slot of a model ({@link ModelSlotsWorkflow#acquire}).
 *
 * @param holder the call, the same for every attempt of it (its workflow id and activity id): a retry
 *     takes over the slot, or the place in line, that an earlier attempt left behind
 * @param request this attempt's request, new for each {@code acquire} call and the same when the call
 *     asks again ({@link SlotAnswer.Outcome#AGAIN}); a release names it, so that an earlier attempt's
 *     late release never frees the slot a retry took over
 * @param capacity how many calls of the model may hold a slot at once, as the asking worker is
 *     configured ({@code DURABLE_AGENTS_LLM_SLOTS}): the latest request's capacity holds
 * @param holdAtMostMillis the longest the call may keep the slot once granted; a slot not given back by
 *     then is freed, for its holder has died
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SlotRequest(String holder, String request, int capacity, long holdAtMostMillis) {}
