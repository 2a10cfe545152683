/**
 * The {@code agent} command and {@code agent run}: one agent on one task, or an autonomous agent's spec,
 * run to its end with its result printed, and the tool calls it waits on for approval said as they start
 * waiting.
 */
package io.durableagents.starter.agent;
