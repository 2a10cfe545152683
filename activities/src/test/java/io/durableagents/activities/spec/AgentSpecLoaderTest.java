package io.durableagents.activities.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.ReasoningPattern;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentSpecLoaderTest {
  private static final Path EXAMPLES = Path.of("..", "examples");

  private static AgentSpec parse(String spec) {
    return AgentSpecLoader.parse("metadata:\n  name: t\nspec:\n" + spec, EXAMPLES);
  }

  private static void rejected(String spec, String field, String... mentions) {
    AgentSpecException e = assertThrows(AgentSpecException.class, () -> parse(spec));
    assertEquals(field, e.field(), e.getMessage());
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), e.getMessage());
    }
  }

  @Test
  void theExamplesLoadWithTheirDefaults() {
    AgentSpec todo = AgentSpecLoader.load(EXAMPLES.resolve("todo-calculator.yaml"));
    assertEquals(ReasoningPattern.TODO_DRIVEN, todo.reasoning().pattern(), "auto-detected");
    assertEquals(10, todo.todo().maxItems(), "max_plan_steps caps the list");
    assertEquals(50, todo.think().maxThoughts());
    assertTrue(todo.think().critique());
    assertEquals(List.of("calculator"), todo.tools());
    assertEquals(100000L, todo.guardrails().tokenBudget());
    AgentSpec lead = AgentSpecLoader.load(EXAMPLES.resolve("research-lead.yaml"));
    assertEquals(ReasoningPattern.REFLEXION, lead.reasoning().pattern());
    assertEquals(List.of("correctness", "completeness"), lead.reasoning().successCriteria());
    assertEquals(2, lead.spawn().maxConcurrent());
    assertEquals("calculator-agent", lead.spawn().agents().get(0).spec().name(), "role file inlined");
    assertEquals(ReasoningPattern.PLAN_EXECUTE,
        AgentSpecLoader.load(EXAMPLES.resolve("plan-execute.yaml")).reasoning().pattern());
  }

  @Test
  void autoDetectionFollowsTheReference() {
    assertEquals(ReasoningPattern.REACT, parse("  tools:\n    - type: todo\n").reasoning().pattern(),
        "a todo tool without autonomy is react");
    assertEquals(ReasoningPattern.TODO_DRIVEN,
        parse("  tools:\n    - type: todo\n  autonomy:\n    max_plan_steps: 5\n").reasoning().pattern());
    AgentSpec reflexion = parse("  reasoning:\n    reflection_rounds: 2\n");
    assertEquals(ReasoningPattern.REFLEXION, reflexion.reasoning().pattern());
    assertEquals(List.of(), reflexion.reasoning().successCriteria(), "no judge without criteria");
    AgentSpec dims = parse("  reasoning:\n    reflection_dimensions:\n      - name: accuracy\n"
        + "        prompt: Check the numbers.\n");
    assertEquals(ReasoningPattern.REFLEXION, dims.reasoning().pattern());
    assertEquals(1, dims.reasoning().reflectionRounds());
    assertEquals(List.of("accuracy"), dims.reasoning().successCriteria(), "derived from dimension names");
    assertEquals(ReasoningPattern.REACT, parse("  tools:\n    - type: todo\n  autonomy: {}\n"
        + "  reasoning:\n    auto_detect: false\n").reasoning().pattern());
    assertEquals(ReasoningPattern.TODO_DRIVEN, parse("  tools:\n    - type: todo\n"
        + "  reasoning:\n    pattern: todo_driven\n    reflection_rounds: 2\n").reasoning().pattern(),
        "an explicit pattern wins, and todo_driven ignores reflection rounds");
    AgentSpec defaults = parse("  role: r\n");
    assertEquals("rules", defaults.model());
    assertEquals(10, defaults.guardrails().maxIterations());
    assertNull(defaults.guardrails().tokenBudget());
    assertEquals("openai:gpt-4o-mini", parse("  model:\n    provider: openai\n    name: gpt-4o-mini\n").model());
    assertNull(defaults.maxOutputTokens(), "unset: the worker decides");
    assertEquals(300, parse("  model:\n    provider: openai\n    name: smollm2\n    max_output_tokens: 300\n")
        .maxOutputTokens());
  }

  @Test
  void errorsNameTheFieldAndTheAllowedValues() {
    rejected("  reasoning:\n    pattern: todo_driven\n", "spec.reasoning.pattern", "todo tool", "react, reflexion");
    rejected("  reasoning:\n    pattern: plan_execute\n", "spec.reasoning.pattern", "todo tool");
    rejected("  reasoning:\n    pattern: reflexion\n", "spec.reasoning.reflection_rounds", "1 to 3", "was 0");
    rejected("  reasoning:\n    pattern: tree\n", "spec.reasoning.pattern",
        "react, todo_driven, plan_execute, reflexion");
    rejected("  reasoning:\n    reflection_rounds: 4\n", "spec.reasoning.reflection_rounds", "0 to 3");
    rejected("  reasoning:\n    success_criteria: []\n", "spec.reasoning.success_criteria", "1 to 10");
    rejected("  tools:\n    - type: search\n", "spec.tools[0].type", "think, todo, spawn, calculator, read_file");
    rejected("  tools:\n    - type: think\n      max_thoughts: 500\n", "spec.tools[0].max_thoughts", "1 to 200");
    rejected("  tools:\n    - type: todo\n      max_items: 0\n", "spec.tools[0].max_items", "1 to 100");
    rejected("  tools:\n    - type: todo\n      shared: true\n", "spec.tools[0].shared", "false");
    rejected("  tools:\n    - type: spawn\n", "spec.tools[0].agents", "required");
    rejected("  tools:\n    - type: spawn\n      max_concurrent: 17\n      agents: [{name: a, spec: {}}]\n",
        "spec.tools[0].max_concurrent", "1 to 16");
    rejected("  tools:\n    - type: spawn\n      agents: [{name: a, url: 'http://x'}]\n",
        "spec.tools[0].agents[0].url", "role_file");
    rejected("  guardrails:\n    max_iterations: 0\n", "spec.guardrails.max_iterations", "from 1");
    rejected("  guardrails:\n    autonomous_token_budget: -5\n", "spec.guardrails.autonomous_token_budget");
    rejected("  model: gpt\n", "spec.model", "rules, openai:<model>, anthropic:<model>, ollama:<model>");
    rejected("  reasonning: {}\n", "spec.reasonning", "allowed: role, model, tools, mcp_servers, reasoning, autonomy, guardrails");
    rejected("  model:\n    provider: openai\n    name: o3-mini\n    thinking: high\n", "spec.model.thinking");
    rejected("  model:\n    provider: openai\n    name: x\n    max_output_tokens: -1\n",
        "spec.model.max_output_tokens", "0 to 1000000");
  }

  @Test
  void inlineSubAgentsAreSpecsOfTheirOwn() {
    AgentSpec spec = parse("  tools:\n    - type: spawn\n      max_depth: 2\n      agents:\n"
        + "        - name: helper\n          description: helps\n          spec:\n            tools:\n"
        + "              - type: calculator\n");
    AgentSpec.SubAgent helper = spec.spawn().agents().get(0);
    assertEquals("helper", helper.name());
    assertEquals(List.of("calculator"), helper.spec().tools());
    assertEquals(2, spec.spawn().maxDepth());
    assertEquals(300, spec.spawn().timeoutSeconds());
  }

  @Test
  void requiresApprovalNamesExternalToolsWithAnOptionalTimeoutAndDefault() {
    AgentSpec spec = parse("  tools:\n    - type: calculator\n    - type: read_file\n"
        + "  requires_approval: [read_file]\n  approval_timeout: 30m\n  approval_default: approve\n");
    assertEquals(List.of("read_file"), spec.approval().tools());
    assertEquals(1800L, spec.approval().timeoutSeconds());
    assertEquals(io.durableagents.workflows.approval.TimeoutDecision.APPROVE, spec.approval().timeoutDecision());
    assertEquals(7200L, parse("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n"
        + "  approval_timeout: PT2H\n").approval().timeoutSeconds());
    assertEquals(90L, parse("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n"
        + "  approval_timeout: 90\n").approval().timeoutSeconds());
    assertEquals(io.durableagents.workflows.approval.TimeoutDecision.DENY,
        parse("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n  approval_timeout: 1d\n")
            .approval().timeoutDecision(), "deny is the default decision");
    assertEquals(null, parse("  tools: [{type: calculator}]\n").approval());

    rejected("  tools: [{type: calculator}]\n  requires_approval: [read_file]\n", "spec.requires_approval[0]",
        "'read_file' is not one of this agent's external tools: calculator");
    rejected("  tools: [{type: think}]\n  requires_approval: [think]\n", "spec.requires_approval[0]",
        "(it has none)", "think, todo and spawn run in the workflow");
    rejected("  tools: [{type: calculator}]\n  requires_approval: calculator\n", "spec.requires_approval",
        "a list of tool names");
    rejected("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n  approval_timeout: soon\n",
        "spec.approval_timeout", "not a duration", "90s, 30m, 2h, 1d");
    rejected("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n  approval_timeout: 0\n",
        "spec.approval_timeout", "from 1 second");
    rejected("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n  approval_default: maybe\n",
        "spec.approval_default", "deny, approve");
    rejected("  tools: [{type: calculator}]\n  requires_approval: [calculator]\n  approval_default: approve\n",
        "spec.approval_default", "set approval_timeout too");
    rejected("  tools: [{type: calculator}]\n  approval_timeout: 1h\n", "spec.approval_timeout",
        "no tool requires approval");
  }

  @Test
  void subAgentsWaitForTheToolsTheirParentRequiresApprovalFor() {
    AgentSpec spec = parse("  tools:\n    - type: calculator\n    - type: spawn\n      agents:\n"
        + "        - name: counter\n          description: counts\n          spec:\n            tools:\n"
        + "              - type: calculator\n              - type: read_file\n"
        + "            requires_approval: [read_file]\n"
        + "        - name: thinker\n          description: thinks\n          spec:\n            tools:\n"
        + "              - type: think\n"
        + "  requires_approval: [calculator]\n  approval_timeout: 1h\n");
    AgentSpec counter = spec.spawn().agents().get(0).spec();
    assertEquals(List.of("read_file", "calculator"), counter.approval().tools(),
        "its own, and its parent's that it has");
    assertEquals(3600L, counter.approval().timeoutSeconds(), "the parent's timeout, having none of its own");
    assertEquals(null, spec.spawn().agents().get(1).spec().approval(), "no tool of its parent's: nothing waits");
  }

  @Test
  void aSpecMayNameTheWorkersRegisteredToolsAndModels() {
    RegisteredNames registered = new RegisteredNames(java.util.Set.of("fetch_rate"), java.util.Set.of("my-model"));
    String yaml = "metadata:\n  name: t\nspec:\n  model: my-model\n  tools:\n    - type: fetch_rate\n"
        + "    - type: calculator\n    - type: spawn\n      agents:\n        - name: helper\n"
        + "          spec:\n            model: my-model\n            tools:\n              - type: fetch_rate\n";
    AgentSpec spec = AgentSpecLoader.parse(yaml, EXAMPLES, registered);
    assertEquals("my-model", spec.model());
    assertEquals(List.of("fetch_rate", "calculator"), spec.tools());
    assertEquals(List.of("fetch_rate"), spec.spawn().agents().get(0).spec().tools(), "sub-agents too");

    AgentSpecException tool = assertThrows(AgentSpecException.class, () -> AgentSpecLoader.parse(
        yaml.replace("my-model", "openai:gpt-4o-mini"), EXAMPLES));
    assertEquals("spec.tools[0].type", tool.field());
    assertTrue(tool.getMessage().contains("'fetch_rate' is not one of: think, todo, spawn, calculator, read_file"),
        tool.getMessage());
    AgentSpecException model = assertThrows(AgentSpecException.class, () -> AgentSpecLoader.parse(
        yaml.replace("model: my-model", "model: their-model"), EXAMPLES, registered));
    assertEquals("spec.model", model.field());
    assertTrue(model.getMessage().endsWith("is not one of: rules, openai:<model>, anthropic:<model>, "
        + "ollama:<model>, my-model"), model.getMessage());
    AgentSpecException option = assertThrows(AgentSpecException.class, () -> AgentSpecLoader.parse(
        yaml.replace("- type: fetch_rate\n    - type: calculator", "- type: fetch_rate\n      retries: 3"),
        EXAMPLES, registered));
    assertEquals("spec.tools[0].retries", option.field(), "a registered tool's options are the worker's");
  }
}
