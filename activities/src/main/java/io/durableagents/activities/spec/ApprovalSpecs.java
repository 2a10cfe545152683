package io.durableagents.activities.spec;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.approval.TimeoutDecision;
import io.durableagents.workflows.autonomous.AgentSpec;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the approval settings of an agent spec: {@code requires_approval} (the external tools whose
 * every call waits for a person's decision), {@code approval_timeout} and {@code approval_default} (what
 * a call that waited that long becomes: {@code deny}, the default, or {@code approve}).
 *
 * <pre>{@code
 * spec:
 *   tools: [{type: calculator}, {type: send_email}]
 *   requires_approval: [send_email]
 *   approval_timeout: 2h
 *   approval_default: deny
 * }</pre>
 */
public final class ApprovalSpecs {
  /** The fields of the spec section this class reads. */
  public static final List<String> FIELDS = List.of("requires_approval", "approval_timeout", "approval_default");

  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(s|m|h|d)");
  private static final long MAX_TIMEOUT_SECONDS = 365L * 24 * 3600;

  private ApprovalSpecs() {}

  /**
   * The approval options of {@code spec} (its {@code spec:} section), or null when it sets none.
   *
   * @param externalTools the spec's external tools: the only ones that can require approval
   * @throws AgentSpecException naming the field and what is allowed
   */
  public static ApprovalOptions parse(JsonNode spec, List<String> externalTools) {
    JsonNode list = spec.path("requires_approval");
    JsonNode timeout = spec.path("approval_timeout");
    JsonNode decision = spec.path("approval_default");
    if (list.isMissingNode() && timeout.isMissingNode() && decision.isMissingNode()) {
      return null;
    }
    List<String> tools = new ArrayList<>();
    if (!list.isMissingNode() && !list.isNull()) {
      if (!list.isArray()) {
        throw new AgentSpecException("spec.requires_approval", "a list of tool names, e.g. [send_email]");
      }
      for (int i = 0; i < list.size(); i++) {
        String tool = list.get(i).asText("").strip();
        if (!externalTools.contains(tool)) {
          throw new AgentSpecException("spec.requires_approval[" + i + "]", "'" + tool
              + "' is not one of this agent's external tools" + (externalTools.isEmpty() ? " (it has none)"
              : ": " + String.join(", ", externalTools)) + "; think, todo and spawn run in the workflow and "
              + "need no approval");
        }
        if (!tools.contains(tool)) {
          tools.add(tool);
        }
      }
    }
    Long seconds = timeout.isMissingNode() || timeout.isNull() ? null : seconds(timeout);
    TimeoutDecision onTimeout = null;
    if (!decision.isMissingNode() && !decision.isNull()) {
      try {
        onTimeout = TimeoutDecision.parse(decision.asText());
      } catch (IllegalArgumentException e) {
        throw new AgentSpecException("spec.approval_default", "'" + decision.asText() + "' is not one of: deny, approve");
      }
      if (seconds == null) {
        throw new AgentSpecException("spec.approval_default",
            "applies after an approval_timeout: set approval_timeout too (e.g. 2h)");
      }
    }
    if (tools.isEmpty() && seconds != null) {
      throw new AgentSpecException("spec.approval_timeout", "no tool requires approval: list them in requires_approval");
    }
    return new ApprovalOptions(tools, seconds, onTimeout, null);
  }

  /**
   * A sub-agent's options: its own tools that require approval and those of its parent's it has too, with
   * its own timeout, else its parent's. A tool that waits for approval in the parent waits in every
   * sub-agent that uses it.
   */
  public static ApprovalOptions inherit(ApprovalOptions parent, AgentSpec child) {
    ApprovalOptions own = child.approval();
    if (parent == null || parent.tools().isEmpty()) {
      return own;
    }
    List<String> tools = new ArrayList<>(own == null ? List.of() : own.tools());
    for (String tool : parent.tools()) {
      if (child.tools().contains(tool) && !tools.contains(tool)) {
        tools.add(tool);
      }
    }
    if (tools.isEmpty()) {
      return own;
    }
    boolean ownTimeout = own != null && own.timeoutSeconds() != null;
    return new ApprovalOptions(tools, ownTimeout ? own.timeoutSeconds() : parent.timeoutSeconds(),
        ownTimeout ? own.onTimeout() : parent.onTimeout(), null);
  }

  /** A timeout: whole seconds, {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code PT2H}). */
  public static long seconds(JsonNode value) {
    String at = "spec.approval_timeout";
    long s;
    if (value.isIntegralNumber()) {
      s = value.asLong();
    } else {
      String text = value.asText("").strip().toLowerCase(Locale.ROOT);
      Matcher m = SHORT_DURATION.matcher(text);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        s = switch (m.group(2)) {
          case "s" -> n;
          case "m" -> n * 60;
          case "h" -> n * 3600;
          default -> n * 86400;
        };
      } else {
        try {
          s = Duration.parse(text.toUpperCase(Locale.ROOT)).getSeconds();
        } catch (DateTimeParseException e) {
          throw new AgentSpecException(at, "'" + value.asText() + "' is not a duration: seconds, or 90s, 30m, 2h, 1d");
        }
      }
    }
    if (s < 1 || s > MAX_TIMEOUT_SECONDS) {
      throw new AgentSpecException(at, "'" + value.asText() + "' is not from 1 second to 365 days");
    }
    return s;
  }
}
