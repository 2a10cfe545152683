package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.SeededRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeededRandomTest {
  @Test
  void aRestoredGeneratorContinuesTheSameSequence() throws Exception {
    SeededRandom a = new SeededRandom(42);
    a.nextLong();
    SeededRandom b = Json.MAPPER.readValue(Json.write(a), SeededRandom.class);
    assertEquals(a.nextLong(), b.nextLong());
    assertEquals(a.nextInt(10), b.nextInt(10));
  }

  @Test
  void drawsStayInRangeAndShuffleIsAPermutation() {
    SeededRandom r = new SeededRandom(1);
    for (int i = 0; i < 1000; i++) {
      double d = r.nextDouble();
      assertTrue(d >= 0 && d < 1);
      int n = r.nextIntInclusive(0, 3);
      assertTrue(n >= 0 && n <= 3);
    }
    List<Integer> items = List.of(1, 2, 3, 4, 5, 6, 7, 8);
    List<Integer> shuffled = new SeededRandom(5).shuffled(items);
    assertEquals(items, shuffled.stream().sorted().toList());
    assertNotEquals(items, shuffled);
    assertEquals(shuffled, new SeededRandom(5).shuffled(items));
  }
}
