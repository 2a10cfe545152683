package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The manual teaches only the public API. What is public is declared in one table, that of {@code
 * docs/public-api.md} (its packages and its types in otherwise internal packages), and the API's {@code
 * package-info} names the same; every {@code ```java} block of the manual and the README, whole file or
 * fragment, imports or names in full only public packages and types, and a fragment (which has no
 * imports) uses no internal type of this project by its simple name either.
 */
class PublicApiDocsTest {
  static final Path PUBLIC_API = DocSnippetsTest.DOCS.resolve("public-api.md");
  static final Path API_PACKAGE_INFO = Path.of("..", "workflows", "src", "main", "java", "io", "durableagents", "api",
      "package-info.java");
  /** A row of the table: {@code | `io.durableagents.api` | package | ...} or {@code | `...Type` | type | ...}. */
  private static final Pattern ROW = Pattern.compile("^\\| `(io\\.durableagents\\.[\\w.]+)` \\| (package|type) \\|.*");
  private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?(io\\.durableagents\\.[\\w.]+?)(\\.\\*)?\\s*;",
      Pattern.MULTILINE);
  private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.durableagents\\.(?:[a-z]\\w*\\.)*[A-Z]\\w*");
  private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum|@interface)\\s+(\\w+)");
  private static final Pattern SIMPLE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9]*\\b");

  /** The public API as {@code docs/public-api.md} declares it. */
  record PublicApi(Set<String> packages, Set<String> types) {
    /** Whether {@code name}, a type (or a static member of one: {@code ...Type.member}), is public. */
    boolean allows(String name) {
      String type = name;
      while (!type.isEmpty()) {
        if (types.contains(type) || packages.contains(packageOf(type))) {
          return true;
        }
        int dot = type.lastIndexOf('.');
        if (dot < 0 || !Character.isUpperCase(type.charAt(dot + 1))) {
          return false;
        }
        type = type.substring(0, dot); // a nested type or a static member: its enclosing type decides
      }
      return false;
    }

    boolean allowsPackage(String pkg) {
      return packages.contains(pkg);
    }
  }

  static PublicApi declared() throws Exception {
    Set<String> packages = new TreeSet<>();
    Set<String> types = new TreeSet<>();
    for (String line : Files.readAllLines(PUBLIC_API)) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        (m.group(2).equals("package") ? packages : types).add(m.group(1));
      }
    }
    return new PublicApi(packages, types);
  }

  static String packageOf(String type) {
    int dot = type.lastIndexOf('.');
    return dot < 0 ? "" : type.substring(0, dot);
  }

  @Test
  void thePublicApiIsDeclaredOnceInTheDocsAndTheApiPackageNamesTheSame() throws Exception {
    PublicApi api = declared();
    assertTrue(api.packages().containsAll(List.of("io.durableagents.api", "io.durableagents.worker")), api.toString());
    for (String type : api.types()) {
      Class<?> c = Class.forName(type, false, getClass().getClassLoader());
      assertTrue(Modifier.isPublic(c.getModifiers()), type + " is declared public in " + PUBLIC_API + " but is not");
      assertTrue(!api.packages().contains(c.getPackageName()), type + " is listed on its own, and its package too");
    }
    for (String pkg : api.packages()) {
      assertTrue(classes().stream().anyMatch(c -> packageOf(c).equals(pkg)), "no class in the public package " + pkg);
    }
    // the javadoc's text, its lines joined: a {@code ...} may wrap
    String packageInfo = Files.readString(API_PACKAGE_INFO).replaceAll("(?m)^\\s*\\*\\s?", "").replaceAll("\\s+", " ");
    Set<String> named = new TreeSet<>();
    Matcher code = Pattern.compile("\\{@(?:code|link) +(io\\.durableagents\\.[\\w.]+)\\}").matcher(packageInfo);
    while (code.find()) {
      named.add(code.group(1));
    }
    Set<String> listed = new TreeSet<>(api.packages());
    listed.addAll(api.types());
    Set<String> publicNamed = new TreeSet<>(named);
    // the types of a public package (the API's own, linked in its contract; the plugin) need no entry
    publicNamed.removeIf(n -> !api.packages().contains(n) && api.packages().contains(packageOf(n)));
    assertEquals(listed, publicNamed, "the API's package-info names (in {@code ...}) exactly what "
        + PUBLIC_API.getFileName() + " declares public");
  }

  @Test
  void everyJavaBlockOfTheManualUsesOnlyThePublicApi() throws Exception {
    List<String> wrong = new ArrayList<>();
    int checked = check(DocSnippetsTest.pages(), declared(), wrong);
    assertTrue(checked >= 20, "the manual shows java: " + checked + " blocks checked");
    if (!wrong.isEmpty()) {
      fail("The manual teaches types that are not in the public API (" + PUBLIC_API + "): make them public there "
          + "(and in the API's package-info), or show the public way:\n  " + String.join("\n  ", wrong));
    }
  }

  /** The check catches what it is for: a page whose snippets import, name and use internal types. */
  @Test
  void aSnippetThatImportsOrUsesAnInternalTypeIsCaught(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path page = dir.resolve("page.md");
    Files.writeString(page, String.join("\n", "```java", "package com.example;", "",
        "import io.durableagents.api.Scenario;", "import io.durableagents.workflows.simulation.SimulationWorkflowImpl;",
        "import static io.durableagents.workflows.simulation.SimulationFailureTypes.STOPPED;",
        "import io.durableagents.activities.llm.*;", "", "public class A {",
        "  Object o = new io.durableagents.workflows.simulation.DurableState();", "}", "```", "",
        "```java fragment", "ToolRegistry registry = ToolRegistry.of(new Weather());",
        "SimulationInput input = SimulationInput.of(\"epstein\", 10, 42);", "```", ""));
    List<String> wrong = new ArrayList<>();
    assertEquals(2, check(List.of(page), declared(), wrong));
    assertEquals(List.of("page.md:1: imports io.durableagents.workflows.simulation.SimulationWorkflowImpl",
        "page.md:1: imports io.durableagents.workflows.simulation.SimulationFailureTypes.STOPPED",
        "page.md:1: imports io.durableagents.activities.llm.*",
        "page.md:1: names io.durableagents.workflows.simulation.DurableState",
        "page.md:14: uses ToolRegistry (io.durableagents.activities.tools.ToolRegistry)"), wrong);
  }

  /** Checks the java blocks of {@code pages}, adding what is wrong to {@code wrong}; returns how many. */
  static int check(List<Path> pages, PublicApi api, List<String> wrong) throws Exception {
    Map<String, Set<String>> internalBySimpleName = internalTypesBySimpleName(api);
    int checked = 0;
    for (Path page : pages) {
      List<DocSnippetsTest.Block> blocks = DocSnippetsTest.blocks(page).stream()
          .filter(b -> b.language().equals("java")).toList();
      Set<String> ownTypes = new HashSet<>();
      for (DocSnippetsTest.Block b : blocks) {
        Matcher d = DECLARED.matcher(b.text());
        while (d.find()) {
          ownTypes.add(d.group(1));
        }
      }
      for (DocSnippetsTest.Block b : blocks) {
        checked++;
        Set<String> importedElsewhere = new HashSet<>();
        Matcher imports = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE).matcher(b.text());
        while (imports.find()) {
          if (!imports.group(1).startsWith("io.durableagents.")) {
            importedElsewhere.add(imports.group(1).substring(imports.group(1).lastIndexOf('.') + 1));
          }
        }
        Matcher m = IMPORT.matcher(b.text());
        while (m.find()) {
          String name = m.group(2);
          boolean ok = m.group(3) != null && m.group(1) == null ? api.allowsPackage(name) : api.allows(name);
          if (!ok && !name.startsWith("io.durableagents.examples.")) {
            wrong.add(b.where() + ": imports " + name + (m.group(3) == null ? "" : ".*"));
          }
        }
        Matcher q = QUALIFIED.matcher(b.text().replaceAll("(?m)^import\\s.*$", ""));
        while (q.find()) {
          if (!api.allows(q.group()) && !q.group().startsWith("io.durableagents.examples.")) {
            wrong.add(b.where() + ": names " + q.group());
          }
        }
        if (b.fragment()) {
          Matcher s = SIMPLE_NAME.matcher(b.text().replaceAll("//.*|(?s)/\\*.*?\\*/|\"(?:[^\"\\\\]|\\\\.)*\"", ""));
          Set<String> seen = new LinkedHashSet<>();
          while (s.find()) {
            String simple = s.group();
            if (internalBySimpleName.containsKey(simple) && !ownTypes.contains(simple)
                && !importedElsewhere.contains(simple) && seen.add(simple)) {
              wrong.add(b.where() + ": uses " + simple + " (" + String.join(" or ", internalBySimpleName.get(simple))
                  + ")");
            }
          }
        }
      }
    }
    return checked;
  }

  @Test
  void publicMeansTheDeclaredPackagesTheirTypesAndTheDeclaredTypes() throws Exception {
    PublicApi api = declared();
    assertTrue(!api.allows("io.durableagents.workflows.simulation.SimulationWorkflowImpl"));
    assertTrue(!api.allows("io.durableagents.activities.tools.ToolRegistry"));
    assertTrue(!api.allowsPackage("io.durableagents.workflows.simulation"));
    assertTrue(api.allows("io.durableagents.api.Scenario"));
    assertTrue(api.allows("io.durableagents.worker.DurableAgentsPlugin.Builder"), "a nested type of a public one");
  }

  /**
   * The simple names of this project's public top-level types that are not public API, each with the
   * types of that name; names that some public type also has are left out (a fragment's use is
   * ambiguous).
   */
  static Map<String, Set<String>> internalTypesBySimpleName(PublicApi api) throws Exception {
    Map<String, Set<String>> internal = new HashMap<>();
    Set<String> publicNames = new HashSet<>();
    for (String type : classes()) {
      Class<?> c;
      try {
        c = Class.forName(type, false, PublicApiDocsTest.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        continue;
      }
      if (!Modifier.isPublic(c.getModifiers()) || type.startsWith("io.durableagents.examples.")) {
        continue;
      }
      if (api.allows(type)) {
        publicNames.add(c.getSimpleName());
      } else {
        internal.computeIfAbsent(c.getSimpleName(), k -> new TreeSet<>()).add(type);
      }
    }
    internal.keySet().removeAll(publicNames);
    return internal;
  }

  /** The top-level classes of this project on the test's classpath (its modules' classes and jars). */
  static Set<String> classes() throws Exception {
    Set<String> found = new TreeSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path) && Files.isDirectory(path.resolve("io/durableagents"))) {
        try (Stream<Path> files = Files.walk(path.resolve("io/durableagents"))) {
          files.map(f -> path.relativize(f).toString().replace(File.separatorChar, '/')).forEach(n -> add(found, n));
        }
      } else if (entry.endsWith(".jar") && path.getFileName().toString().startsWith("durable-agents-")) {
        try (ZipFile jar = new ZipFile(entry)) {
          jar.stream().forEach(e -> add(found, e.getName()));
        }
      }
    }
    return found;
  }

  private static void add(Set<String> found, String file) {
    if (file.startsWith("io/durableagents/") && file.endsWith(".class") && !file.contains("$")
        && !file.endsWith("package-info.class")) {
      found.add(file.substring(0, file.length() - ".class".length()).replace('/', '.'));
    }
  }
}
