package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Observation;
import io.durableagents.api.Portrayal;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The world of Mesa's Boltzmann wealth model: people on a torus, several to a cell (Mesa's {@code
 * MultiGrid}, up to {@code cell_capacity}), each with some money. Each step a person may {@code move} to
 * a neighbouring cell and {@code give_money}: one unit to someone in its cell. Money only changes hands,
 * so the total never changes; what the data collector watches is how unequal it becomes.
 *
 * <p>It runs inside the simulation workflow, so it is deterministic: the only randomness is the {@link
 * SeededRandom} passed in, every map iterates in insertion order, and there is no clock and no I/O.
 *
 * <p>Unlike Mesa's agents, which act one after another and see each other's moves, LLM agents decide
 * at the same time from what they saw at the start of the step; the simulation then applies their
 * actions one agent at a time, in a seeded random order. A gift to someone who has moved away in the
 * meantime is refused and changes nothing, and the giver reads why in its next observation.
 */
public final class BoltzmannWorld implements ScenarioWorld {
  private final BoltzmannParameters parameters;
  private final LinkedHashMap<String, Person> people = new LinkedHashMap<>();
  private final LinkedHashMap<String, List<String>> messages = new LinkedHashMap<>();

  private BoltzmannWorld(BoltzmannParameters parameters, List<Person> people) {
    this.parameters = parameters;
    people.forEach(p -> this.people.put(p.id(), p));
  }

  /**
   * A new world: {@code agents} people with {@code starting_wealth} each, on random cells drawn from
   * {@code random}. A cell drawn full gives way to the next cell with room, row by row.
   */
  public static BoltzmannWorld create(BoltzmannParameters p, SeededRandom random) {
    Map<Cell, Integer> occupancy = new LinkedHashMap<>();
    List<Person> people = new ArrayList<>();
    for (int i = 0; i < p.agents(); i++) {
      int index = random.nextInt(p.width() * p.height());
      Cell cell = new Cell(index % p.width(), index / p.width());
      while (occupancy.getOrDefault(cell, 0) >= p.cellCapacity()) {
        index = (index + 1) % (p.width() * p.height());
        cell = new Cell(index % p.width(), index / p.width());
      }
      occupancy.merge(cell, 1, Integer::sum);
      people.add(new Person("person-" + i, cell, p.startingWealth()));
    }
    return new BoltzmannWorld(p, people);
  }

  /** The world that {@link #snapshot()} saved. */
  public static BoltzmannWorld restore(BoltzmannSnapshot snapshot) {
    return new BoltzmannWorld(snapshot.parameters(), snapshot.people());
  }

  @Override
  public BoltzmannSnapshot snapshot() {
    return new BoltzmannSnapshot(parameters, people());
  }

  /** Every person, in the world's order. */
  public List<Person> people() {
    return List.copyOf(people.values());
  }

  /** The person with id {@code id}, or null. */
  public Person person(String id) {
    return people.get(id);
  }

  @Override
  public List<String> agentIds() {
    return List.copyOf(people.keySet());
  }

  @Override
  public String roleOf(String agentId) {
    return BoltzmannScenario.PERSON;
  }

  @Override
  public boolean canAct(String agentId) {
    return true;
  }

  @Override
  public List<String> toolsOf(String role) {
    return BoltzmannScenario.WORLD_ACTIONS;
  }

  @Override
  public List<String> worldActions() {
    return BoltzmannScenario.WORLD_ACTIONS;
  }

  /**
   * What a person sees: its own cell, money and grid, who shares its cell, and everyone in its Moore
   * neighbourhood (its cell and the eight around it: the cells it can reach with one move), with their
   * cells and money.
   */
  @Override
  public Observation observe(String agentId, int step) {
    Person me = people.get(agentId);
    List<String> cellmates = new ArrayList<>();
    Map<String, Map<String, Object>> local = new LinkedHashMap<>();
    for (Person other : people.values()) {
      if (other.id().equals(me.id())
          || other.cell().distance(me.cell(), parameters.width(), parameters.height()) > 1) {
        continue;
      }
      if (other.cell().equals(me.cell())) {
        cellmates.add(other.id());
      }
      Map<String, Object> seen = new LinkedHashMap<>();
      seen.put(BoltzmannScenario.POSITION, other.cell().asList());
      seen.put(BoltzmannScenario.WEALTH, other.wealth());
      local.put(other.id(), seen);
    }
    Map<String, Object> self = new LinkedHashMap<>();
    self.put("id", me.id());
    self.put("role", BoltzmannScenario.PERSON);
    self.put(BoltzmannScenario.POSITION, me.cell().asList());
    self.put(BoltzmannScenario.WEALTH, me.wealth());
    self.put(BoltzmannScenario.CELLMATES, cellmates);
    Map<String, Object> grid = new LinkedHashMap<>();  // not Map.of: its order changes from JVM to JVM
    grid.put("width", parameters.width());
    grid.put("height", parameters.height());
    grid.put("torus", true);
    grid.put(BoltzmannScenario.CELL_CAPACITY, parameters.cellCapacity());
    self.put(BoltzmannScenario.GRID, grid);
    return new Observation(step, self, local);
  }

