package io.durableagents.workflows.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.durableagents.workflows.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
    if (agents.isEmpty()) {
      return null;
    }
    AgentGroupStepInputJson.Shared shared = AgentGroupStepInputJson.Shared.of(agents.get(0));
    List<byte[]> members = new ArrayList<>(agents.size());
    for (AgentStepInput in : agents) {
      if (!Objects.equals(shared, AgentGroupStepInputJson.Shared.of(in))) {
        return null;
      }
      members.add(write(new AgentGroupStepInputJson.Member(in.agentId(), in.observation(), in.plan(), in.memory())));
    }
    return new AgentGroupInputParts(write(shared), members);
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

  private static byte[] write(Object value) {
    try {
      return Json.MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write as JSON: " + value, e);
    }
  }
}
