package io.webindex.check.engine;

import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The invariants that span rows, checked per URI: a seen URI (one with {@code page:incount}) has
 * exactly one {@code t:} row and one {@code rank} column, both with its incount, the rank in its
 * own domain's row; a {@code t:} row or {@code rank} of a URI without incount is an orphan.
 */
public final class UriFacts {
  private UriFacts() {}

  public static List<Finding> check(String table, String uri, Iterable<UriFact> facts) {
    return check(table, uri, facts, Domains::ofKey);
  }

  /**
   * {@link #check(String, String, Iterable)} with the domain of a URI key computed by {@code
   * domainOfKey}, which must give what {@link Domains#ofKey} gives (e.g. remembered from another
   * table's check of the same URI), and throw {@link IllegalArgumentException} where it throws.
   */
  public static List<Finding> check(
      String table, String uri, Iterable<UriFact> facts, Function<String, String> domainOfKey) {
    Long incount = null;
    List<UriFact> totals = new ArrayList<>();
    List<UriFact> ranks = new ArrayList<>();
    for (UriFact f : facts) {
      switch (f.type()) {
        case INCOUNT -> incount = f.urc();
        case TOTAL -> totals.add(f);
        case RANK -> ranks.add(f);
      }
    }
    List<Finding> out = new ArrayList<>();
    if (incount == null) {
      for (UriFact f : totals) {
        out.add(
            finding(
                Kind.ORPHAN,
                table,
                QuerySchema.TOTAL_PREFIX,
                uri,
                "",
                "",
                Long.toString(f.urc()),
                QuerySchema.TOTAL_PREFIX + " row of a URI without " + QuerySchema.INCOUNT_COLUMN));
      }
      for (UriFact f : ranks) {
        out.add(
            finding(
                Kind.ORPHAN,
                table,
                QuerySchema.DOMAIN_PREFIX,
                QuerySchema.DOMAIN_PREFIX + f.domain(),
                QuerySchema.FAM_RANK,
                "",
                Long.toString(f.urc()),
                "rank of a URI without page:incount"));
      }
      return out;
    }
    String want = Long.toString(incount);
    if (totals.isEmpty()) {
      out.add(
          finding(
              Kind.TOTAL_MISSING,
              table,
              QuerySchema.TOTAL_PREFIX,
              uri,
              "",
              want,
              "",
              "seen URI without its " + QuerySchema.TOTAL_PREFIX + " row"));
    } else if (totals.size() > 1) {
      out.add(
          finding(
              Kind.TOTAL_MISMATCH,
              table,
              QuerySchema.TOTAL_PREFIX,
              uri,
              "",
              want,
              totals.size() + " rows",
              "more than one t: row"));
    } else if (totals.get(0).urc() != incount) {
      out.add(
          finding(
              Kind.TOTAL_MISMATCH,
              table,
              QuerySchema.TOTAL_PREFIX,
              uri,
              "",
              want,
              Long.toString(totals.get(0).urc()),
              QuerySchema.TOTAL_PREFIX + " count is not incount"));
    }
    String domain;
    try {
      domain = domainOfKey.apply(uri);
    } catch (IllegalArgumentException e) {
      out.add(
          finding(
              Kind.MALFORMED,
              table,
              QuerySchema.PAGE_PREFIX,
              QuerySchema.PAGE_PREFIX + uri,
              "",
              "",
              "",
              "not a URI key"));
      return out;
    }
    if (ranks.isEmpty()) {
      out.add(
          finding(
              Kind.RANK_MISSING,
              table,
              QuerySchema.DOMAIN_PREFIX,
              QuerySchema.DOMAIN_PREFIX + domain,
              QuerySchema.FAM_RANK,
              want,
              "",
              "seen URI " + uri + " without its rank"));
    } else if (ranks.size() > 1) {
      out.add(
          finding(
              Kind.RANK_MISMATCH,
              table,
              QuerySchema.DOMAIN_PREFIX,
              QuerySchema.DOMAIN_PREFIX + domain,
              QuerySchema.FAM_RANK,
              want,
              ranks.size() + " columns",
              "more than one rank of " + uri));
    } else {
      UriFact r = ranks.get(0);
      if (!r.domain().equals(domain)) {
        out.add(
            finding(
                Kind.RANK_MISMATCH,
                table,
                QuerySchema.DOMAIN_PREFIX,
                QuerySchema.DOMAIN_PREFIX + r.domain(),
                QuerySchema.FAM_RANK,
                QuerySchema.DOMAIN_PREFIX + domain,
                QuerySchema.DOMAIN_PREFIX + r.domain(),
                "rank of " + uri + " in another domain's row"));
      } else if (r.urc() != incount) {
        out.add(
            finding(
                Kind.RANK_MISMATCH,
                table,
                QuerySchema.DOMAIN_PREFIX,
                QuerySchema.DOMAIN_PREFIX + domain,
                QuerySchema.FAM_RANK,
                want,
                Long.toString(r.urc()),
                "rank count of " + uri + " is not incount"));
      }
    }
    return out;
  }

  static Finding finding(
      Kind kind,
      String table,
      String range,
      String row,
      String column,
      String expected,
      String actual,
      String detail) {
    return new Finding(kind, table, range, row, column, expected, actual, detail);
  }
}