  @Override
  public String apply(WorldAction action, SeededRandom random) {
    Person actor = people.get(action.agentId());
    if (actor == null) {
      return action.tool() + ": unknown person " + action.agentId();
    }
    JsonNode args = action.arguments();
    switch (action.tool()) {
      case BoltzmannScenario.MOVE:
        return move(actor, text(args, BoltzmannScenario.DIRECTION));
      case BoltzmannScenario.GIVE_MONEY:
        return giveMoney(actor, text(args, BoltzmannScenario.RECIPIENT_ID));
      default:
        return action.tool() + ": not an action of this world";
    }
  }

  private String move(Person actor, String direction) {
    Heading heading = Heading.parse(direction);
    if (heading == null) {
      return "move: direction must be one of " + Heading.allowed() + ", was '" + direction + "'";
    }
    Cell target = actor.cell().step(heading, parameters.width(), parameters.height());
    int there = occupants(target);
    if (!target.equals(actor.cell()) && there >= parameters.cellCapacity()) {
      return "move " + heading + ": blocked, cell " + target.asList() + " is full (" + there + " people)";
    }
    people.put(actor.id(), actor.movedTo(target));
    return "move " + heading + ": moved to " + target.asList();
  }

  private String giveMoney(Person giver, String recipientId) {
    if (giver.wealth() < 1) {
      return "give_money: you have no money to give";
    }
    Person recipient = recipientId == null ? null : people.get(recipientId);
    if (recipient == null) {
      return "give_money: there is nobody with id '" + recipientId + "'";
    }
    if (recipient.id().equals(giver.id())) {
      return "give_money: you cannot give money to yourself";
    }
    if (!recipient.cell().equals(giver.cell())) {
      return "give_money " + recipientId + ": refused, " + recipientId + " is not in your cell "
          + giver.cell().asList();
    }
    people.put(giver.id(), giver.withWealth(giver.wealth() - 1));
    people.put(recipient.id(), recipient.withWealth(recipient.wealth() + 1));
    messages.computeIfAbsent(recipient.id(), k -> new ArrayList<>())
        .add(giver.id() + " gave you 1 unit of money");
    return "give_money " + recipientId + ": gave 1 unit of money, you have " + (giver.wealth() - 1) + " left";
  }

  private int occupants(Cell cell) {
    int n = 0;
    for (Person p : people.values()) {
      if (p.cell().equals(cell)) {
        n++;
      }
    }
    return n;
  }

  private static String text(JsonNode args, String field) {
    JsonNode v = args == null ? null : args.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** Gifts received this step, by recipient: each hears who gave ({@code person-3 gave you ...}). */
  @Override
  public Map<String, List<String>> drainMessages() {
    Map<String, List<String>> drained = new LinkedHashMap<>(messages);
    messages.clear();
    return drained;
  }

  @Override
  public void endStep(int step, SeededRandom random) {
    // nothing happens between steps in this model
  }

  /** Mesa's model reporters: the Gini coefficient, the money in the world, the richest person's money. */
  @Override
  public Map<String, Number> counts() {
    List<Integer> wealths = people.values().stream().map(Person::wealth).toList();
    Map<String, Number> counts = new LinkedHashMap<>();
    counts.put(BoltzmannScenario.GINI, gini(wealths));
    counts.put(BoltzmannScenario.TOTAL_WEALTH, wealths.stream().mapToInt(Integer::intValue).sum());
    counts.put(BoltzmannScenario.RICHEST_WEALTH, wealths.stream().mapToInt(Integer::intValue).max().orElse(0));
    return counts;
  }

  /**
   * How a view draws the world, as Mesa's example does: each person in its cell, red when broke, blue
   * up to the money everyone started with, green above it, labelled with its money.
   */
  @Override
  public Portrayal portrayal() {
    List<AgentPortrayal> drawn = new ArrayList<>();
    for (Person p : people.values()) {
      String color = p.wealth() == 0 ? "#d62728" : p.wealth() <= parameters.startingWealth() ? "#1f77b4" : "#2ca02c";
      drawn.add(AgentPortrayal.of(p.id(), BoltzmannScenario.PERSON).at(p.cell().x(), p.cell().y())
          .withColor(color)
          .withLabel(String.valueOf(p.wealth()))
          .withAttribute("wealth", p.wealth()));
    }
    return Portrayal.grid(parameters.width(), parameters.height(), drawn);
  }

  /**
   * The Gini coefficient of {@code wealths}, as Mesa's tutorial computes it: 0 when everyone has the
   * same, towards 1 when one has everything ({@code (n - 1) / n} exactly); 0 when nobody has anything.
   */
  public static double gini(List<Integer> wealths) {
    List<Integer> x = new ArrayList<>(wealths);
    x.sort(null);
    long n = x.size();
    long total = 0;
    long weighted = 0;
    for (int i = 0; i < n; i++) {
      total += x.get(i);
      weighted += x.get(i) * (n - i);
    }
    if (n == 0 || total == 0) {
      return 0.0;
    }
    // Mesa's 1 + 1/n - 2 B with B = weighted / (n total), over one denominator in whole numbers: exactly
    // 0 when all are equal (in doubles it can come out as 1e-16)
    return (double) (n * total + total - 2 * weighted) / ((double) n * total);
  }
}
