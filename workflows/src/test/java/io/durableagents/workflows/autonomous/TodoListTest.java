package io.durableagents.workflows.autonomous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TodoListTest {
  private static TodoList.NewTodo item(String description, String priority, String... deps) {
    return new TodoList.NewTodo(description, priority, List.of(deps));
  }

  @Test
  void batchAddResolvesIndexReferencesAndNextFollowsPriorityAndDependencies() {
    TodoList todos = new TodoList(30);
    List<String> ids = todos.batchAdd(List.of(item("Write tests", "high"), item("Run tests", null, "0"),
        item("Deploy", "critical", "1"), item("Docs", "low")));
    assertEquals(List.of("t1", "t2", "t3", "t4"), ids);
    assertEquals(List.of("t1"), todos.get("t2").dependsOn());
    assertEquals(TodoPriority.MEDIUM, todos.get("t2").priority());
    // Deploy is critical but waits on t2: the high item comes first, then low before blocked ones
    assertEquals("t1", todos.next().orElseThrow().id());
    todos.update("t1", "completed", "done", null);
    assertEquals("t2", todos.next().orElseThrow().id());
    todos.update("t2", "in_progress", null, null);
    assertEquals("t4", todos.next().orElseThrow().id());
    todos.update("t2", "failed", null, null);
    assertEquals("t3", todos.next().orElseThrow().id(), "a failed dependency is terminal");
  }

  @Test
  void addRefersToExistingIdsAndUnknownOnesAreRejected() {
    TodoList todos = new TodoList(30);
    String a = todos.add("A", "high", null);
    String b = todos.add("B", null, List.of(a));
    assertEquals(List.of(a), todos.get(b).dependsOn());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> todos.add("C", null, List.of("t9")));
    assertTrue(e.getMessage().contains("t9"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> todos.add("D", "urgent", null));
    assertThrows(IllegalArgumentException.class, () -> todos.add(" ", null, null));
    assertEquals(2, todos.items().size(), "rejected adds change nothing");
  }

  @Test
  void cyclesAreRejectedAtOnceWithKahnsAlgorithm() {
    TodoList todos = new TodoList(30);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> todos.batchAdd(List.of(item("A", null, "1"), item("B", null, "0"), item("C", null))));
    assertTrue(e.getMessage().contains("cycle") && e.getMessage().contains("t1")
        && e.getMessage().contains("t2") && !e.getMessage().contains("t3"), e.getMessage());
    assertTrue(todos.isEmpty());
    assertThrows(IllegalArgumentException.class, () -> todos.batchAdd(List.of(item("self", null, "0"))));
    assertEquals("t1", todos.add("ok", null, null), "ids of rejected batches are not used");
  }

  @Test
  void removeCleansDanglingDependencies() {
    TodoList todos = new TodoList(30);
    todos.batchAdd(List.of(item("A", null), item("B", null, "0")));
    todos.remove("t1");
    assertEquals(List.of(), todos.get("t2").dependsOn());
    assertEquals("t2", todos.next().orElseThrow().id());
    assertThrows(IllegalArgumentException.class, () -> todos.remove("t1"));
  }

  @Test
  void listFiltersByStatusAndAutoCompletionNeedsEveryItemTerminal() {
    TodoList todos = new TodoList(30);
    assertFalse(todos.allTerminal(), "an empty list is not done");
    todos.batchAdd(List.of(item("A", null), item("B", null), item("C", null)));
    todos.update("t1", "completed", null, null);
    todos.update("t2", "skipped", null, "low");
    assertFalse(todos.allTerminal());
    assertTrue(todos.format(TodoStatus.PENDING).contains("[ ] t3 (medium) C"));
    assertFalse(todos.format(TodoStatus.PENDING).contains("t1"));
    assertTrue(todos.format().contains("[-] t2 (low) B"));
    todos.update("t3", "failed", "no data", null);
    assertTrue(todos.allTerminal());
    assertTrue(todos.next().isEmpty());
    assertThrows(IllegalArgumentException.class, () -> todos.update("t3", "done", null, null));
  }

  @Test
  void maxItemsBoundsTheList() {
    TodoList todos = new TodoList(2);
    todos.add("A", null, null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> todos.batchAdd(List.of(item("B", null), item("C", null))));
    assertTrue(e.getMessage().contains("max_items"), e.getMessage());
  }
}
