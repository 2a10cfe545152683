/**
 * Running a simulation and following it: {@code simulate}, {@code attach}, {@code pause}, {@code resume}
 * and {@code stop}, with what they print while it runs and when it ends (progress, the summary, the CSV
 * and chart files) and the watches that notice a lost Temporal, a missing worker or a stuck run.
 */
package io.durableagents.starter.run;
