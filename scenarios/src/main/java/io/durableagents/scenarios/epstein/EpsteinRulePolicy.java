package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.RulePolicy;
import io.durableagents.scenarios.grid.Direction;
import io.durableagents.scenarios.grid.GridPosition;
import io.durableagents.scenarios.grid.Torus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Epstein's (2002) rules for civil violence.
 *
 * <ul>
 *   <li>A citizen is active when grievance - risk aversion x estimated arrest probability exceeds its
 *       threshold, and quiet otherwise; it then moves to a random free neighbouring cell.
 *   <li>A cop arrests a random active citizen within its vision, if any, then moves to a random free
 *       neighbouring cell.
 * </ul>
 *
 * <p>Its "random" choices are drawn from a generator seeded with the agent id and the step, so the
 * same observation always gets the same decision: a retried or replayed call changes nothing.
 */
public final class EpsteinRulePolicy implements RulePolicy {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  @Override
  public Optional<RuleDecision> decide(
      String role, int step, Map<String, Object> self, Map<String, Map<String, Object>> local) {
    if (EpsteinScenario.CITIZEN.equals(role)) {
      return Optional.of(citizen(step, self, local));
    }
    if (EpsteinScenario.COP.equals(role)) {
      return Optional.of(cop(step, self, local));
    }
    return Optional.empty();
  }

  private RuleDecision citizen(int step, Map<String, Object> self, Map<String, Map<String, Object>> local) {
    double hardship = number(self, "_hardship");
    double legitimacy = number(self, "legitimacy");
    double grievance = number(self, "_grievance");
    double riskAversion = number(self, "_risk_aversion");
    double arrestProbability = number(self, "_estimated_arrest_probability");
    double threshold = number(self, "_threshold");
    double netRisk = riskAversion * arrestProbability;
    boolean active = grievance - netRisk > threshold;
    String desired = active ? EpsteinScenario.ACTIVE : EpsteinScenario.QUIET;
    String current = String.valueOf(self.get("state"));

    List<String> thoughts = new ArrayList<>();
    thoughts.add(String.format(Locale.ROOT,
        "grievance %.3f = hardship %.3f x (1 - legitimacy %.2f).", grievance, hardship, legitimacy));
    thoughts.add(String.format(Locale.ROOT,
        "net risk %.3f = risk aversion %.3f x estimated arrest probability %.3f.",
        netRisk, riskAversion, arrestProbability));
    thoughts.add(String.format(Locale.ROOT,
        "grievance - net risk = %.3f, %s the threshold %.2f.",
        grievance - netRisk, active ? "above" : "not above", threshold));

    List<RuleDecision.Action> actions = new ArrayList<>();
    if (!desired.equals(current)) {
      ObjectNode args = JSON.objectNode().put("state", desired);
      actions.add(new RuleDecision.Action(EpsteinScenario.CHANGE_STATE, args));
    }
    Random random = random(self, step);
    Direction move = freeDirection(self, local, random);
    if (move != null) {
      actions.add(new RuleDecision.Action(EpsteinScenario.MOVE_ONE_STEP,
          JSON.objectNode().put("direction", move.name())));
    }
    thoughts.add((desired.equals(current) ? "stay " + current : "become " + desired)
        + (move == null ? "; every neighbouring cell is taken, so stay put." : "; move " + move + "."));
    return new RuleDecision(thoughts, actions);
  }

  private RuleDecision cop(int step, Map<String, Object> self, Map<String, Map<String, Object>> local) {
    List<String> activeCitizens = new ArrayList<>();
    for (Map.Entry<String, Map<String, Object>> e : local.entrySet()) {
      Map<String, Object> other = e.getValue();
      if (EpsteinScenario.CITIZEN.equals(other.get("role"))
          && EpsteinScenario.ACTIVE.equals(other.get("state"))) {
        activeCitizens.add(e.getKey());
      }
    }
    activeCitizens.sort(null);
    Random random = random(self, step);
    List<String> thoughts = new ArrayList<>();
    thoughts.add(activeCitizens.size() + " active citizen(s) within vision"
        + (activeCitizens.isEmpty() ? "." : ": " + activeCitizens + "."));
    List<RuleDecision.Action> actions = new ArrayList<>();
    if (!activeCitizens.isEmpty()) {
      String target = activeCitizens.get(random.nextInt(activeCitizens.size()));
      thoughts.add("arrest " + target + ", chosen at random among them.");
      actions.add(new RuleDecision.Action(EpsteinScenario.ARREST_CITIZEN,
          JSON.objectNode().put("citizen_id", target)));
    } else {
      thoughts.add("nobody to arrest.");
    }
    Direction move = freeDirection(self, local, random);
    thoughts.add(move == null ? "every neighbouring cell is taken: stay put." : "patrol: move " + move + ".");
    if (move != null) {
      actions.add(new RuleDecision.Action(EpsteinScenario.MOVE_ONE_STEP,
          JSON.objectNode().put("direction", move.name())));
    }
    return new RuleDecision(thoughts, actions);
  }

