package io.durableagents.starter.run;

/** How per-step variables are written: integers as they are, other numbers with 4 significant places. */
public final class Numbers {
  private Numbers() {}

  public static String format(Number n) {
    if (n == null) {
      return "";
    }
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return n.toString();
    }
    double d = n.doubleValue();
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return String.format(java.util.Locale.ROOT, "%.4g", d);
  }
}
