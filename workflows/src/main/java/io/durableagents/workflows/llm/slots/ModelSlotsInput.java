package io.durableagents.workflows.llm.slots;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What a {@link ModelSlotsWorkflow} starts from.
 *
 * @param model the model reference whose calls it bounds
 * @param state the slots a previous run handed over on continue-as-new; null for a first run
 * @param continueAsNewAfterEvents continue as new once the history has this many events, or sooner when
 *     the server suggests it; null: {@link ModelSlotsWorkflow#CONTINUE_AS_NEW_AFTER_EVENTS}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ModelSlotsInput(String model, SlotsState state, Integer continueAsNewAfterEvents) {
  /** A first run for {@code model}. */
  public static ModelSlotsInput of(String model) {
    return new ModelSlotsInput(model, null, null);
  }
}
