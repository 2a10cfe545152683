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
 * <p>Code that starts and follows runs, rather than writing a scenario (a test, a service of yours),
 * also uses the workflow interfaces and the records they carry, which are kept compatible as the
 * histories that hold them are: {@code SimulationWorkflow}, {@code SimulationInput}, {@code
 * SimulationResult} and {@code StepCounts} ({@code io.durableagents.workflows.simulation}), {@code
 * AgentOptions} and {@code Strategy} ({@code io.durableagents.workflows.agent}), and the test kit. Every
 * other package of this project is internal: code that imports one may break in any release.
 */
package io.durableagents.api;
