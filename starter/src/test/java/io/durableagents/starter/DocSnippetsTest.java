package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * The manual's code compiles. Every {@code ```java} block of {@code docs/*.md} and the README is a whole
 * file (its {@code package} line, its imports, its types) and is compiled, with the other whole files of
 * its page, against the modules' classpath; a block that is a piece of a file says so in its info string,
 * {@code ```java fragment}, and is skipped. Every {@code ```xml} block is well-formed XML, and a {@code
 * <mainClass>} of ours in one names a class with a {@code main} method.
 */
class DocSnippetsTest {
  static final Path DOCS = Path.of("..", "docs");
  private static final Pattern FENCE = Pattern.compile("^```(\\S*)(.*)$");
  private static final Pattern TYPE = Pattern.compile(
      "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
      Pattern.MULTILINE);
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

  /** A fenced block: its page, the line it starts on, its language, whether it is a fragment, its text. */
  record Block(Path page, int line, String language, boolean fragment, String text) {
    String where() {
      return page.getFileName() + ":" + line;
    }
  }

  static List<Block> blocks(Path page) throws Exception {
    List<String> lines = Files.readAllLines(page);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher open = FENCE.matcher(lines.get(i));
      if (!open.matches()) {
        continue;
      }
      int start = i;
      StringBuilder text = new StringBuilder();
      for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
        text.append(lines.get(i)).append('\n');
      }
      blocks.add(new Block(page, start + 1, open.group(1).toLowerCase(Locale.ROOT),
          open.group(2).contains("fragment"), text.toString()));
    }
    return blocks;
  }

  static List<Path> pages() throws Exception {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> files = Files.list(DOCS)) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    pages.add(DOCS.resolveSibling("README.md"));
    return pages;
  }

  @Test
  void everyWholeJavaFileOfTheManualCompiles(@TempDir Path dir) throws Exception {
    int compiled = 0;
    for (Path page : pages()) {
      compiled += compile(page, dir).size();
    }
    assertTrue(compiled >= 10, "the manual shows whole files: " + compiled + " compiled");
  }

  /**
   * The scenario of "A scenario in whole files" runs as the command line would run it: its extension
   * registers it on a plugin, and a simulation with the rules model walks every walker to the end.
   */
  @Test
  void theWholeFilesScenarioRunsThroughItsExtension(@TempDir Path dir) throws Exception {
    Path page = DOCS.resolve("scenario-in-whole-files.md");
    assertTrue(compile(page, dir).size() >= 8, "the page shows its scenario's files");
    Path classes = dir.resolve(page.getFileName().toString()).resolve("classes");
    try (java.net.URLClassLoader loader = new java.net.URLClassLoader(
        new java.net.URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      io.durableagents.worker.DurableAgentsPlugin.Builder builder = io.durableagents.worker.DurableAgentsPlugin
          .newBuilder();
      ((io.durableagents.worker.DurableAgentsExtension) loader.loadClass("com.example.walk.WalkExtension")
          .getDeclaredConstructor().newInstance()).configure(builder);
      try (io.temporal.testing.TestWorkflowEnvironment env =
          io.durableagents.testkit.DurableAgentsTestEnvironment.start(builder.build())) {
        io.durableagents.workflows.simulation.SimulationResult r = io.durableagents.testkit.DurableAgentsTestEnvironment
            .simulation(env.getWorkflowClient(), "doc-walk")
            .run(io.durableagents.workflows.simulation.SimulationInput.of("walk", 12, 42).withAgentOptions(
                io.durableagents.workflows.agent.AgentOptions.newBuilder().setModel("rules").build()));
        assertEquals(5, r.finalCounts().get("at_the_end").intValue(), r.perStep().toString());
      }
    }
  }

  /** Compiles the whole java files of {@code page} into {@code <dir>/<page>/classes}; returns them. */
  private static List<Path> compile(Path page, Path dir) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Map<Path, Block> sources = new LinkedHashMap<>();
    Path src = dir.resolve(page.getFileName().toString()).resolve("src");
    for (Block b : blocks(page)) {
      if (!b.language().equals("java") || b.fragment()) {
        continue;
      }
      Matcher pkg = PACKAGE.matcher(b.text());
      Matcher type = TYPE.matcher(b.text());
      if (!pkg.find() || !type.find()) {
        fail(b.where() + ": a ```java block that is not a whole file (no package line or no public type): "
            + "show the whole file, or mark it ```java fragment");
      }
      Path file = src.resolve(pkg.group(1).replace('.', '/')).resolve(type.group(1) + ".java");
      if (sources.containsKey(file)) {
        fail(b.where() + ": " + file.getFileName() + " is shown twice on the page, also at "
            + sources.get(file).where() + "; mark one ```java fragment");
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, b.text());
      sources.put(file, b);
    }
    if (sources.isEmpty()) {
      return List.of();
    }
    Path classes = Files.createDirectories(dir.resolve(page.getFileName().toString()).resolve("classes"));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      boolean ok = javac.getTask(null, files, diagnostics, List.of("-parameters", "-proc:none", "-Xlint:none",
              "-classpath", System.getProperty("java.class.path"), "-d", classes.toString()), null,
          files.getJavaFileObjectsFromPaths(sources.keySet())).call();
      if (!ok) {
        StringBuilder why = new StringBuilder(page.getFileName() + ": its java files do not compile:\n");
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
          if (d.getKind() == Diagnostic.Kind.ERROR) {
            Block b = sources.get(Path.of(d.getSource().toUri()));
            why.append(b == null ? "?" : b.where()).append(" + ").append(d.getLineNumber()).append(": ")
                .append(d.getMessage(Locale.ROOT)).append('\n');
          }
        }
        fail(why.toString());
      }
    }
    return List.copyOf(sources.keySet());
  }

  @Test
  void everyXmlBlockIsWellFormedAndOurMainClassesHaveAMain() throws Exception {
    Pattern mainClass = Pattern.compile("<mainClass>\\s*([\\w.]+)\\s*</mainClass>");
    int checked = 0;
    for (Path page : pages()) {
      for (Block b : blocks(page)) {
        if (!b.language().equals("xml")) {
          continue;
        }
        // several top-level elements (a <dependencies> after a <dependencyManagement>) are fine in a snippet
        String text = b.text().replaceFirst("^\\s*<\\?xml[^>]*\\?>", "");
        try {
          DocumentBuilderFactory.newInstance().newDocumentBuilder()
              .parse(new InputSource(new StringReader("<snippet>" + text + "</snippet>")));
        } catch (org.xml.sax.SAXException e) {
          fail(b.where() + ": not well-formed XML: " + e.getMessage());
        }
        Matcher m = mainClass.matcher(text);
        while (m.find()) {
          if (m.group(1).startsWith("io.durableagents.") && !m.group(1).startsWith("io.durableagents.examples.")) {
            Method main = Class.forName(m.group(1)).getMethod("main", String[].class);
            assertTrue(Modifier.isStatic(main.getModifiers()), b.where() + ": " + m.group(1) + ".main is static");
            checked++;
          }
        }
      }
    }
    assertTrue(checked >= 1, "the manual shows a shaded jar's main class");
    assertEquals("io.durableagents.starter.StarterMain", StarterMain.class.getName());
  }
}
