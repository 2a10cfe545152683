package io.durableagents.workflows;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/**
 * The custom search attributes our workflows set, so runs can be filtered in the Temporal UI (e.g.
 * {@code Scenario = "epstein" AND SimStep > 10}). They must be registered on the namespace: the compose
 * stack and the embedded dev server do it; the starter sets {@code SimulationInput.searchAttributes}
 * only when it finds them registered, so a server without them never sees an upsert it would reject.
 */
public final class SearchAttributes {
  /** The scenario, in every run of a simulation (however started) and in its agent steps. */
  public static final SearchAttributeKey<String> SCENARIO = SearchAttributeKey.forKeyword("Scenario");
  /**
   * What the agents run: in a simulation's runs the strategy when all its agents run one ({@code cot}), else
   * each role's, by role ({@code citizen=rewoo,cop=react}); in an agent step its agent's. A Keyword (as
   * registered since the start: a registered attribute's type cannot change), so older runs read as before.
   */
  public static final SearchAttributeKey<String> STRATEGY = SearchAttributeKey.forKeyword("Strategy");
  public static final SearchAttributeKey<Long> SIM_STEP = SearchAttributeKey.forLong("SimStep");
  /** The simulation a fork (or a run started from a checkpoint) came from: {@code ForkedFrom = "sim-..."}. */
  public static final SearchAttributeKey<String> FORKED_FROM = SearchAttributeKey.forKeyword("ForkedFrom");

  /**
   * True while a tool call of the run waits for a person's decision ({@code AwaitingApproval = true} in the
   * UI's list finds them); set only when the run's approval options ask for it.
   */
  public static final SearchAttributeKey<Boolean> AWAITING_APPROVAL = SearchAttributeKey.forBoolean("AwaitingApproval");

  /** All of them. */
  public static final List<SearchAttributeKey<?>> ALL =
      List.of(SCENARIO, STRATEGY, SIM_STEP, FORKED_FROM, AWAITING_APPROVAL);

  private SearchAttributes() {}
}
