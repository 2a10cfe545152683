package io.durableagents.workflows.approval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Which of an agent's tool calls wait for a person's decision, and for how long. Part of {@link
 * io.durableagents.workflows.agent.AgentOptions} (an {@code agent} task, a scenario role, an autonomous
 * spec's {@code requires_approval}); a tool registered with {@code requiresApproval} on the worker waits
 * too, whatever the run's options say.
 *
 * <pre>{@code
 * ApprovalOptions approval = new ApprovalOptions(List.of("send_email", "close_account"),
 *     3600L, TimeoutDecision.DENY, null);
 * AgentOptions options = AgentOptions.newBuilder().setApproval(approval).build();
 * }</pre>
 *
 * @param tools the tools whose every call waits for approval (empty: none by these options)
 * @param timeoutSeconds how long a call waits before {@code onTimeout} decides it; null: it waits for
 *     as long as it takes (the run waits durably, across worker restarts)
 * @param onTimeout what a timed-out call becomes (default {@link TimeoutDecision#DENY})
 * @param searchAttribute whether the run sets the {@code AwaitingApproval} search attribute while a call
 *     waits, so the Temporal UI's list finds it; it must be registered on the namespace (the command line
 *     sets this when it is), since a server rejects an unknown one. Null: false
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalOptions(List<String> tools, Long timeoutSeconds, TimeoutDecision onTimeout,
    Boolean searchAttribute) {

  /** No tool waits by these options. */
  public static final ApprovalOptions NONE = new ApprovalOptions(List.of(), null, null, null);

  /** @throws IllegalArgumentException naming the setting whose value is not allowed */
  public ApprovalOptions {
    tools = tools == null ? List.of() : List.copyOf(tools);
    for (String tool : tools) {
      if (tool == null || tool.isBlank()) {
        throw new IllegalArgumentException("requires_approval: a tool name is empty");
      }
    }
    if (timeoutSeconds != null && timeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "approval_timeout must be at least 1 second (or unset: wait as long as it takes), was "
              + timeoutSeconds + " s");
    }
  }

  /** The tools, each of whose calls waits for a decision. */
  public static ApprovalOptions of(String... tools) {
    return new ApprovalOptions(List.of(tools), null, null, null);
  }

  /** What a call that waited {@link #timeoutSeconds()} becomes. */
  public TimeoutDecision timeoutDecision() {
    return onTimeout == null ? TimeoutDecision.DENY : onTimeout;
  }

  /** Whether the {@code AwaitingApproval} search attribute is set while a call waits. */
  public boolean setsSearchAttribute() {
    return Boolean.TRUE.equals(searchAttribute);
  }

  /** These options with the search attribute on or off. */
  public ApprovalOptions withSearchAttribute(boolean on) {
    return new ApprovalOptions(tools, timeoutSeconds, onTimeout, on);
  }

  /** These options with the timeout and its decision. */
  public ApprovalOptions withTimeout(Long seconds, TimeoutDecision decision) {
    return new ApprovalOptions(tools, seconds, decision, searchAttribute);
  }
}
