package io.durableagents.workflows.simulation;

/**
 * Where a checkpoint was written.
 *
 * @param location where the store put it (for the directory store, a file path on the worker's machine)
 * @param step the step it holds the state after
 * @param bytes its size
 * @param sha256 the checksum of its content, as written in it
 */
public record CheckpointSaved(String location, int step, long bytes, String sha256) {}
