package io.durableagents.starter;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver (a pair built from one source, so
 * their versions always match; both given by path, so Selenium Manager downloads nothing), for tests
 * that read a web page as a person sees it: the text it renders, and a screenshot of it.
 *
 * <pre>{@code
 * try (HeadlessChromium browser = HeadlessChromium.start(dir)) {
 *   browser.open("http://127.0.0.1:8233/namespaces/default/workflows");
 *   browser.awaitText("Workflows");
 *   browser.screenshot(dir.resolve("list.png"));
 * }
 * }</pre>
 */
final class HeadlessChromium implements AutoCloseable {
  /** The Chromium executable (default {@code /usr/bin/chromium}). */
  static final String CHROMIUM_VARIABLE = "DURABLE_AGENTS_CHROMIUM";
  /** Its chromedriver (default {@code /usr/bin/chromedriver}). */
  static final String CHROMEDRIVER_VARIABLE = "DURABLE_AGENTS_CHROMEDRIVER";
  /** The viewport of every screenshot. */
  static final int WIDTH = 1440;
  static final int HEIGHT = 900;
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final ChromeDriver driver;
  private final Path profile;

  private HeadlessChromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /**
   * Starts Chromium with a fresh profile under {@code dir}. Skips the calling test where there is no
   * Chromium or chromedriver, saying why, and fails it under CI ({@code CI=true}), whose {@code .ci/run}
   * installs both.
   */
  static HeadlessChromium start(Path dir) throws IOException {
    Path chromium = executable(CHROMIUM_VARIABLE, "/usr/bin/chromium");
    Path chromedriver = executable(CHROMEDRIVER_VARIABLE, "/usr/bin/chromedriver");
    String missing = chromium == null ? "Chromium" : chromedriver == null ? "chromedriver" : null;
    if (missing != null) {
      String why = "no " + missing + " here (Debian's chromium and chromium-driver, which .ci/run installs; or set "
          + CHROMIUM_VARIABLE + " and " + CHROMEDRIVER_VARIABLE + "): this test reads the Temporal UI in a headless "
          + "browser and is skipped";
      if ("true".equalsIgnoreCase(System.getenv().getOrDefault("CI", "").trim())) {
        throw new IllegalStateException("CI=true and " + why.replace(" and is skipped", ""));
      }
      assumeTrue(false, why);
    }
    Path profile = Files.createTempDirectory("durable-agents-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    // Without these, headless Chromium keeps opening background connections that a closed network refuses.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--hide-scrollbars",
        "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver.toFile())
        .usingAnyFreePort()
        .withLogFile(dir.resolve("chromedriver.log").toFile())
        .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    // the viewport itself, not the window (whose frame headless Chromium counts in --window-size)
    driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
        Map.of("width", WIDTH, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
    return new HeadlessChromium(driver, profile);
  }

  /**
   * {@link #start} in another thread, for a test to set up its server or worker meanwhile; {@link
   * #started} waits for it.
   */
  static java.util.concurrent.CompletableFuture<HeadlessChromium> startInBackground(Path dir) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return start(dir);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  /** The browser {@link #startInBackground} started, or what stopped it (a skip where there is no Chromium). */
  static HeadlessChromium started(java.util.concurrent.CompletableFuture<HeadlessChromium> starting) throws Exception {
    try {
      return starting.get(120, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  private static Path executable(String variable, String fallback) {
    String given = System.getenv(variable);
    Path path = Path.of(given != null && !given.isBlank() ? given.trim() : fallback);
    return Files.isRegularFile(path) && Files.isExecutable(path) ? path : null;
  }

  void open(String url) {
    driver.get(url);
  }

  /** What the page shows now, as a person reads it (the rendered text of its body). */
  String text() {
    try {
      return driver.findElement(By.tagName("body")).getText();
    } catch (StaleElementReferenceException e) {
      return "";
    }
  }

  /**
   * Waits until the page shows every one of {@code texts}, loading it again every 5 s (a list the server
   * has not indexed yet); fails naming what is missing and with what the page showed.
   */
  String awaitText(String... texts) {
    return await("the page to show " + Arrays.toString(texts), page -> Arrays.stream(texts).allMatch(page::contains));
  }

  /** Waits until {@code script} (JavaScript run in the page) returns true, without loading the page again. */
  void awaitScript(String what, String script) {
    try {
      new WebDriverWait(driver, WAIT).until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(script)));
    } catch (TimeoutException e) {
      throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + what + " at " + driver.getCurrentUrl()
          + "; the page showed:\n" + text());
    }
  }

  /** Waits until the page's text satisfies {@code condition}, loading it again every 5 s. */
  String await(String what, Predicate<String> condition) {
    return await(what, condition, true);
  }

  /**
   * As {@link #awaitText}, never loading the page again: for a live page whose state (a slider moved,
   * an agent opened) a reload would lose.
   */
  String awaitLive(String... texts) {
    return await("the page to show " + Arrays.toString(texts), page -> Arrays.stream(texts).allMatch(page::contains),
        false);
  }

  private String await(String what, Predicate<String> condition, boolean reloading) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long reload = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      String page = text();
      if (condition.test(page)) {
        return page;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + what + " at " + driver.getCurrentUrl()
            + "; it showed:\n" + page);
      }
      if (reloading && System.nanoTime() > reload) {
        driver.navigate().refresh();
        reload = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      }
      try {
        new WebDriverWait(driver, Duration.ofMillis(250)).until(d -> condition.test(text()));
      } catch (TimeoutException notYet) {
        // look again
      }
    }
  }

  /**
   * Clicks the history event row that shows {@code text} (its summary, say), which opens its details,
   * and scrolls it to the top of the page, under the history's own header.
   */
  WebElement openEventWith(String text) {
    WebElement row = new WebDriverWait(driver, WAIT).until(d -> d.findElements(
            By.xpath("//tr[@data-testid='event-summary-row'][.//*[normalize-space(text())='" + text + "']]"))
        .stream().findFirst().orElse(null));
    ((JavascriptExecutor) driver).executeScript("arguments[0].click();", row);
    scrollToTop(row, 240);
    return row;
  }

  /** Scrolls the element {@code offset} pixels below the top of its scrolling container, and fully left. */
  void scrollToTop(WebElement element, int offset) {
    ((JavascriptExecutor) driver).executeScript(
        "const el = arguments[0];"
            + "let c = el.parentElement;"
            + "while (c && !(c.scrollHeight > c.clientHeight && /(auto|scroll)/.test(getComputedStyle(c).overflowY))) {"
            + "  c = c.parentElement; }"
            + "c = c || document.scrollingElement;"
            + "c.scrollTop += el.getBoundingClientRect().top - c.getBoundingClientRect().top - arguments[1];"
            + "for (let e = el; e; e = e.parentElement) { e.scrollLeft = 0; }"
            + "document.scrollingElement.scrollLeft = 0;", element, offset);
  }

  /** Scrolls the first element whose own text is {@code text} near the top of the page. */
  void scrollTo(String text, int offset) {
    WebElement element = new WebDriverWait(driver, WAIT).until(d -> d.findElements(
        By.xpath("//*[normalize-space(text())='" + text + "']")).stream().findFirst().orElse(null));
    scrollToTop(element, offset);
  }

  /** Clicks the first link or button whose text is {@code text}. */
  void click(String text) {
    WebElement element = new WebDriverWait(driver, WAIT).until(d -> {
      List<WebElement> found = d.findElements(By.xpath("//*[self::a or self::button or @role='tab']"
          + "[normalize-space(.)='" + text + "' or .//text()[normalize-space(.)='" + text + "']]"));
      return found.isEmpty() ? null : found.get(0);
    });
    ((JavascriptExecutor) driver).executeScript("arguments[0].click();", element);
  }

  /** Types {@code text} into the field {@code css} selects, after clearing it. */
  void type(String css, String text) {
    WebElement field = new WebDriverWait(driver, WAIT).until(d -> d.findElements(By.cssSelector(css)).stream()
        .findFirst().orElse(null));
    field.clear();
    field.sendKeys(text);
  }

  /** Runs {@code script} in the page and returns what it returns. */
  Object script(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  String currentUrl() {
    return driver.getCurrentUrl();
  }

  /** Saves what the viewport shows as a PNG. */
  void screenshot(Path png) throws IOException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), png, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void close() throws IOException {
    driver.quit();
    try (var files = Files.walk(profile)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
