/**
 * Reading runs without changing them: {@code list}, {@code describe}, {@code history}, {@code show}, {@code
 * plans}, {@code world} and {@code agent-state}; and {@code check-execution-log}, which reads the calls that
 * workers logged and names any that ran twice on a live worker, or finished on a worker that died before
 * reporting it.
 */
package io.durableagents.starter.inspect;
