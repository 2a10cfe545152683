package io.durableagents.workflows.agent;

import io.durableagents.workflows.llm.ToolChoice;

/**
 * Jackson value filters that leave an {@link AgentOptions} setting out of JSON when it has its default
 * value (a filter "equals" the values to leave out). A setting left out reads back as its default, so
 * every agent step's input carries only what differs from the defaults.
 */
final class AgentOptionsDefaults {
  private AgentOptionsDefaults() {}

  /** Leaves out {@code value}'s default. */
  private abstract static class Default {
    private final Object value;

    Default(Object value) {
      this.value = value;
    }

    @Override
    public boolean equals(Object other) {
      return value.equals(other);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }
  }

  static final class ToolChoiceAuto extends Default {
    ToolChoiceAuto() {
      super(ToolChoice.AUTO);
    }
  }

  static final class FunctionCalling extends Default {
    FunctionCalling() {
      super(ActionFormat.FUNCTION_CALLING);
    }
  }

  static final class MaxCorrections extends Default {
    MaxCorrections() {
      super(AgentOptions.DEFAULT_MAX_CORRECTIONS);
    }
  }

  static final class MaxIterations extends Default {
    MaxIterations() {
      super(AgentOptions.DEFAULT_MAX_ITERATIONS);
    }
  }

  static final class MaxObservationChars extends Default {
    MaxObservationChars() {
      super(AgentOptions.DEFAULT_MAX_OBSERVATION_CHARS);
    }
  }

  static final class RepeatLimit extends Default {
    RepeatLimit() {
      super(AgentOptions.DEFAULT_REPEAT_LIMIT);
    }
  }

  static final class MaxPlanSteps extends Default {
    MaxPlanSteps() {
      super(AgentOptions.DEFAULT_MAX_PLAN_STEPS);
    }
  }

  static final class ReplanOnFailure extends Default {
    ReplanOnFailure() {
      super(AgentOptions.DEFAULT_REPLAN_ON_FAILURE);
    }
  }

  static final class Ttl extends Default {
    Ttl() {
      super(AgentOptions.DEFAULT_TTL);
    }
  }
}
