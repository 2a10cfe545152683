/**
 * The {@code durable-agents} command line: {@link io.durableagents.starter.StarterMain} (its commands), help,
 * and what every command shares: failures in words and exit codes, logging, environment variables, the
 * checks made before anything starts, connecting to Temporal, and the catalog of scenarios and models.
 */
package io.durableagents.starter;
