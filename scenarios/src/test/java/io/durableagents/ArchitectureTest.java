package io.durableagents;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * What may depend on what, checked on the compiled main classes of every module this one sees (the
 * engine's and the built-in scenarios'). Maven's module graph already keeps a module from reaching a
 * module after it; these rules keep what Maven cannot: the API package, which shares the
 * deterministic module with the engine, depends on nothing of the engine, and the built-in scenarios
 * use only the API and the plugin, as a user's scenario does. docs/development.md draws the map.
 */
class ArchitectureTest {
  /** The packages a scenario of any user, the built-ins included, may import from this project. */
  static final String[] USER_FACING = {"io.durableagents.api..", "io.durableagents.worker"};

  private static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar")
      && !location.contains("/test-classes/");

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(NO_TEST_JARS)
      .importPackages("io.durableagents");

  @Test
  void theApiDependsOnNothingElseOfThisProjectAndOnNoLlmSdkNetworkOrFiles() {
    assertHolds(noClasses().that().resideInAPackage("io.durableagents.api..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.durableagents.workflows..", "io.durableagents.activities..", "io.durableagents.worker..",
            "io.durableagents.devserver..", "io.durableagents.testkit..", "io.durableagents.scenarios..",
            "io.durableagents.starter..", "dev.langchain4j..", "io.temporal..", "java.net..", "java.nio.file..")
        .because("the API is the contract users import, and it runs inside workflows")
        .evaluate(MAIN));
  }

  @Test
  void theBuiltInScenariosUseOnlyTheApiAndThePluginAsAUsersScenarioDoes() {
    assertHolds(classes().that().resideInAPackage("io.durableagents.scenarios..")
        .should().onlyDependOnClassesThat(
            resideOutsideOfPackage("io.durableagents..").or(resideInAnyPackage(withScenarios())))
        .because("the engine's own scenarios are written the way it tells users to write theirs")
        .evaluate(MAIN));
  }

  @Test
  void theEngineNamesNoBuiltInScenario() {
    assertHolds(noClasses().that().resideInAnyPackage("io.durableagents.api..", "io.durableagents.workflows..",
            "io.durableagents.activities..", "io.durableagents.worker..", "io.durableagents.devserver..",
            "io.durableagents.testkit..")
        .should().dependOnClassesThat().resideInAPackage("io.durableagents.scenarios..")
        .because("the built-ins are registered like a user's scenarios, by their own module")
        .evaluate(MAIN));
  }

  @Test
  void workflowCodeReachesNoActivityWorkerOrStarterCode() {
    assertHolds(noClasses().that().resideInAnyPackage("io.durableagents.api..", "io.durableagents.workflows..")
        .should().dependOnClassesThat().resideInAnyPackage("io.durableagents.activities..",
            "io.durableagents.worker..", "io.durableagents.starter..", "dev.langchain4j..")
        .because("workflow code is deterministic: no LLM SDK, network, files or clock")
        .evaluate(MAIN));
  }

  @Test
  void workflowCodeIsLayeredAndEachLayerDependsOnlyOnTheOnesBeforeIt() {
    assertHolds(layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("api").definedBy("io.durableagents.api..")
        .layer("shared").definedBy("io.durableagents.workflows")
        .layer("parts").definedBy("io.durableagents.workflows.scenario..", "io.durableagents.workflows.llm..",
            "io.durableagents.workflows.tools..", "io.durableagents.workflows.memory..",
            "io.durableagents.workflows.approval..")
        .layer("agent step").definedBy("io.durableagents.workflows.agent..")
        .layer("runs").definedBy("io.durableagents.workflows.task..", "io.durableagents.workflows.autonomous..",
            "io.durableagents.workflows.simulation..")
        .whereLayer("runs").mayNotBeAccessedByAnyLayer()
        .whereLayer("agent step").mayOnlyBeAccessedByLayers("runs")
        .whereLayer("parts").mayOnlyBeAccessedByLayers("agent step", "runs")
        .whereLayer("shared").mayOnlyBeAccessedByLayers("parts", "agent step", "runs")
        .because("an agent step knows nothing of what runs it, and the API nothing of the engine")
        .evaluate(MAIN));
  }

  @Test
  void noPackageCyclesInsideAModule() {
    for (String module : new String[] {"workflows", "activities", "worker"}) {
      assertHolds(slices().matching("io.durableagents." + module + ".(*)..").should().beFreeOfCycles().evaluate(MAIN));
    }
  }

  private static String[] withScenarios() {
    String[] packages = java.util.Arrays.copyOf(USER_FACING, USER_FACING.length + 1);
    packages[USER_FACING.length] = "io.durableagents.scenarios..";
    return packages;
  }

  /** Fails with ArchUnit's report of every violation when the rule does not hold. */
  private static void assertHolds(EvaluationResult result) {
    assertFalse(result.hasViolation(), result.getFailureReport().toString());
  }
}
