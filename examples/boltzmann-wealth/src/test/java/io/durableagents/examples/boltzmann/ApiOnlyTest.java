package io.durableagents.examples.boltzmann;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * The scenario uses Durable Agents' API ({@code io.durableagents.api}) and its plugin ({@code
 * io.durableagents.worker}) only: every other package of Durable Agents is internal and may change
 * in any release. A scenario of your own can keep the same test.
 */
class ApiOnlyTest {
  @Test
  void theScenarioImportsOnlyTheApiAndThePlugin() {
    assertHolds(classes().that().resideInAPackage("io.durableagents.examples..")
        .should().onlyDependOnClassesThat(resideOutsideOfPackage("io.durableagents..")
            .or(resideInAnyPackage("io.durableagents.api..", "io.durableagents.worker",
                "io.durableagents.examples..")))
        .evaluate(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.durableagents.examples")));
  }

  /** Fails with ArchUnit's report of every violation when the rule does not hold. */
  private static void assertHolds(EvaluationResult result) {
    assertFalse(result.hasViolation(), result.getFailureReport().toString());
  }
}
