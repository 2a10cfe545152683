package io.durableagents.workflows.autonomous;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code todo} tool's list: priority-aware items with dependencies, kept as workflow state.
 *
 * <ul>
 *   <li>{@link #add} and {@link #batchAdd} create items; in a batch, a dependency {@code "0"}, {@code
 *       "1"}, ... is the index of an item of the same batch, anything else an existing item's id. A
 *       dependency on an unknown id, a list over {@code maxItems}, or a dependency cycle (Kahn's
 *       algorithm over the whole list) rejects the whole call and changes nothing;
 *   <li>{@link #next} is the highest-priority pending item whose dependencies are all terminal (ties:
 *       the older item first);
 *   <li>{@link #remove} drops the item and every dependency on it;
 *   <li>{@link #allTerminal} is the auto-completion test: a non-empty list whose items are all
 *       completed, failed or skipped.
 * </ul>
 *
 * <p>Ids are {@code t1}, {@code t2}, ... in order of creation (never reused), so every replay of a
 * history makes the same ids. Iteration order is insertion order ({@link LinkedHashMap}).
 *
 * <pre>{@code
 * TodoList todos = new TodoList(30);
 * List<String> ids = todos.batchAdd(List.of(new TodoList.NewTodo("Write tests", "high", List.of()),
 *     new TodoList.NewTodo("Run tests", null, List.of("0"))));
 * TodoItem next = todos.next().orElseThrow(); // Write tests
 * }</pre>
 */
public final class TodoList {
  /** The default and the bounds of {@code max_items}. */
  public static final int DEFAULT_MAX_ITEMS = 30;

  private final int maxItems;
  private final Map<String, TodoItem> items = new LinkedHashMap<>();
  private int created;

  /** A new item of a batch: a dependency is a batch index ({@code "0"}) or an existing id. */
  public record NewTodo(String description, String priority, List<String> dependsOn) {
    public NewTodo {
      dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    }
  }

  /** An empty list that holds at most {@code maxItems} items. */
  public TodoList(int maxItems) {
    if (maxItems < 1) {
      throw new IllegalArgumentException("maxItems must be >= 1, was " + maxItems);
    }
    this.maxItems = maxItems;
  }

  /** A list holding {@code items} (e.g. restored), ids continuing after the highest. */
  public static TodoList of(int maxItems, List<TodoItem> items) {
    TodoList list = new TodoList(maxItems);
    for (TodoItem i : items) {
      list.items.put(i.id(), i);
      if (i.id().startsWith("t")) {
        try {
          list.created = Math.max(list.created, Integer.parseInt(i.id().substring(1)));
        } catch (NumberFormatException ignored) {
          // an id of another form takes no number
        }
      }
    }
    return list;
  }

  /**
   * Adds one item.
   *
   * @return its id
   * @throws IllegalArgumentException for an empty description, a bad priority, an unknown dependency,
   *     a full list or a cycle
   */
  public String add(String description, String priority, List<String> dependsOn) {
    List<String> ids = batchAdd(List.of(new NewTodo(description, priority,
        dependsOn == null ? List.of() : dependsOn.stream().map(this::notAnIndex).toList())));
    return ids.get(0);
  }

  // In a single add, "0" is not a batch index: mark it so batchAdd reads it as an id.
  private String notAnIndex(String id) {
    return "#" + id;
  }

  /**
   * Adds several items at once, all or none.
   *
   * @return their ids, in order
   * @throws IllegalArgumentException as {@link #add}, naming the item
   */
  public List<String> batchAdd(List<NewTodo> batch) {
    if (batch == null || batch.isEmpty()) {
      throw new IllegalArgumentException("no items to add");
    }
    if (items.size() + batch.size() > maxItems) {
      throw new IllegalArgumentException("the list holds at most " + maxItems + " items (max_items); it has "
          + items.size() + " and " + batch.size() + " more would not fit");
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      ids.add("t" + (created + i + 1));
    }
    Map<String, TodoItem> next = new LinkedHashMap<>(items);
    for (int i = 0; i < batch.size(); i++) {
      NewTodo n = batch.get(i);
      String where = batch.size() == 1 ? "" : " (item " + i + ")";
      if (n.description() == null || n.description().isBlank()) {
        throw new IllegalArgumentException("an item needs a description" + where);
      }
      TodoPriority priority;
      try {
        priority = TodoPriority.parse(n.priority());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage() + where);
      }
      List<String> deps = new ArrayList<>();
      for (String ref : n.dependsOn()) {
        String id = resolve(ref, ids, where);
        if (!deps.contains(id)) {
          deps.add(id);
        }
      }
      next.put(ids.get(i), new TodoItem(ids.get(i), n.description().strip(), priority,
          TodoStatus.PENDING, deps, null));
    }
    List<String> cycle = cycle(next);
    if (!cycle.isEmpty()) {
      throw new IllegalArgumentException("rejected: the dependencies make a cycle among " + cycle);
    }
    items.clear();
    items.putAll(next);
    created += batch.size();
    return ids;
  }

  private String resolve(String ref, List<String> batchIds, String where) {
    String r = ref == null ? "" : ref.strip();
    if (r.startsWith("#")) {
      r = r.substring(1);
    } else if (r.matches("\\d+")) {
      int index = Integer.parseInt(r);
      if (index >= batchIds.size()) {
        throw new IllegalArgumentException("dependency \"" + r + "\"" + where + " is not an index of this "
            + "batch (0 to " + (batchIds.size() - 1) + ")");
      }
      return batchIds.get(index);
    }
    if (!items.containsKey(r) && !batchIds.contains(r)) {
      throw new IllegalArgumentException("dependency '" + r + "'" + where + " is not an item; ids: "
          + items.keySet());
    }
    return r;
  }

  /**
   * Kahn's algorithm: repeatedly take the items none of whose remaining dependencies is left. What
   * cannot be taken is on a cycle (or waits on one); empty when there is none.
   */
  static List<String> cycle(Map<String, TodoItem> graph) {
    Map<String, Integer> waitingOn = new LinkedHashMap<>();
    Map<String, List<String>> dependants = new LinkedHashMap<>();
    for (TodoItem i : graph.values()) {
      waitingOn.put(i.id(), 0);
      dependants.put(i.id(), new ArrayList<>());
    }
    for (TodoItem i : graph.values()) {
      for (String d : i.dependsOn()) {
        if (graph.containsKey(d)) {
          waitingOn.merge(i.id(), 1, Integer::sum);
          dependants.get(d).add(i.id());
        }
      }
    }
    Deque<String> ready = new ArrayDeque<>();
    waitingOn.forEach((id, n) -> {
      if (n == 0) {
        ready.add(id);
      }
    });
    int taken = 0;
    while (!ready.isEmpty()) {
      String id = ready.poll();
      taken++;
      for (String dependant : dependants.get(id)) {
        if (waitingOn.merge(dependant, -1, Integer::sum) == 0) {
          ready.add(dependant);
        }
      }
    }
    List<String> left = new ArrayList<>();
    if (taken < graph.size()) {
      waitingOn.forEach((id, n) -> {
        if (n > 0) {
          left.add(id);
        }
      });
    }
    return left;
  }

  /**
   * Changes an item's status, notes or priority; a null leaves that field as it is.
   *
   * @throws IllegalArgumentException for an unknown id or a bad status or priority
   */
  public TodoItem update(String id, String status, String notes, String priority) {
    TodoItem item = get(id);
    TodoItem updated = new TodoItem(item.id(), item.description(),
        priority == null || priority.isBlank() ? item.priority() : TodoPriority.parse(priority),
        status == null || status.isBlank() ? item.status() : TodoStatus.parse(status),
        item.dependsOn(), notes == null || notes.isBlank() ? item.notes() : notes.strip());
    items.put(id, updated);
    return updated;
  }

  /** Removes an item and every other item's dependency on it. */
  public TodoItem remove(String id) {
    TodoItem removed = get(id);
    items.remove(id);
    for (TodoItem i : new ArrayList<>(items.values())) {
      if (i.dependsOn().contains(id)) {
        items.put(i.id(), new TodoItem(i.id(), i.description(), i.priority(), i.status(),
            i.dependsOn().stream().filter(d -> !d.equals(id)).toList(), i.notes()));
      }
    }
    return removed;
  }

  /** The highest-priority pending item whose dependencies are all terminal; ties go to the older. */
  public Optional<TodoItem> next() {
    TodoItem best = null;
    for (TodoItem i : items.values()) {
      if (i.status() != TodoStatus.PENDING || !dependenciesDone(i)) {
        continue;
      }
      if (best == null || i.priority().ordinal() < best.priority().ordinal()) {
        best = i;
      }
    }
    return Optional.ofNullable(best);
  }

  private boolean dependenciesDone(TodoItem item) {
    for (String d : item.dependsOn()) {
      TodoItem dep = items.get(d);
      if (dep != null && !dep.status().terminal()) {
        return false;
      }
    }
    return true;
  }

  /** True when the list has items and every one is terminal: the run may complete on its own. */
  public boolean allTerminal() {
    return !items.isEmpty() && items.values().stream().allMatch(i -> i.status().terminal());
  }

  /** The item {@code id}. */
  public TodoItem get(String id) {
    TodoItem item = items.get(id == null ? "" : id.strip());
    if (item == null) {
      throw new IllegalArgumentException("no item '" + id + "'; ids: " + items.keySet());
    }
    return item;
  }

  /** Every item, in order of creation. */
  public List<TodoItem> items() {
    return List.copyOf(items.values());
  }

  /** True when there is no item. */
  public boolean isEmpty() {
    return items.isEmpty();
  }

  /** The whole list as the agent sees it. */
  public String format() {
    return format(null);
  }

  /** The items with {@code status} (every item when null), one line each. */
  public String format(TodoStatus status) {
    List<TodoItem> shown = items.values().stream()
        .filter(i -> status == null || i.status() == status).toList();
    StringBuilder sb = new StringBuilder("Todo list (")
        .append(shown.size()).append(status == null ? "" : " " + status.label()).append(" of ")
        .append(items.size()).append("):");
    if (shown.isEmpty()) {
      sb.append("\n(none)");
    }
    for (TodoItem i : shown) {
      sb.append('\n').append(line(i));
    }
    return sb.toString();
  }

  /** One item: {@code [ ] t2 (high) Run tests <- t1 -- notes}. */
  public static String line(TodoItem i) {
    StringBuilder sb = new StringBuilder(i.status().icon()).append(' ').append(i.id()).append(" (")
        .append(i.priority().label()).append(") ").append(i.description());
    if (!i.dependsOn().isEmpty()) {
      sb.append(" <- ").append(String.join(", ", i.dependsOn()));
    }
    if (i.notes() != null) {
      sb.append(" -- ").append(i.notes());
    }
    return sb.toString();
  }
}
