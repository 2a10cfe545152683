package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Observation;
import io.durableagents.api.Portrayal;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.grid.Direction;
import io.durableagents.scenarios.grid.GridPosition;
import io.durableagents.scenarios.grid.Torus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The civil violence world: a torus of citizens and cops, after Epstein (2002) and Mesa's example.
 *
 * <ul>
 *   <li>Grievance G = H x (1 - L); estimated arrest probability P = 1 - exp(-k x round(C / A)), with C
 *       the cops and A the active citizens in vision (the citizen itself counted as active), rounded
 *       half to even as Mesa does; net risk N = R x P. Epstein's rule: active when G - N > T.
 *   <li>Citizens act with {@code change_state} and {@code move_one_step}; cops with {@code
 *       move_one_step} and {@code arrest_citizen}, which jails an active citizen within vision for a
 *       uniform term in [0, maxJailTerm]. Jailed citizens keep their cell and do not act.
 *   <li>Actions are applied one by one in the order the simulation gives: a cell taken by an earlier
 *       action blocks a later move, a citizen already jailed cannot be arrested again.
 * </ul>
 */
public final class EpsteinWorld implements ScenarioWorld {
  private final EpsteinParameters parameters;
  private final Torus torus;
  private final LinkedHashMap<String, EpsteinAgent> agents = new LinkedHashMap<>();
  /**
   * Who is where: {@code cells[x * height + y]} is 1 + the ordinal (creation order) of the agent on
   * that cell, 0 when it is empty; null when two agents share a cell (a world this class never makes,
   * but a snapshot could hold), and every lookup scans all agents instead. With it, an agent's
   * neighbours and a move's target cost the cells in vision, not the whole population: 10,000 agents'
   * observations were 200 million distance checks a step.
   */
  private int[] cells;
  private final List<String> byOrdinal = new ArrayList<>();
  private final Map<String, Integer> ordinals = new HashMap<>();

  private EpsteinWorld(EpsteinParameters parameters, List<EpsteinAgent> agents) {
    this.parameters = parameters;
    this.torus = new Torus(parameters.width(), parameters.height());
    for (EpsteinAgent a : agents) {
      this.agents.put(a.id(), a);
    }
    for (String id : this.agents.keySet()) {
      ordinals.put(id, byOrdinal.size());
      byOrdinal.add(id);
    }
    cells = new int[Math.multiplyExact(parameters.width(), parameters.height())];
    for (EpsteinAgent a : this.agents.values()) {
      int c = cell(a.position());
      if (c < 0 || cells[c] != 0) {
        cells = null; // shared or off-grid cells: fall back to scanning
        break;
      }
      cells[c] = ordinals.get(a.id()) + 1;
    }
  }

  /** The index of {@code p} in {@link #cells}, or -1 when it is off the grid. */
  private int cell(GridPosition p) {
    if (p.x() < 0 || p.y() < 0 || p.x() >= parameters.width() || p.y() >= parameters.height()) {
      return -1;
    }
    return p.x() * parameters.height() + p.y();
  }

  /** The distinct coordinates within {@code vision} of {@code c} on a ring of {@code size}. */
  private static int[] around(int c, int vision, int size) {
    if (2 * vision + 1 >= size) {
      int[] all = new int[size];
      for (int i = 0; i < size; i++) {
        all[i] = i;
      }
      return all;
    }
    int[] result = new int[2 * vision + 1];
    for (int d = -vision; d <= vision; d++) {
      result[d + vision] = Math.floorMod(c + d, size);
    }
    return result;
  }

