package io.durableagents.workflows.agent.react;

/**
 * Keeps observations within {@code maxObservationChars}, against the "context explosion" pitfall of
 * long trajectories: a longer observation keeps its head and its tail (where a file's start and an
 * error's last lines are), joined by a note of how much was cut.
 *
 * <pre>{@code
 * String seen = ObservationCompressor.compress(output, 4000);
 * // "first 1979 characters\n[... 16042 characters cut of 20000 ...]\nlast 1979 characters"
 * }</pre>
 *
 * <p>The result is never longer than the limit. Pure, so it can run in workflow code; the compressed
 * text is what the conversation, the turns and the tool outcomes keep.
 */
public final class ObservationCompressor {
  private ObservationCompressor() {}

  /** {@code text} when it fits in {@code maxChars}, else its head and tail with a note of the cut. */
  public static String compress(String text, int maxChars) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int total = text.length();
    // The note is longest when the cut is as long as the whole text: size it for that, then cut.
    int noteChars = note(total, total).length();
    int keep = Math.max(0, maxChars - noteChars);
    int headEnd = keep - keep / 2;
    int tailStart = total - keep / 2;
    // Never split a surrogate pair: an unpaired half is not valid text for a provider.
    if (headEnd > 0 && Character.isHighSurrogate(text.charAt(headEnd - 1))) {
      headEnd--;
    }
    if (tailStart < total && Character.isLowSurrogate(text.charAt(tailStart))) {
      tailStart++;
    }
    int cut = tailStart - headEnd;
    return text.substring(0, headEnd) + note(cut, total) + text.substring(tailStart);
  }

  private static String note(int cut, int total) {
    return "\n[... " + cut + " characters cut of " + total + " ...]\n";
  }
}
