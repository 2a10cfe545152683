package io.durableagents.workflows.agent;

import io.durableagents.api.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A group step's input written from its agents' parts, each written to JSON once: what the agents of a
 * role share, once, and each agent's own part. A simulation needs every agent's input size before it
 * groups them (a group's input must stay within a payload, a task within its budget), and then writes
 * each group's input: with these parts it writes each agent once instead of twice. The bytes are the
 * same as {@link AgentGroupStepInputJson} writes for the group, and an agent's whole input, written
 * alone, is {@link #inputSize} bytes: so sizes, groups and the order of starts are what they were.
 * Workflow code.
 */
public final class AgentGroupInputParts {
  private static final byte[] SHARED = "{\"shared\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] MEMBERS = ",\"members\":[".getBytes(StandardCharsets.UTF_8);
  private static final byte[] END = "]}".getBytes(StandardCharsets.UTF_8);

  private final byte[] shared;
  private final List<byte[]> members;

  private AgentGroupInputParts(byte[] shared, List<byte[]> members) {
    this.shared = shared;
    this.members = members;
  }

  /**
   * The parts of {@code agents} (one role's), or null when they do not all share the first one's
   * simulation, scenario, role, tools, world actions and options (their groups are written whole).
   */
  public static AgentGroupInputParts of(List<AgentStepInput> agents) {
    List<AgentGroupStepInputJson.Member> members = AgentGroupStepInputJson.members(agents);
    if (members == null) {
      return null;
    }
    List<byte[]> written = new ArrayList<>(members.size());
    for (AgentGroupStepInputJson.Member m : members) {
      written.add(Json.writeBytes(m));
    }
    return new AgentGroupInputParts(Json.writeBytes(AgentGroupStepInputJson.Shared.of(agents.get(0))), written);
  }

  /**
   * The bytes of agent {@code i}'s whole input written alone ({@code TaskBudget.sizeOf}): its own part
   * and the shared one are the same fields, so the same bytes, less one pair of braces, plus a comma.
   */
  public long inputSize(int i) {
    return shared.length + members.get(i).length - 1L;
  }

  /** The JSON of the group of agents {@code from} (inclusive) to {@code to} (exclusive). */
  public byte[] group(int from, int to) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(SHARED);
    out.writeBytes(shared);
    out.writeBytes(MEMBERS);
    for (int i = from; i < to; i++) {
      if (i > from) {
        out.write(',');
      }
      out.writeBytes(members.get(i));
    }
    out.writeBytes(END);
    return out.toByteArray();
  }
}
