package io.webindex.check.engine;

/**
 * One sampled finding: its kind, which table it was found in ({@code expected}, {@code actual}, or
 * both for a difference), where (row range, row, column) and the values involved.
 */
public record Finding(
    Kind kind,
    String table,
    String range,
    String row,
    String column,
    String expected,
    String actual,
    String detail) {
  /** The same finding, found in {@code table}. */
  public Finding in(String table) {
    return new Finding(kind, table, range, row, column, expected, actual, detail);
  }
}