  /** Places the agents on distinct random cells and draws each citizen's hardship and risk aversion. */
  public static EpsteinWorld create(EpsteinParameters p, SeededRandom random) {
    List<GridPosition> cells = new ArrayList<>();
    for (int x = 0; x < p.width(); x++) {
      for (int y = 0; y < p.height(); y++) {
        cells.add(new GridPosition(x, y));
      }
    }
    List<GridPosition> shuffled = random.shuffled(cells);
    List<EpsteinAgent> agents = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < p.citizens(); i++) {
      double hardship = random.nextDouble();
      double riskAversion = random.nextDouble();
      agents.add(new EpsteinAgent("citizen-" + i, EpsteinScenario.CITIZEN, shuffled.get(next++),
          EpsteinScenario.QUIET, hardship, riskAversion, 0));
    }
    for (int i = 0; i < p.cops(); i++) {
      agents.add(new EpsteinAgent("cop-" + i, EpsteinScenario.COP, shuffled.get(next++),
          EpsteinScenario.COP, 0, 0, 0));
    }
    return new EpsteinWorld(p, agents);
  }

  /** Rebuilds a world from its saved state (parameters and agents). */
  public static EpsteinWorld restore(EpsteinParameters p, List<EpsteinAgent> agents) {
    return new EpsteinWorld(p, agents);
  }

  /** A world that scans every agent for neighbours and cells, as before the index (tests compare). */
  static EpsteinWorld unindexed(EpsteinParameters p, List<EpsteinAgent> agents) {
    EpsteinWorld w = new EpsteinWorld(p, agents);
    w.cells = null;
    return w;
  }

  /** Rebuilds a world from {@link #snapshot()}. */
  public static EpsteinWorld restore(EpsteinSnapshot snapshot) {
    return new EpsteinWorld(snapshot.parameters(), snapshot.agents());
  }

  @Override
  public EpsteinSnapshot snapshot() {
    return new EpsteinSnapshot(parameters, agents());
  }

  public EpsteinParameters parameters() {
    return parameters;
  }

  /** The agents, in id order of creation. */
  public List<EpsteinAgent> agents() {
    return List.copyOf(agents.values());
  }

  public EpsteinAgent agent(String id) {
    return agents.get(id);
  }

  @Override
  public List<String> agentIds() {
    return List.copyOf(agents.keySet());
  }

  @Override
  public String roleOf(String agentId) {
    return agents.get(agentId).role();
  }

  @Override
  public boolean canAct(String agentId) {
    return !agents.get(agentId).isJailed();
  }

  @Override
  public List<String> toolsOf(String role) {
    return EpsteinScenario.COP.equals(role)
        ? EpsteinScenario.COP_TOOLS
        : EpsteinScenario.CITIZEN_TOOLS;
  }

  @Override
  public List<String> worldActions() {
    return EpsteinScenario.WORLD_ACTIONS;
  }

  /** G = H x (1 - L). */
  public double grievance(EpsteinAgent a) {
    return a.hardship() * (1 - parameters.legitimacy());
  }

  /** P = 1 - exp(-k x round(C / A)), with the citizen counted among the actives. */
  public double estimatedArrestProbability(EpsteinAgent a) {
    int cops = 0;
    int actives = 1;
    for (EpsteinAgent other : neighbours(a)) {
      if (other.isCop()) {
        cops++;
      } else if (other.isActive()) {
        actives++;
      }
    }
    return 1 - Math.exp(-parameters.arrestProbabilityConstant() * Math.rint((double) cops / actives));
  }

  /** Epstein's own rule: what a rule-following citizen would be. */
  public boolean wouldBeActive(EpsteinAgent a) {
    return grievance(a) - a.riskAversion() * estimatedArrestProbability(a)
        > parameters.activeThreshold();
  }

  /** The agents within vision of {@code a} (Chebyshev distance on the torus), in creation order. */
  private List<EpsteinAgent> neighbours(EpsteinAgent a) {
    List<EpsteinAgent> result = new ArrayList<>();
    if (cells == null) {
      for (EpsteinAgent other : agents.values()) {
        if (!other.id().equals(a.id())
            && torus.distance(a.position(), other.position()) <= parameters.vision()) {
          result.add(other);
        }
      }
      return result;
    }
    int[] xs = around(a.position().x(), parameters.vision(), parameters.width());
    int[] ys = around(a.position().y(), parameters.vision(), parameters.height());
    int self = ordinals.get(a.id());
    int[] found = new int[16];
    int n = 0;
    for (int x : xs) {
      for (int y : ys) {
        int o = cells[x * parameters.height() + y] - 1;
        if (o >= 0 && o != self) {
          if (n == found.length) {
            found = java.util.Arrays.copyOf(found, n * 2);
          }
          found[n++] = o;
        }
      }
    }
    java.util.Arrays.sort(found, 0, n); // the order a scan of all agents gives
    for (int i = 0; i < n; i++) {
      result.add(agents.get(byOrdinal.get(found[i])));
    }
    return result;
  }

  @Override
  public Observation observe(String agentId, int step) {
    EpsteinAgent a = agents.get(agentId);
    Map<String, Object> self = new LinkedHashMap<>();
    self.put("id", a.id());
    self.put("role", a.role());
    self.put("position", a.position().asList());
    self.put("grid", Map.of("width", parameters.width(), "height", parameters.height(),
        "torus", true, "vision", parameters.vision()));
    if (a.isCitizen()) {
      self.put("state", a.condition());
      self.put("legitimacy", parameters.legitimacy());
      self.put("_hardship", round(a.hardship()));
      self.put("_risk_aversion", round(a.riskAversion()));
      self.put("_grievance", round(grievance(a)));
      self.put("_estimated_arrest_probability", round(estimatedArrestProbability(a)));
      self.put("_threshold", parameters.activeThreshold());
    }
    Map<String, Map<String, Object>> local = new LinkedHashMap<>();
    for (EpsteinAgent other : neighbours(a)) {
      local.put(other.id(), publicState(other));
    }
    return new Observation(step, self, local);
  }

  /** What a neighbour may see of {@code a}: never its {@code _}-prefixed attributes. */
  private static Map<String, Object> publicState(EpsteinAgent a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("role", a.role());
    m.put("position", a.position().asList());
    if (a.isCitizen()) {
      m.put("state", a.condition());
    }
    return m;
  }

  private static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }

  @Override
  public String apply(WorldAction action, SeededRandom random) {
    EpsteinAgent actor = agents.get(action.agentId());
    if (actor == null) {
      return action.tool() + ": unknown agent " + action.agentId();
    }
    if (actor.isJailed()) {
      return action.tool() + ": you are in jail and cannot act";
    }
    JsonNode args = action.arguments();
    switch (action.tool()) {
      case EpsteinScenario.CHANGE_STATE:
        return changeState(actor, text(args, "state"));
      case EpsteinScenario.MOVE_ONE_STEP:
        return move(actor, text(args, "direction"));
      case EpsteinScenario.ARREST_CITIZEN:
        return arrest(actor, text(args, "citizen_id"), random);
      default:
        return action.tool() + ": not an action of this world";
    }
  }

  private String changeState(EpsteinAgent actor, String state) {
    if (!actor.isCitizen()) {
      return "change_state: only citizens can change state";
    }
    if (!EpsteinScenario.ACTIVE.equals(state) && !EpsteinScenario.QUIET.equals(state)) {
      return "change_state: state must be 'active' or 'quiet', was '" + state + "'";
    }
    agents.put(actor.id(), actor.withCondition(state));
    return "change_state: you are now " + state;
  }

  private String move(EpsteinAgent actor, String directionName) {
    Direction d = Direction.parse(directionName);
    if (d == null) {
      return "move_one_step: direction must be one of " + Direction.allowed() + ", was '"
          + directionName + "'";
    }
    GridPosition target = torus.step(actor.position(), d);
    String taken = null;
    if (cells == null) {
      for (EpsteinAgent other : agents.values()) {
        if (other.position().equals(target)) {
          taken = other.id();
          break;
        }
      }
    } else if (cells[cell(target)] != 0) {
      taken = byOrdinal.get(cells[cell(target)] - 1);
    }
    if (taken != null) {
      return "move_one_step " + d + ": blocked, cell " + target.asList() + " is taken by " + taken;
    }
    if (cells != null) {
      cells[cell(target)] = cells[cell(actor.position())];
      cells[cell(actor.position())] = 0;
    }
    agents.put(actor.id(), actor.withPosition(target));
    return "move_one_step " + d + ": moved to " + target.asList();
  }

  private String arrest(EpsteinAgent cop, String citizenId, SeededRandom random) {
    if (!cop.isCop()) {
      return "arrest_citizen: only cops can arrest";
    }
    EpsteinAgent target = citizenId == null ? null : agents.get(citizenId);
    if (target == null || !target.isCitizen()) {
      return "arrest_citizen: no citizen with id '" + citizenId + "'";
    }
    if (target.isJailed()) {
      return "arrest_citizen: " + citizenId + " is already in jail";
    }
    if (torus.distance(cop.position(), target.position()) > parameters.vision()) {
      return "arrest_citizen: " + citizenId + " is out of your vision";
    }
    if (!target.isActive()) {
      return "arrest_citizen: " + citizenId + " is quiet; only active citizens can be arrested";
    }
    int sentence = random.nextIntInclusive(0, parameters.maxJailTerm());
    agents.put(target.id(), target.withJail(EpsteinScenario.JAILED, sentence));
    return "arrest_citizen: arrested " + citizenId + ", jailed for " + sentence + " steps";
  }

  private static String text(JsonNode args, String field) {
    if (args == null || !args.has(field) || args.get(field).isNull()) {
      return null;
    }
    return args.get(field).asText();
  }

  @Override
  public void endStep(int step, SeededRandom random) {
    for (EpsteinAgent a : List.copyOf(agents.values())) {
      if (a.isJailed()) {
        if (a.jailSentence() <= 0) {
          agents.put(a.id(), a.withJail(EpsteinScenario.QUIET, 0));
        } else {
          agents.put(a.id(), a.withJail(EpsteinScenario.JAILED, a.jailSentence() - 1));
        }
      }
    }
  }

  /** Quiet, active and jailed citizens and cops on the torus, in Mesa's colours ({@link EpsteinPortrayal}). */
  @Override
  public Portrayal portrayal() {
    return EpsteinPortrayal.of(this);
  }

  @Override
  public Map<String, Number> counts() {
    Map<String, Integer> counts = new HashMap<>();
    for (EpsteinAgent a : agents.values()) {
      if (a.isCitizen()) {
        counts.merge(a.condition(), 1, Integer::sum);
      }
    }
    Map<String, Number> ordered = new LinkedHashMap<>();
    for (String key : List.of(EpsteinScenario.ACTIVE, EpsteinScenario.QUIET, EpsteinScenario.JAILED)) {
      ordered.put(key, counts.getOrDefault(key, 0));
    }
    return ordered;
  }
}
