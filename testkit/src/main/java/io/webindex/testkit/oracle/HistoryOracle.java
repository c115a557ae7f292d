package io.webindex.testkit.oracle;

import com.google.common.io.BaseEncoding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An independent oracle of the history table (docs/tables.md, docs/semantics.md), written apart
 * from core's {@code Histories}, {@code Signatures} and {@code Schedules}: it reads the raw store
 * with {@link Oracle}, groups every version of a URI by crawl millisecond and keeps the first
 * recorded one, normalises digests with Guava's base-16 and base-32 codecs, replays the adaptive
 * schedule over the crawl list, and builds each URI's urc series by recomputing the index at every
 * given successful run's snapshot.
 *
 * <p>Output: the history table as dump lines ({@code row<TAB>family:<TAB>@<timestamp><TAB>value},
 * crawl and urc timestamps as ISO-8601 instants with milliseconds, the schedule's as {@code @0}),
 * in table order.
 */
public final class HistoryOracle {
  /** The schedule's constants (seconds and rates), as in the configuration. */
  public record Rule(
      long defaultSeconds,
      long minSeconds,
      long maxSeconds,
      double incRate,
      double decRate,
      boolean syncDelta,
      double syncDeltaRate) {}

  /** A successful batch run: when it started (the urc point's time) and its snapshot batch. */
  public record Run(Instant started, long snapshot) {}

  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private HistoryOracle() {}

  /** One crawl: a millisecond and the version that won it. */
  private record Point(long ms, String status, String signature, int outlinks) {}

  /**
   * The history table of the run at {@code snapshot}: crawls and schedules from every version in
   * batches up to {@code snapshot}; urc points from {@code runs} (the newest {@code versions} per
   * URI, as the table's versioning iterator keeps them).
   */
  public static List<String> dump(
      Path store, long snapshot, List<Run> runs, int versions, Rule rule) throws IOException {
    Oracle now = Oracle.ofStore(store, snapshot);
    // row -> (family -> lines, newest first)
    TreeMap<String, TreeMap<String, List<String>>> rows = new TreeMap<>();
    for (Map.Entry<String, List<Oracle.Version>> e : now.allVersions().entrySet()) {
      String uri = e.getKey();
      List<Point> crawls = crawls(e.getValue());
      TreeMap<String, List<String>> fams = rows.computeIfAbsent(uri, k -> new TreeMap<>());
      List<String> crawlLines = new ArrayList<>();
      for (int i = crawls.size() - 1; i >= 0 && crawlLines.size() < versions; i--) {
        Point p = crawls.get(i);
        crawlLines.add(
            line(
                uri,
                "crawl",
                ISO.format(Instant.ofEpochMilli(p.ms)),
                p.status + " " + (p.signature.isEmpty() ? "-" : p.signature) + " " + p.outlinks));
      }
      fams.put("crawl", crawlLines);
      fams.put("sched", List.of(line(uri, "sched", "0", schedule(crawls, rule))));
    }
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparing(Run::started).reversed());
    for (Run r : sorted) {
      for (Map.Entry<String, Long> u : Oracle.ofStore(store, r.snapshot).urcOfSeen().entrySet()) {
        List<String> pts =
            rows.computeIfAbsent(u.getKey(), k -> new TreeMap<>())
                .computeIfAbsent("urc", k -> new ArrayList<>());
        if (pts.size() < versions) {
          pts.add(line(u.getKey(), "urc", ISO.format(r.started), Long.toString(u.getValue())));
        }
      }
    }
    List<String> out = new ArrayList<>();
    rows.values().forEach(fams -> fams.values().forEach(out::addAll));
    return out;
  }

  /** One crawl per millisecond, the first recorded version of the millisecond; oldest first. */
  private static List<Point> crawls(List<Oracle.Version> all) {
    TreeMap<Long, Oracle.Version> best = new TreeMap<>();
    for (Oracle.Version v : all) {
      long ms =
          Math.floorDiv(
              v.crawled().getEpochSecond() * 1_000_000_000L + v.crawled().getNano(), 1_000_000L);
      Oracle.Version held = best.get(ms);
      if (held == null || recordedBefore(v, held)) {
        best.put(ms, v);
      }
    }
    List<Point> out = new ArrayList<>();
    best.forEach(
        (ms, v) -> {
          if (v.deleted()) {
            out.add(new Point(ms, "gone", "", 0));
          } else {
            Map<String, String[]> links = Oracle.outlinks(v);
            out.add(new Point(ms, "ok", signature(v, links), links.size()));
          }
        });
    return out;
  }

  /** Whether {@code a} was recorded before {@code b}: an earlier batch, file or byte offset. */
  private static boolean recordedBefore(Oracle.Version a, Oracle.Version b) {
    if (a.batch() != b.batch()) {
      return a.batch() < b.batch();
    }
    int f = a.file().compareTo(b.file());
    return f != 0 ? f < 0 : a.offset() < b.offset();
  }

  /** The record's digest normalised, else the SHA-1 of title and links. */
  private static String signature(Oracle.Version v, Map<String, String[]> links) {
    String d = v.digest() == null ? "" : v.digest().trim();
    if (!d.isEmpty()) {
      String n = normalise(d);
      if (n != null) {
        return n;
      }
    }
    StringBuilder text = new StringBuilder(Oracle.clean(v.title(), 1024));
    links.forEach((key, l) -> text.append('\n').append(key).append('\t').append(l[1]));
    return "idx:" + b32(sha1(text.toString()));
  }

  private static final Map<String, Integer> BYTES =
      Map.of("sha1", 20, "sha-1", 20, "sha256", 32, "sha-256", 32, "md5", 16);

  private static String normalise(String d) {
    int colon = d.indexOf(':');
    String algo = colon < 0 ? "sha1" : d.substring(0, colon).toLowerCase(Locale.ROOT);
    String value = colon < 0 ? d : d.substring(colon + 1);
    Integer n = BYTES.get(algo);
    if (n == null || (colon < 0 && value.length() != 40 && value.length() != 32)) {
      return null;
    }
    byte[] bytes = null;
    if (value.length() == 2 * n && value.matches("[0-9a-fA-F]+")) {
      bytes = BaseEncoding.base16().decode(value.toUpperCase(Locale.ROOT));
    } else {
      String b = value.toUpperCase(Locale.ROOT);
      String bare = b.replaceAll("=+$", "");
      boolean padded = !bare.equals(b);
      if (bare.matches("[A-Z2-7]+") && (!padded || b.length() % 8 == 0)) {
        try {
          byte[] x = BaseEncoding.base32().omitPadding().decode(bare);
          // one value, one spelling: the unused low bits must be zero
          if (x.length == n && b32(x).equals(bare)) {
            bytes = x;
          }
        } catch (IllegalArgumentException e) {
          bytes = null;
        }
      }
    }
    return bytes == null ? null : algo.replace("-", "") + ":" + b32(bytes);
  }

  private static String b32(byte[] b) {
    return BaseEncoding.base32().omitPadding().encode(b);
  }

  private static byte[] sha1(String s) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The schedule value. The state after each crawl is (interval, time of the last change); the
   * interval starts at the default, the last crawl decides the next fetch.
   */
  private static String schedule(List<Point> crawls, Rule r) {
    return replay(crawls, r).text;
  }

  /** The replayed schedule: its value and its next fetch. */
  private record Replayed(String text, long next) {}

  private static Replayed replay(List<Point> crawls, Rule r) {
    long interval = Math.min(r.maxSeconds, Math.max(r.minSeconds, r.defaultSeconds));
    int lastChange = 0; // index of the crawl that last changed the content (first crawl: 0)
    int changes = 0;
    long reference = crawls.get(0).ms;
    for (int i = 1; i < crawls.size(); i++) {
      boolean changed = !crawls.get(i).signature.equals(crawls.get(i - 1).signature);
      double factor = changed ? 1 - r.decRate : 1 + r.incRate;
      interval = Math.round(interval * factor);
      if (changed) {
        changes++;
        lastChange = i;
      }
      long at = crawls.get(i).ms;
      reference = at;
      if (r.syncDelta) {
        long sinceChange = Math.floorDiv(at - crawls.get(lastChange).ms, 1000L);
        if (sinceChange > interval) {
          interval = sinceChange;
        }
        reference = at - Math.round(sinceChange * r.syncDeltaRate) * 1000L;
      }
      interval = interval < r.minSeconds ? r.minSeconds : Math.min(interval, r.maxSeconds);
    }
    long first = crawls.get(0).ms;
    long last = crawls.get(crawls.size() - 1).ms;
    long next = reference + interval * 1000L;
    String text =
        "first="
            + iso(first)
            + " last="
            + iso(last)
            + " crawls="
            + crawls.size()
            + " changes="
            + changes
            + " interval="
            + interval
            + " next="
            + iso(reference + interval * 1000L)
            + " modified="
            + iso(crawls.get(lastChange).ms);
    return new Replayed(text, next);
  }

  /**
   * The frontier table of the run at {@code snapshot} (docs/tables.md): a line per URI that was
   * crawled (due at its schedule's next fetch, 0 if before 1970) or is linked to by a current page
   * (due 0), in the row {@code q:<host>}, column {@code due:<16 hex digits of the due
   * millisecond>:<16 hex digits of Long.MAX_VALUE - urc>:<key>}, value the URL; in table order.
   */
  public static List<String> frontier(Path store, long snapshot, Rule rule) throws IOException {
    Oracle now = Oracle.ofStore(store, snapshot);
    Map<String, Long> urc = now.urcOfSeen();
    Map<String, Long> due = new TreeMap<>();
    for (Map.Entry<String, List<Oracle.Version>> e : now.allVersions().entrySet()) {
      due.put(e.getKey(), Math.max(0, replay(crawls(e.getValue()), rule).next));
    }
    for (Map.Entry<String, Long> u : urc.entrySet()) {
      if (u.getValue() > 0) {
        due.putIfAbsent(u.getKey(), 0L);
      }
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Long> d : due.entrySet()) {
      String key = d.getKey();
      long n = urc.getOrDefault(key, 0L);
      out.add(
          Oracle.escape("q:" + hostOfKey(key))
              + "\tdue:"
              + String.format("%016x:%016x:", d.getValue(), Long.MAX_VALUE - n)
              + Oracle.escape(key)
              + "\t"
              + Oracle.escape(urlOfKey(key)));
    }
    out.sort(null);
    return out;
  }

  /** The part of a key before its marker and path. */
  private static String hostPart(String key) {
    if (key.startsWith("[")) {
      return key.substring(0, key.indexOf(']') + 1);
    }
    int i = 0;
    while (i < key.length() && key.charAt(i) != ':' && key.charAt(i) != '/') {
      i++;
    }
    return key.substring(0, i);
  }

  /** The host of a key: labels reversed back, an IP address as it is. */
  static String hostOfKey(String key) {
    String h = hostPart(key);
    if (h.startsWith("[") || h.matches("[0-9]+(\\.[0-9]+){3}")) {
      return h;
    }
    List<String> labels = new ArrayList<>(List.of(h.split("\\.", -1)));
    java.util.Collections.reverse(labels);
    return String.join(".", labels);
  }

  /** The URL of a key: the marker gives scheme and port, an empty path is "/". */
  static String urlOfKey(String key) {
    String h = hostPart(key);
    String rest = key.substring(h.length());
    String marker = "";
    if (rest.startsWith(":")) {
      int slash = rest.indexOf('/');
      marker = slash < 0 ? rest.substring(1) : rest.substring(1, slash);
      rest = slash < 0 ? "" : rest.substring(slash);
    }
    boolean https = marker.endsWith("s");
    String port = https ? marker.substring(0, marker.length() - 1) : marker;
    return (https ? "https" : "http")
        + "://"
        + hostOfKey(key)
        + (port.isEmpty() ? "" : ":" + port)
        + (rest.isEmpty() ? "/" : rest);
  }

  private static String iso(long ms) {
    return ISO.format(Instant.ofEpochMilli(ms));
  }

  private static String line(String row, String family, String ts, String value) {
    return Oracle.escape(row)
        + "\t"
        + Oracle.escape(family)
        + ":\t@"
        + ts
        + "\t"
        + Oracle.escape(value);
  }
}
