package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * A model's slots: what {@link ModelSlotsWorkflow#slots()} answers and continue-as-new carries.
 *
 * @param capacity calls that may hold a slot at once (the latest request's)
 * @param holders the calls holding a slot, in the order they got it
 * @param waiting the calls waiting for one, first in line first
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SlotsState(int capacity, List<Lease> holders, List<Waiter> waiting) {
  public SlotsState {
    holders = holders == null ? List.of() : List.copyOf(holders);
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
  }

  /**
   * A slot held.
   *
   * @param holder the call
   * @param request the request that got it
   * @param sinceMillis workflow time when it was granted
   * @param endMillis workflow time when it is freed unless given back before
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Lease(String holder, String request, long sinceMillis, long endMillis) {}

  /**
   * A call in line.
   *
   * @param holder the call
   * @param request the request it waits with
   * @param holdAtMostMillis how long it may hold the slot once granted
   * @param sinceMillis workflow time when it joined the line
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Waiter(String holder, String request, long holdAtMostMillis, long sinceMillis) {}
}
