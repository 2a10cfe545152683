/**
 * Tool calls waiting for a person: {@code approvals} lists them, {@code approve} and {@code deny} decide
 * them.
 */
package io.durableagents.starter.approval;
