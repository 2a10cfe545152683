package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.LocalCatalog;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** simulate names --agents-per-workflow once when groups would be much faster, and only then. */
class ShapeAdviceTest {
  private static SimulationInput input(String... args) {
    SimulateCommand command = new SimulateCommand();
    new CommandLine(command).parseArgs(args);
    return command.options.toInput();
  }

  private static Optional<String> advice(String... args) {
    return ShapeAdvice.forInput(input(args), LocalCatalog.get());
  }

  @Test
  void aLargeSimulationWithAWorkflowPerAgentStepIsToldAboutGroups() {
    Optional<String> advice = advice("--model", "rules", "--citizens", "160", "--cops", "40", "--width", "20",
        "--height", "20");
    assertTrue(advice.isPresent());
    assertTrue(advice.get().contains("--agents-per-workflow 50") && advice.get().contains("200 agents"),
        advice.get());
    // a model that takes its time: groups only pay from several hundred agents on
    assertEquals(Optional.empty(), advice("--model", "openai:gpt-4o-mini", "--citizens", "160", "--cops", "40",
        "--width", "20", "--height", "20"));
    assertTrue(advice("--model", "openai:gpt-4o-mini", "--citizens", "800", "--cops", "200", "--width", "40",
        "--height", "40").isPresent());
  }

  @Test
  void smallSimulationsAndGroupedOnesGetNoAdvice() {
    assertEquals(Optional.empty(), advice("--model", "rules"));
    assertEquals(Optional.empty(), advice("--model", "rules", "--citizens", "160", "--cops", "40", "--width", "20",
        "--height", "20", "--agents-per-workflow", "25"));
  }
}
