package io.durableagents.starter.experiment;

import java.util.Map;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code sweep}'s help for the options it shares with {@code simulate} and reads otherwise: {@code --param}
 * takes several values (a dimension of the grid), {@code --id} is the experiment's, {@code --seed} is the
 * first of {@code --seeds}. The options stay bound to the same fields; only their descriptions change.
 */
public final class SweepHelp implements IModelTransformer {
  static final Map<String, String> DESCRIPTIONS = Map.of(
      "--param", "A parameter of the scenario and its values: NAME=V1,V2,... (several values make a dimension of "
          + "the grid), an inclusive range NAME=start:stop:step computed exactly (legitimacy=0.1:0.9:0.2 is 0.1, "
          + "0.3, 0.5, 0.7, 0.9; citizens=10:14 is 10 to 14), or one value for every run (repeatable; several "
          + "dimensions are crossed). 'help sweep --scenario <name>' lists the parameters.",
      "--id", "The experiment's workflow id (default: exp-<scenario>-<random>); its runs are <id>/run-001, ....",
      "--seed", "The first seed of --seeds N, and every run's seed without --seeds (default: ${DEFAULT-VALUE}).",
      "--replace-finished", "Not for experiments: choose another --id.");

  @Override
  public CommandSpec transform(CommandSpec spec) {
    for (Map.Entry<String, String> e : DESCRIPTIONS.entrySet()) {
      OptionSpec old = spec.findOption(e.getKey());
      if (old != null) {
        spec.remove(old);
        spec.addOption(old.toBuilder().description(e.getValue()).build());
      }
    }
    return spec;
  }
}
