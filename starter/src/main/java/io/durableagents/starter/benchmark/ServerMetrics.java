package io.durableagents.starter.benchmark;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Temporal CLI dev server's own metrics (Prometheus text on the port its log announces, "Temporal
 * Metrics: http://localhost:PORT/metrics"): the time its persistence calls took, per operation, summed over
 * the calls ({@code persistence_latency}'s sum and count). Wall time, not CPU: calls that wait for SQLite's
 * write lock or overlap each other count in full.
 *
 * <pre>{@code
 * String url = ServerMetrics.urlIn(serverLog).orElseThrow();
 * Map<String, double[]> before = ServerMetrics.persistence(ServerMetrics.scrape(url));
 * ... run ...
 * Map<String, double[]> used = ServerMetrics.delta(before, ServerMetrics.persistence(ServerMetrics.scrape(url)));
 * }</pre>
 */
final class ServerMetrics {
  private ServerMetrics() {}

  private static final Pattern ANNOUNCED = Pattern.compile("Temporal Metrics:\\s+http://[^:/\\s]+:(\\d+)/metrics");

  /** The metrics URL the dev server announced in {@code log} (the last one: the server running now). */
  static Optional<String> urlIn(File log) {
    try {
      Matcher m = ANNOUNCED.matcher(Files.readString(log.toPath()));
      String port = null;
      while (m.find()) {
        port = m.group(1);
      }
      return port == null ? Optional.empty() : Optional.of("http://127.0.0.1:" + port + "/metrics");
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The metrics' text now, or "" when the endpoint does not answer. */
  static String scrape(String url) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static final Pattern PERSISTENCE = Pattern.compile(
      "^persistence_latency(_seconds|_milliseconds)?_(sum|count)\\{([^}]*)\\} ([0-9.eE+-]+|NaN)$", Pattern.MULTILINE);
  private static final Pattern OPERATION = Pattern.compile("(?:^|,)operation=\"([^\"]*)\"");

  /**
   * The persistence calls in a scrape, per operation: {ms spent, calls}, summed over the label sets
   * (services, namespaces) of each operation. Seconds unless the metric's name says milliseconds.
   */
  static Map<String, double[]> persistence(String text) {
    Map<String, double[]> ops = new TreeMap<>();
    Matcher m = PERSISTENCE.matcher(text);
    while (m.find()) {
      if (m.group(4).equals("NaN")) {
        continue;
      }
      Matcher op = OPERATION.matcher(m.group(3));
      String operation = op.find() ? op.group(1) : "(no operation)";
      double value = Double.parseDouble(m.group(4));
      double[] v = ops.computeIfAbsent(operation, k -> new double[2]);
      if (m.group(2).equals("sum")) {
        v[0] += "_milliseconds".equals(m.group(1)) ? value : value * 1000;
      } else {
        v[1] += value;
      }
    }
    return ops;
  }

  /** What each operation added between two readings of {@link #persistence}. */
  static Map<String, double[]> delta(Map<String, double[]> before, Map<String, double[]> after) {
    Map<String, double[]> used = new TreeMap<>();
    after.forEach((op, v) -> {
      double[] b = before.getOrDefault(op, new double[2]);
      if (v[1] - b[1] > 0) {
        used.put(op, new double[] {v[0] - b[0], v[1] - b[1]});
      }
    });
    return used;
  }
}
