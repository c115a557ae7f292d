package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Streams one table's cells (in key order) and checks the invariants inside each row: {@code
 * domain:pagecount} = number of {@code rank} columns; {@code page:incount} = number of {@code
 * inlinks} columns; a row with {@code inlinks} or {@code page:cur} has {@code page:incount}; values
 * and encoded counts agree. Facts about each URI go to {@code facts}, to be joined across rows by
 * {@link UriFacts}. Call {@link #finish()} after the last cell.
 */
public final class RowInvariants {
  private static final byte[] INLINKS = QuerySchema.FAM_INLINKS.getBytes(StandardCharsets.UTF_8);

  private final String table;
  private final CheckListener listener;
  private final Consumer<UriFact> facts;

  private RawCell first;
  private String row;
  private QuerySchema.Row parsed;
  private long ranks;
  private Long pagecount;
  private long inlinks;
  private Long incount;
  private boolean cur;

  public RowInvariants(String table, CheckListener listener, Consumer<UriFact> facts) {
    this.table = table;
    this.listener = listener;
    this.facts = facts;
  }

  public void accept(RawCell raw) {
    if (first == null || !RawCell.sameRow(raw, first)) {
      finishRow();
      first = raw;
      startRow(raw.rowText());
    }
    if (parsed == null) {
      return;
    }
    if (parsed instanceof QuerySchema.Row.Page && raw.familyIs(INLINKS)) {
      // the bulk of a table: only counted, never decoded
      inlinks++;
      return;
    }
    Cell c = raw.cell();
    try {
      if (parsed instanceof QuerySchema.Row.Domain d) {
        if (c.family().equals(QuerySchema.FAM_RANK)) {
          QuerySchema.RankedUri r = QuerySchema.parseRankedUri(c.qualifier());
          ranks++;
          if (QuerySchema.parseCountValue(c.value()) != r.urc()) {
            violation(
                Kind.RANK_MISMATCH,
                c,
                Long.toString(r.urc()),
                c.value(),
                "rank value is not its encoded count");
          }
          facts.accept(new UriFact(r.uri(), UriFact.Type.RANK, r.urc(), d.domain()));
        } else if (c.family().equals(QuerySchema.FAM_DOMAIN)
            && c.qualifier().equals(QuerySchema.QUAL_PAGECOUNT)) {
          pagecount = QuerySchema.parseCountValue(c.value());
        } else {
          violation(Kind.MALFORMED, c, "", c.value(), "unknown column in a d: row");
        }
      } else if (parsed instanceof QuerySchema.Row.Page) {
        if (c.family().equals(QuerySchema.FAM_INLINKS)) {
          inlinks++;
        } else if (c.family().equals(QuerySchema.FAM_PAGE)
            && c.qualifier().equals(QuerySchema.QUAL_INCOUNT)) {
          incount = QuerySchema.parseCountValue(c.value());
        } else if (c.family().equals(QuerySchema.FAM_PAGE)
            && c.qualifier().equals(QuerySchema.QUAL_CUR)) {
          cur = true;
        } else {
          violation(
              Kind.MALFORMED,
              c,
              "",
              c.value(),
              "unknown column in a " + QuerySchema.PAGE_PREFIX + " row");
        }
      } else if (parsed instanceof QuerySchema.Row.Total t) {
        if (QuerySchema.parseCountValue(c.value()) != t.urc()) {
          violation(
              Kind.TOTAL_MISMATCH,
              c,
              Long.toString(t.urc()),
              c.value(),
              QuerySchema.TOTAL_PREFIX + " value is not its encoded count");
        }
        facts.accept(new UriFact(t.uri(), UriFact.Type.TOTAL, t.urc(), ""));
      }
    } catch (IllegalArgumentException e) {
      violation(Kind.MALFORMED, c, "", c.value(), e.getMessage());
    }
  }

  public void finish() {
    finishRow();
    first = null;
    row = null;
  }

  private void startRow(String r) {
    row = r;
    ranks = 0;
    pagecount = null;
    inlinks = 0;
    incount = null;
    cur = false;
    try {
      parsed = QuerySchema.parseRow(r);
    } catch (IllegalArgumentException e) {
      parsed = null;
      listener.violation(
          table,
          new Finding(
              Kind.MALFORMED,
              table,
              CheckListener.rangeOf(r),
              r,
              "",
              "",
              "",
              "not a query-table row"));
    }
  }

  private void finishRow() {
    if (row == null || parsed == null) {
      return;
    }
    if (parsed instanceof QuerySchema.Row.Domain) {
      if (pagecount == null ? ranks > 0 : pagecount != ranks) {
        listener.violation(
            table,
            new Finding(
                Kind.PAGECOUNT_MISMATCH,
                table,
                QuerySchema.DOMAIN_PREFIX,
                row,
                QuerySchema.PAGECOUNT_COLUMN,
                Long.toString(ranks),
                pagecount == null ? "" : Long.toString(pagecount),
                "pagecount is not the number of rank columns"));
      }
    } else if (parsed instanceof QuerySchema.Row.Page p) {
      if (incount == null) {
        if (inlinks > 0 || cur) {
          listener.violation(
              table,
              new Finding(
                  Kind.INCOUNT_MISSING,
                  table,
                  QuerySchema.PAGE_PREFIX,
                  row,
                  QuerySchema.INCOUNT_COLUMN,
                  Long.toString(inlinks),
                  "",
                  "row without " + QuerySchema.INCOUNT_COLUMN));
        }
      } else {
        if (incount != inlinks) {
          listener.violation(
              table,
              new Finding(
                  Kind.INCOUNT_MISMATCH,
                  table,
                  QuerySchema.PAGE_PREFIX,
                  row,
                  QuerySchema.INCOUNT_COLUMN,
                  Long.toString(inlinks),
                  Long.toString(incount),
                  "incount is not the number of inlinks columns"));
        }
        facts.accept(new UriFact(p.uri(), UriFact.Type.INCOUNT, incount, ""));
      }
    }
  }

  private void violation(Kind kind, Cell c, String expected, String actual, String detail) {
    listener.violation(
        table,
        new Finding(
            kind,
            table,
            CheckListener.rangeOf(c.row()),
            c.row(),
            c.family() + ":" + c.qualifier(),
            expected,
            actual,
            detail));
  }
}
