/**
 * A simulation that goes another way from a step: {@code checkpoint} (a running simulation's state to a
 * file, which {@code simulate --from-checkpoint} starts from), {@code fork} (a new run from a step of a
 * recorded history) and {@code intervene} (a running simulation's parameters changed from a step on).
 */
package io.durableagents.starter.branch;
