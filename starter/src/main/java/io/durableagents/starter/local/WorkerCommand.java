package io.durableagents.starter.local;

import io.durableagents.starter.Environment;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.WorkerMain;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Runs a worker until stopped; configured from the environment. */
@Command(name = "worker",
    description = "Run a Durable Agents worker (configured from the environment; see the README).")
public final class WorkerCommand implements Callable<Integer> {
  @Override
  public Integer call() throws InterruptedException {
    // one line within seconds when no Temporal answers, instead of polling an address that never will
    TemporalCheck.connect(io.durableagents.worker.TemporalConnection.fromEnvironment(Environment.variables())).shutdownNow();
    return WorkerMain.run(Environment.variables());
  }
}
