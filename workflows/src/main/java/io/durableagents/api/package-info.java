/**
 * The API of Durable Agents: everything a user's scenario, rule policy, tool or extension imports from
 * this project, besides the plugin that registers them ({@code io.durableagents.worker.DurableAgentsPlugin}
 * and {@code DurableAgentsExtension}). It is what {@code import mesa} is to a Mesa user.
 *
 * <p>The contract, which later releases keep:
 *
 * <ul>
 *   <li>{@link io.durableagents.api.Scenario}: a simulation scenario (name, roles, parameters, how a
 *       world is created, restored and adjusted), with the prompts of {@link
 *       io.durableagents.api.ScenarioPrompts};
 *   <li>{@link io.durableagents.api.ScenarioWorld}: the world a scenario creates (observations, who
 *       acts, how an action changes it, the variables recorded each step, its snapshot), and how a
 *       view draws it: {@link io.durableagents.api.Portrayal} and {@link
 *       io.durableagents.api.AgentPortrayal}, from its optional {@code portrayal()};
 *   <li>{@link io.durableagents.api.Param} and {@link io.durableagents.api.InvalidParameterException}:
 *       the parameters, declared once on a record's components, and the error naming a bad value;
 *   <li>{@link io.durableagents.api.SeededRandom}: a world's only source of randomness;
 *   <li>{@link io.durableagents.api.Observation} and {@link io.durableagents.api.WorldAction}: what an
 *       agent sees at a step and an action it takes;
 *   <li>{@link io.durableagents.api.RulePolicy} and {@link io.durableagents.api.RuleDecision}: the
 *       scenario's classic rules, which the offline {@code rules} model plays in place of an LLM;
 *   <li>{@link io.durableagents.api.Json}: the JSON mapper of workflow code (sorted keys), for a world
 *       that reads or writes its snapshot as JSON.
 * </ul>
 *
 * <p>Everything here may run inside a workflow, so it is deterministic: no clock, no I/O, no
 * randomness but {@link io.durableagents.api.SeededRandom}, no LLM SDK. The package depends on
 * nothing else of this project (a test, {@code ArchitectureTest}, keeps it so).
 *
 * <p>This package, {@code io.durableagents.api}, is one of three public packages, with the plugin's
 * ({@code io.durableagents.worker}: {@code DurableAgentsPlugin}, {@code DurableAgentsExtension}) and the
 * test kit's ({@code io.durableagents.testkit}). Code that starts and follows runs, rather than writing a scenario (a test, a
 * service of yours), also uses these types of packages that are otherwise internal: the workflow
 * interfaces and the records they carry, which are kept compatible as the histories that hold them are, a
 * tool's annotation, context and options and an MCP server's settings, the loader of an autonomous agent's
 * spec, the options and updates of human approval, and the embedded Temporal:
 *
 * <ul>
 *   <li>{@code io.durableagents.workflows.TaskQueues};
 *   <li>{@code io.durableagents.workflows.simulation.SimulationWorkflow}, {@code
 *       io.durableagents.workflows.simulation.SimulationInput}, {@code
 *       io.durableagents.workflows.simulation.SimulationResult} and {@code
 *       io.durableagents.workflows.simulation.StepCounts};
 *   <li>{@code io.durableagents.workflows.experiment.ExperimentWorkflow}, {@code
 *       io.durableagents.workflows.experiment.ExperimentInput}, {@code
 *       io.durableagents.workflows.experiment.ExperimentRun}, {@code
 *       io.durableagents.workflows.experiment.ExperimentBudget}, {@code
 *       io.durableagents.workflows.experiment.RunFailurePolicy}, {@code
 *       io.durableagents.workflows.experiment.ExperimentResult}, {@code
 *       io.durableagents.workflows.experiment.ExperimentRunOutcome}, {@code
 *       io.durableagents.workflows.experiment.ExperimentRunResult}, {@code
 *       io.durableagents.workflows.experiment.RunStatus} and {@code
 *       io.durableagents.workflows.experiment.ExperimentProgress};
 *   <li>{@code io.durableagents.workflows.agent.AgentOptions} and {@code
 *       io.durableagents.workflows.agent.Strategy};
 *   <li>{@code io.durableagents.workflows.task.AgentTaskWorkflow}, {@code
 *       io.durableagents.workflows.task.AgentTaskInput} and {@code
 *       io.durableagents.workflows.agent.AgentTaskResult};
 *   <li>{@code io.durableagents.workflows.autonomous.AutonomousAgentWorkflow}, {@code
 *       io.durableagents.workflows.autonomous.AutonomousAgentInput}, {@code
 *       io.durableagents.workflows.autonomous.AgentSpec}, {@code
 *       io.durableagents.activities.spec.AgentSpecLoader} and {@code
 *       io.durableagents.activities.spec.RegisteredNames};
 *   <li>{@code io.durableagents.activities.tools.DurableTool}, {@code
 *       io.durableagents.activities.tools.ToolCallContext}, {@code
 *       io.durableagents.activities.tools.ToolOptions} and {@code
 *       io.durableagents.activities.tools.mcp.McpServerConfig};
 *   <li>{@code io.durableagents.workflows.approval.ApprovalOptions}, {@code
 *       io.durableagents.workflows.approval.TimeoutDecision}, {@code
 *       io.durableagents.workflows.approval.ToolApprovals}, {@code
 *       io.durableagents.workflows.approval.ToolApproval}, {@code
 *       io.durableagents.workflows.approval.ApprovalDecision} and {@code
 *       io.durableagents.workflows.approval.ApprovalResult};
 *   <li>{@code io.durableagents.devserver.EmbeddedTemporal}.
 * </ul>
 *
 * <p>Every other package and type of this project is internal: code that imports one may break in any
 * release. The manual's page {@code docs/public-api.md} declares the same list (a test keeps the two, and
 * every code block of the manual, to it); a public type that moves or is renamed is named in {@code
 * CHANGELOG.md} with the line that migrates a user's code.
 */
package io.durableagents.api;
