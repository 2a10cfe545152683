package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * One item of an agent's todo list, as the {@code todos} query and the run's result show it.
 *
 * @param id its id ({@code t1}, {@code t2}, ...: deterministic, so replays agree)
 * @param description what to do
 * @param priority critical, high, medium or low
 * @param status pending, in progress, completed, failed or skipped
 * @param dependsOn the ids of the items that must be terminal before this one is next
 * @param notes the agent's notes, or null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TodoItem(String id, String description, TodoPriority priority, TodoStatus status,
    List<String> dependsOn, String notes) {
  public TodoItem {
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
  }
}