  /**
   * This step's decision, then the moves the policy would make from the cells those moves reach (the
   * neighbours as seen now), one per simulation step.
   */
  @Override
  public List<RuleDecision.Action> plan(String role, int step, Map<String, Object> self,
      Map<String, Map<String, Object>> local, RuleDecision decision, int length) {
    List<RuleDecision.Action> planned = new ArrayList<>(decision.actions());
    Map<String, Object> moved = new LinkedHashMap<>(self);
    for (int ahead = 1; planned.size() < length; ahead++) {
      moved.put("position", positionAfter(moved, planned));
      Optional<RuleDecision.Action> move = decide(role, step + ahead, moved, local)
          .flatMap(d -> d.actions().stream()
              .filter(a -> a.tool().equals(EpsteinScenario.MOVE_ONE_STEP)).findFirst());
      if (move.isEmpty()) {
        break;
      }
      planned.add(move.get());
    }
    return planned.size() > length ? planned.subList(0, length) : planned;
  }

  /** The cell {@code self} reaches after the last planned move (its own position already moved). */
  private static List<Integer> positionAfter(Map<String, Object> self, List<RuleDecision.Action> planned) {
    Object gridValue = self.get("grid");
    List<?> xy = (List<?>) self.get("position");
    if (!(gridValue instanceof Map) || xy == null) {
      return xy == null ? null : List.of(((Number) xy.get(0)).intValue(), ((Number) xy.get(1)).intValue());
    }
    Map<?, ?> grid = (Map<?, ?>) gridValue;
    Torus torus = new Torus(((Number) grid.get("width")).intValue(), ((Number) grid.get("height")).intValue());
    GridPosition p = new GridPosition(((Number) xy.get(0)).intValue(), ((Number) xy.get(1)).intValue());
    RuleDecision.Action last = null;
    for (RuleDecision.Action a : planned) {
      if (a.tool().equals(EpsteinScenario.MOVE_ONE_STEP)) {
        last = a;
      }
    }
    if (last != null) {
      Direction d = Direction.parse(last.arguments().path("direction").asText());
      if (d != null) {
        p = torus.step(p, d);
      }
    }
    return p.asList();
  }

  /** A random direction whose cell no agent in sight occupies, or null. */
  private static Direction freeDirection(
      Map<String, Object> self, Map<String, Map<String, Object>> local, Random random) {
    GridPosition here = position(self.get("position"));
    Object gridValue = self.get("grid");
    if (here == null || !(gridValue instanceof Map)) {
      return null;
    }
    Map<?, ?> grid = (Map<?, ?>) gridValue;
    Torus torus = new Torus(((Number) grid.get("width")).intValue(),
        ((Number) grid.get("height")).intValue());
    Set<GridPosition> taken = new HashSet<>();
    for (Map<String, Object> other : local.values()) {
      GridPosition p = position(other.get("position"));
      if (p != null) {
        taken.add(p);
      }
    }
    List<Direction> free = new ArrayList<>();
    for (Direction d : Direction.values()) {
      if (!taken.contains(torus.step(here, d))) {
        free.add(d);
      }
    }
    return free.isEmpty() ? null : free.get(random.nextInt(free.size()));
  }

  private static GridPosition position(Object value) {
    if (value instanceof List && ((List<?>) value).size() == 2) {
      List<?> xy = (List<?>) value;
      return new GridPosition(((Number) xy.get(0)).intValue(), ((Number) xy.get(1)).intValue());
    }
    return null;
  }

  private static Random random(Map<String, Object> self, int step) {
    return new Random(31L * String.valueOf(self.get("id")).hashCode() + step);
  }

  private static double number(Map<String, Object> self, String key) {
    Object v = self.get(key);
    return v instanceof Number ? ((Number) v).doubleValue() : 0.0;
  }
}
