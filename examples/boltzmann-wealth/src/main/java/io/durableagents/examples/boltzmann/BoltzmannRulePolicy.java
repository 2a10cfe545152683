package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.RulePolicy;
import io.durableagents.api.SeededRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Mesa's rules for the Boltzmann wealth model, played by the offline {@code rules} model in place of
 * an LLM, through every strategy: move to a random neighbouring cell (one with room), then, with money
 * left, give one unit to a random person seen in that cell. So the scenario runs, and is tested, with
 * no network and no key. A ReWOO plan runs one action a simulation step, so it plays them apart: a gift
 * now to someone in the agent's own cell, then moves ({@link #plan}).
 *
 * <p>Its random choices come from a generator seeded with the agent's id and the step: the same
 * observation always gets the same decision, so a retried or replayed call changes nothing.
 */
public final class BoltzmannRulePolicy implements RulePolicy {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  @Override
  public Optional<RuleDecision> decide(String role, int step, Map<String, Object> self,
      Map<String, Map<String, Object>> local) {
    if (!BoltzmannScenario.PERSON.equals(role)) {
      return Optional.empty();
    }
    SeededRandom random = random(self, step);
    View view = new View(self, local);
    List<String> thoughts = new ArrayList<>();
    thoughts.add("I have " + view.wealth + " unit(s) of money, in cell " + view.here.asList() + ".");
    List<Heading> open = view.openHeadings(view.here);
    List<RuleDecision.Action> actions = new ArrayList<>();
    Cell target = view.here;
    if (open.isEmpty()) {
      thoughts.add("Every cell around me is full: I stay.");
    } else {
      Heading heading = open.get(random.nextInt(open.size()));
      target = view.here.step(heading, view.width, view.height);
      thoughts.add("Move " + heading + " to " + target.asList() + ", a neighbouring cell chosen at random.");
      actions.add(move(heading));
    }
    List<String> there = view.peopleIn(target);
    if (view.wealth < 1) {
      thoughts.add("I have no money to give.");
    } else if (there.isEmpty()) {
      thoughts.add("Nobody is in that cell to give money to.");
    } else {
      String recipient = there.get(random.nextInt(there.size()));
      thoughts.add("Give 1 unit to " + recipient + ", chosen at random among " + there + ".");
      actions.add(give(recipient));
    }
    return Optional.of(new RuleDecision(thoughts, actions));
  }

  /**
   * A ReWOO plan of at most {@code length} actions, one a simulation step. Everyone moves every step, so
   * someone seen in a cell now has left it by the next step: a gift planned for a later step would be
   * refused. The plan therefore gives now, to a random person in the agent's own cell, when it has
   * money and company, and moves on the steps after that (or moves from the start), to random cells
   * with room as seen now. A planned move into a cell full by then makes the agent re-plan.
   */
  @Override
  public List<RuleDecision.Action> plan(String role, int step, Map<String, Object> self,
      Map<String, Map<String, Object>> local, RuleDecision decision, int length) {
    View view = new View(self, local);
    SeededRandom random = random(self, step);
    List<RuleDecision.Action> plan = new ArrayList<>();
    List<String> company = view.peopleIn(view.here);
    if (view.wealth >= 1 && !company.isEmpty()) {
      plan.add(give(company.get(random.nextInt(company.size()))));
    }
    Cell at = view.here;
    while (plan.size() < length) {
      List<Heading> open = view.openHeadings(at);
      if (open.isEmpty()) {
        break;
      }
      Heading heading = open.get(random.nextInt(open.size()));
      at = at.step(heading, view.width, view.height);
      plan.add(move(heading));
    }
    return plan;
  }

  private static RuleDecision.Action move(Heading heading) {
    return new RuleDecision.Action(BoltzmannScenario.MOVE,
        JSON.objectNode().put(BoltzmannScenario.DIRECTION, heading.name()));
  }

  private static RuleDecision.Action give(String recipient) {
    return new RuleDecision.Action(BoltzmannScenario.GIVE_MONEY,
        JSON.objectNode().put(BoltzmannScenario.RECIPIENT_ID, recipient));
  }

  /**
   * The generator of one agent's step. SplitMix64 ({@link SeededRandom}) mixes its seed: the first draws
   * of {@code java.util.Random} seeded with nearby numbers are nearly the same, and an agent seeded with
   * its id plus the step would walk in one or two directions only.
   */
  private static SeededRandom random(Map<String, Object> self, int step) {
    return new SeededRandom(31L * String.valueOf(self.get("id")).hashCode() + step);
  }

  /** What the policy reads from an observation. */
  private static final class View {
    final Cell here;
    final int wealth;
    final int width;
    final int height;
    final int capacity;
    final Map<String, Map<String, Object>> local;

    View(Map<String, Object> self, Map<String, Map<String, Object>> local) {
      Cell position = Cell.of(self.get(BoltzmannScenario.POSITION));
      this.here = position == null ? new Cell(0, 0) : position;
      this.wealth = number(self.get(BoltzmannScenario.WEALTH));
      Map<?, ?> grid = self.get(BoltzmannScenario.GRID) instanceof Map<?, ?> g ? g : Map.of();
      this.width = Math.max(1, number(grid.get("width")));
      this.height = Math.max(1, number(grid.get("height")));
      this.capacity = number(grid.get(BoltzmannScenario.CELL_CAPACITY));
      this.local = local;
    }

    /** The people seen in {@code cell}, by id in order. */
    List<String> peopleIn(Cell cell) {
      return local.entrySet().stream()
          .filter(e -> cell.equals(Cell.of(e.getValue().get(BoltzmannScenario.POSITION))))
          .map(Map.Entry::getKey).sorted().toList();
    }

    /** The directions from {@code from} to a cell with room, as seen now. */
    List<Heading> openHeadings(Cell from) {
      List<Heading> open = new ArrayList<>();
      for (Heading h : Heading.values()) {
        Cell to = from.step(h, width, height);
        if (to.equals(here) || capacity <= 0 || peopleIn(to).size() < capacity) {
          open.add(h);
        }
      }
      return open;
    }

    private static int number(Object value) {
      return value instanceof Number n ? n.intValue() : 0;
    }
  }
}
