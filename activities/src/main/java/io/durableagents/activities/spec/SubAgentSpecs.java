package io.durableagents.activities.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.durableagents.workflows.autonomous.AgentSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A spec's {@code spawn} tool: its limits and its sub-agents, each read from its {@code role_file}
 * (relative to the spec's directory, nested at most {@link AgentSpecLoader#MAX_ROLE_FILE_NESTING} deep) or
 * its inline {@code spec}, and inlined, so that the worker never sees a path.
 */
final class SubAgentSpecs {
  private static final YAMLMapper YAML = new YAMLMapper();

  private SubAgentSpecs() {}

  /** The spawn tool at {@code at}, whose sub-agents are loaded with {@code registered} one level deeper. */
  static AgentSpec.Spawn spawn(JsonNode t, String at, Path baseDirectory, RegisteredNames registered,
      int nesting) {
    int maxConcurrent = SpecFields.integer(t, at + ".max_concurrent", "max_concurrent",
        AgentSpec.Spawn.DEFAULT_MAX_CONCURRENT, 1, 16);
    int maxDepth = SpecFields.integer(t, at + ".max_depth", "max_depth", AgentSpec.Spawn.DEFAULT_MAX_DEPTH, 1, 10);
    int timeout = SpecFields.integer(t, at + ".timeout_seconds", "timeout_seconds",
        AgentSpec.Spawn.DEFAULT_TIMEOUT_SECONDS, 1, 24 * 3600);
    JsonNode agents = t.path("agents");
    if (!agents.isArray() || agents.isEmpty()) {
      throw new AgentSpecException(at + ".agents", "required: a list of {name, description, role_file | spec}");
    }
    List<AgentSpec.SubAgent> subAgents = new ArrayList<>();
    for (int i = 0; i < agents.size(); i++) {
      JsonNode a = agents.get(i);
      String aat = at + ".agents[" + i + "]";
      SpecFields.allowOnly(a, aat, "name", "description", "role_file", "spec", "url");
      String name = SpecFields.text(a, "name", null);
      if (name == null || name.isBlank()) {
        throw new AgentSpecException(aat + ".name", "required");
      }
      if (a.has("url")) {
        throw new AgentSpecException(aat + ".url", "remote agents are not supported; use role_file or spec");
      }
      AgentSpec sub;
      if (a.hasNonNull("role_file")) {
        if (nesting >= AgentSpecLoader.MAX_ROLE_FILE_NESTING) {
          throw new AgentSpecException(aat + ".role_file", "role files nest deeper than " + AgentSpecLoader.MAX_ROLE_FILE_NESTING);
        }
        Path file = (baseDirectory == null ? Path.of(".") : baseDirectory).resolve(a.get("role_file").asText());
        try {
          sub = AgentSpecLoader.load(file, registered, nesting + 1);
        } catch (AgentSpecException e) {
          throw new AgentSpecException(aat + ".role_file (" + file.getFileName() + ") " + e.field(),
              e.getMessage().substring(e.field().length() + 2));
        }
      } else if (a.has("spec")) {
        sub = AgentSpecLoader.parse(inline(a), baseDirectory, registered, nesting + 1);
      } else {
        throw new AgentSpecException(aat, "needs role_file (a spec file) or spec (inline)");
      }
      subAgents.add(new AgentSpec.SubAgent(name.strip(), SpecFields.text(a, "description", sub.description()), sub));
    }
    return new AgentSpec.Spawn(maxConcurrent, maxDepth, timeout, subAgents);
  }

  /** An inline sub-agent as a document of its own ({@code metadata.name} from its entry). */
  private static String inline(JsonNode entry) {
    var doc = YAML.createObjectNode();
    doc.putObject("metadata").put("name", entry.path("name").asText());
    doc.set("spec", entry.get("spec"));
    try {
      return YAML.writeValueAsString(doc);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
