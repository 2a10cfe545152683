/**
 * Experiments: many simulations of one scenario over a grid of parameters, seeds, strategies or models
 * (Mesa's {@code batch_run}), run by one durable {@link io.durableagents.workflows.experiment.ExperimentWorkflow}
 * that starts each as a child simulation, follows them, and keeps the table of their outcomes.
 */
package io.durableagents.workflows.experiment;
