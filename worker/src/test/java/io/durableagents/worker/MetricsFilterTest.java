package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code /metrics?name[]=...} renders only the series named; without it, every series. */
class MetricsFilterTest {
  @Test
  void theQueryNamesTheSeries() {
    assertEquals(Set.of(), MetricsServer.includedNames(null));
    assertEquals(Set.of(), MetricsServer.includedNames("other=1&name[]="));
    assertEquals(Set.of("a_b", "c"), MetricsServer.includedNames("name%5B%5D=a_b&x=y&name[]=c"));
  }

  @Test
  void onlyTheNamedSeriesAreRendered() throws Exception {
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      String all = get(metrics, "/metrics");
      assertTrue(all.contains("jvm_memory_used_bytes{"), all);
      assertTrue(all.contains("jvm_threads_live_threads "), all);
      String two = get(metrics, "/metrics?name%5B%5D=jvm_memory_used_bytes&name%5B%5D=jvm_threads_live_threads");
      assertTrue(two.contains("jvm_memory_used_bytes{"), two);
      assertTrue(two.contains("jvm_threads_live_threads "), two);
      assertFalse(two.contains("jvm_gc_") || two.contains("process_cpu") || two.contains("jvm_threads_peak"), two);
      assertTrue(two.length() < all.length() / 2, two.length() + " of " + all.length());
    }
  }

  private static String get(MetricsServer metrics, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + metrics.port() + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
