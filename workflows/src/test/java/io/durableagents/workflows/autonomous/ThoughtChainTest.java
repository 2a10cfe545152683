package io.durableagents.workflows.autonomous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ThoughtChainTest {
  @Test
  void everyCallReturnsTheWholeNumberedChain() {
    ThoughtChain chain = new ThoughtChain(50, false);
    chain.add("startup time matters");
    String shown = chain.add("distribution is the key");
    assertEquals("Thoughts (2):\n1. startup time matters\n2. distribution is the key", shown);
  }

  @Test
  void theRingBufferEvictsTheOldestAndKeepsNumbers() {
    ThoughtChain chain = new ThoughtChain(2, false);
    chain.add("a");
    chain.add("b");
    String shown = chain.add("c");
    assertEquals("Thoughts (2):\n2. b\n3. c", shown);
    assertEquals(List.of("b", "c"), chain.thoughts());
    assertEquals(3, chain.recorded());
  }

  @Test
  void critiqueNudgesEveryFifthThought() {
    ThoughtChain chain = new ThoughtChain(50, true);
    for (int i = 1; i <= 4; i++) {
      assertFalse(chain.add("t" + i).contains("critically evaluate"));
    }
    assertTrue(chain.add("t5").endsWith(ThoughtChain.critiqueNudge(5)));
    assertFalse(chain.add("t6").contains("critically evaluate"));
    assertFalse(new ThoughtChain(50, false).add("x").contains("critically"));
  }
}
