/**
 * Reading runs without changing them: {@code list}, {@code describe}, {@code history}, {@code show}, {@code
 * plans}, {@code world} and {@code agent-state}; and {@code check-execution-log}, which reads the calls that
 * workers logged and names any that ran twice.
 */
package io.durableagents.starter.inspect;
