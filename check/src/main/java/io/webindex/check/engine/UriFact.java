package io.webindex.check.engine;

/**
 * What one part of a table says about a URI's reference count: its {@code page:incount} (and the
 * number of its {@code inlinks} columns), its {@code t:} row, or a {@code rank} column (in the row
 * of {@code domain}). The facts of one URI are joined by {@link UriFacts#check}.
 */
public record UriFact(String uri, Type type, long urc, String domain) {
  /** Where the fact comes from. */
  public enum Type {
    INCOUNT,
    TOTAL,
    RANK
  }
}
