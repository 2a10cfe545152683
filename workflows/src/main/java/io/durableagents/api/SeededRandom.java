package io.durableagents.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * A seeded random number generator (SplitMix64) whose whole state is one {@code long}, so that it can
 * be stored in workflow state and carried across continue-as-new. The same seed always gives the same
 * sequence, on every JVM and on every replay.
 */
public final class SeededRandom {
  private long state;

  @JsonCreator
  public SeededRandom(@JsonProperty("state") long state) {
    this.state = state;
  }

  /** The whole state: a generator made from it continues this one's sequence. */
  @JsonProperty("state")
  public long state() {
    return state;
  }

  public long nextLong() {
    long z = (state += 0x9E3779B97F4A7C15L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A uniform double in [0, 1). */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** A uniform int in [0, bound). */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    return (int) Math.floorMod(nextLong(), (long) bound);
  }

  /** A uniform int in [low, high], both included (Python's {@code randint}). */
  public int nextIntInclusive(int low, int high) {
    return low + nextInt(high - low + 1);
  }

  /** A shuffled copy of {@code items} (Fisher-Yates). */
  public <T> List<T> shuffled(List<T> items) {
    List<T> copy = new ArrayList<>(items);
    for (int i = copy.size() - 1; i > 0; i--) {
      int j = nextInt(i + 1);
      T tmp = copy.get(i);
      copy.set(i, copy.get(j));
      copy.set(j, tmp);
    }
    return copy;
  }
}
