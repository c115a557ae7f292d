package io.webindex.testkit.oracle;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * An independent oracle of the query table (SPEC §3–4), for tests: the naive recomputation, written
 * apart from {@code io.webindex.core} (it imports nothing from it — {@code OracleIsolationTest}) so
 * that the engines and core's {@code ReferenceIndex} are checked against something that does not
 * share their URL keys, domains, latest-wins, link dedup or self-link code.
 *
 * <p>Input: page JSON lines only (plain or {@code .gz}), read with Jackson's streaming parser; WAT
 * files are not read (a store holding one is refused, never silently half-read). Malformed lines,
 * lines without a URL or a parseable crawl time, and invalid page URLs are skipped. A version is
 * {@code (crawled, batch, file name, byte offset of the line)}; the greatest wins.
 *
 * <p>Output: the query table as dump lines ({@code bin/webindex dump}: {@code
 * row<TAB>family:qualifier<TAB>value}, counts decoded), in table order.
 */
public final class Oracle {
  private static final JsonFactory JSON = new JsonFactory();
  private static final int MAX_ANCHOR = 512;
  private static final int MAX_TITLE = 1024;

  /** One version of one URL, as read. */
  private record Version(
      Instant crawled,
      long batch,
      String file,
      long offset,
      OracleUrl url,
      boolean deleted,
      String title,
      List<String[]> links) {

    boolean newerThan(Version o) {
      int c = crawled.compareTo(o.crawled);
      if (c == 0) {
        c = Long.compare(batch, o.batch);
      }
      if (c == 0) {
        c = file.compareTo(o.file);
      }
      if (c == 0) {
        c = Long.compare(offset, o.offset);
      }
      return c > 0;
    }
  }

  /** Current version per URI key. */
  private final Map<String, Version> latest = new HashMap<>();

  /** Versions offered (for tests that want to know a stale one was among them). */
  private int offered;

  private int stale;

  private int staleAcrossBatches;

  /** Reads every batch {@code <= snapshot} of a raw page store on the local file system. */
  public static Oracle ofStore(Path root, long snapshot) throws IOException {
    Oracle o = new Oracle();
    o.addStore(root, snapshot);
    return o;
  }

  /** Adds every batch {@code <= snapshot} under {@code <root>/batches/}. */
  public void addStore(Path root, long snapshot) throws IOException {
    List<Path> batches;
    try (Stream<Path> s = Files.list(root.resolve("batches"))) {
      batches = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path b : batches) {
      long seq = Long.parseLong(b.getFileName().toString());
      if (seq > snapshot) {
        continue;
      }
      List<Path> files;
      try (Stream<Path> s = Files.walk(b)) {
        files = s.filter(Files::isRegularFile).filter(f -> !hidden(b, f)).toList();
      }
      for (Path f : files) {
        String name = b.relativize(f).toString().replace('\\', '/');
        addFile(seq, name, Files.readAllBytes(f));
      }
    }
  }

  private static boolean hidden(Path batch, Path file) {
    for (Path p : batch.relativize(file)) {
      String n = p.toString();
      if (n.startsWith("_") || n.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** Adds one input file of batch {@code batch}, named {@code name} within its batch. */
  public void addFile(long batch, String name, byte[] content) throws IOException {
    byte[] data = content;
    if (name.endsWith(".gz")) {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
        data = in.readAllBytes();
      }
    } else if (!name.endsWith(".jsonl") && !name.endsWith(".json")) {
      throw new IllegalArgumentException(
          "the oracle reads page JSON lines only, not " + name + " (batch " + batch + ")");
    }
    int start = 0;
    for (int i = 0; i <= data.length; i++) {
      if (i == data.length || data[i] == '\n') {
        if (i > start) {
          Version v = parseLine(data, start, i - start, batch, name, start);
          if (v != null) {
            offer(v);
          }
        }
        start = i + 1;
      }
    }
  }

  private void offer(Version v) {
    offered++;
    String key = v.url.key();
    Version held = latest.get(key);
    if (held == null || v.newerThan(held)) {
      latest.put(key, v);
    }
    if (held != null && held.newerThan(v)) {
      stale++;
      if (held.batch < v.batch) {
        staleAcrossBatches++;
      }
    }
  }

  /** Number of versions read so far that arrived after a newer version of the same URL. */
  public int staleArrivals() {
    return stale;
  }

  /**
   * Number of versions read so far that arrived in a later batch than a newer version of the same
   * URL: what an engine applying batches in order sees as a stale version (when batches are added
   * in batch order).
   */
  public int staleAcrossBatches() {
    return staleAcrossBatches;
  }

  /** Number of versions read so far. */
  public int versionsRead() {
    return offered;
  }

  private static Version parseLine(
      byte[] data, int from, int len, long batch, String file, long offset) {
    String url = null;
    String crawled = null;
    String title = "";
    boolean deleted = false;
    List<String[]> links = new ArrayList<>();
    try (JsonParser p = JSON.createParser(data, from, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        switch (field) {
          case "url" -> url = t == JsonToken.VALUE_STRING ? p.getText() : null;
          case "crawled" -> crawled = t == JsonToken.VALUE_STRING ? p.getText() : null;
          case "title" -> title = t == JsonToken.VALUE_STRING ? p.getText() : "";
          case "deleted" ->
              deleted =
                  t == JsonToken.VALUE_TRUE
                      || t == JsonToken.VALUE_STRING && p.getText().equalsIgnoreCase("true");
          case "links" -> {
            if (t != JsonToken.START_ARRAY) {
              return null;
            }
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
              if (t == JsonToken.VALUE_STRING) {
                links.add(new String[] {p.getText(), ""});
              } else if (t == JsonToken.START_OBJECT) {
                String lu = null;
                String la = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                  String f = p.currentName();
                  JsonToken ft = p.nextToken();
                  if (ft != JsonToken.VALUE_STRING) {
                    p.skipChildren();
                  } else if (f.equals("url") || f.equals("href")) {
                    lu = p.getText();
                  } else if (f.equals("anchor") || f.equals("text") && la == null) {
                    la = p.getText();
                  }
                }
                links.add(new String[] {lu, la == null ? "" : la});
              } else {
                p.skipChildren();
              }
            }
          }
          default -> p.skipChildren();
        }
      }
    } catch (IOException e) {
      return null; // malformed: skipped
    }
    if (url == null || crawled == null) {
      return null;
    }
    Instant when;
    try {
      when =
          crawled.endsWith("Z")
              ? Instant.parse(crawled)
              : OffsetDateTime.parse(crawled).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
    OracleUrl page;
    try {
      page = OracleUrl.parse(url, null);
    } catch (OracleUrl.Invalid e) {
      return null;
    }
    return new Version(when, batch, file, offset, page, deleted, deleted ? "" : title, links);
  }

  /** A page's links: by target key, first occurrence (and its anchor) wins, self links dropped. */
  private static Map<String, String[]> outlinks(Version v) {
    Map<String, String[]> out = new LinkedHashMap<>();
    String self = v.url.key();
    for (String[] raw : v.links) {
      OracleUrl target;
      try {
        target = OracleUrl.parse(raw[0], v.url);
      } catch (OracleUrl.Invalid e) {
        continue;
      }
      String key = target.key();
      if (key.equals(self) || out.containsKey(key)) {
        continue;
      }
      out.put(key, new String[] {target.toString(), clean(raw[1], MAX_ANCHOR)});
    }
    return out;
  }

  /** Control characters dropped, white space folded to one space, trimmed, cut to {@code max}. */
  static String clean(String s, int max) {
    StringBuilder sb = new StringBuilder();
    boolean space = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        space = true;
      } else if (!Character.isISOControl(c)) {
        if (space && sb.length() > 0) {
          sb.append(' ');
        }
        space = false;
        sb.append(c);
      }
    }
    String r = sb.length() > max ? sb.substring(0, max) : sb.toString();
    if (!r.isEmpty() && Character.isHighSurrogate(r.charAt(r.length() - 1))) {
      r = r.substring(0, r.length() - 1);
    }
    return r.strip();
  }

  /** The registrable domain of a URI's host, reversed; an IP host is its own domain. */
  static String domain(OracleUrl u) {
    if (u.ipHost()) {
      return u.host();
    }
    String[] labels = PublicSuffixes.registrable(u.host()).split("\\.");
    StringBuilder sb = new StringBuilder();
    for (int i = labels.length - 1; i >= 0; i--) {
      sb.append(labels[i]).append(i > 0 ? "." : "");
    }
    return sb.toString();
  }

  /** 16 hex digits of Long.MAX_VALUE - n: the table's sort order for counts. */
  private static String sortable(long n) {
    return String.format("%016x", Long.MAX_VALUE - n);
  }

  /** The query table as dump lines, in table order. */
  public List<String> dump() {
    // a cell: sort key (row, family, qualifier with encoded counts) -> printed line
    TreeMap<List<String>, String> cells = new TreeMap<>(Oracle::compareKeys);
    Map<String, Long> urc = new HashMap<>();
    Map<String, OracleUrl> urls = new HashMap<>();
    for (Version v : latest.values()) {
      if (v.deleted) {
        continue;
      }
      String key = v.url.key();
      urls.put(key, v.url);
      urc.putIfAbsent(key, 0L);
      Map<String, String[]> links = outlinks(v);
      for (Map.Entry<String, String[]> l : links.entrySet()) {
        urc.merge(l.getKey(), 1L, Long::sum);
        urls.putIfAbsent(l.getKey(), parseOrFail(l.getValue()[0]));
        cells.put(
            List.of("p:" + l.getKey(), "inlinks", key),
            line("p:" + l.getKey(), "inlinks:" + key, l.getValue()[1]));
      }
      cells.put(List.of("p:" + key, "page", "cur"), line("p:" + key, "page:cur", json(v, links)));
    }
    Map<String, Long> pagecount = new TreeMap<>();
    for (Map.Entry<String, Long> e : urc.entrySet()) {
      String key = e.getKey();
      long n = e.getValue();
      String d = domain(urls.get(key));
      pagecount.merge(d, 1L, Long::sum);
      cells.put(List.of("p:" + key, "page", "incount"), line("p:" + key, "page:incount", "" + n));
      cells.put(
          List.of("t:" + sortable(n) + ":" + key, "", ""), line("t:" + n + ":" + key, ":", "" + n));
      cells.put(
          List.of("d:" + d, "rank", sortable(n) + ":" + key),
          line("d:" + d, "rank:" + n + ":" + key, "" + n));
    }
    for (Map.Entry<String, Long> e : pagecount.entrySet()) {
      cells.put(
          List.of("d:" + e.getKey(), "domain", "pagecount"),
          line("d:" + e.getKey(), "domain:pagecount", "" + e.getValue()));
    }
    return new ArrayList<>(cells.values());
  }

  private static OracleUrl parseOrFail(String normalised) {
    try {
      return OracleUrl.parse(normalised, null);
    } catch (OracleUrl.Invalid e) {
      throw new IllegalStateException(normalised, e);
    }
  }

  private static int compareKeys(List<String> a, List<String> b) {
    for (int i = 0; i < 3; i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static String json(Version v, Map<String, String[]> links) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeStringField("url", v.url.toString());
      g.writeStringField("crawled", v.crawled.toString());
      g.writeStringField("title", clean(v.title, MAX_TITLE));
      g.writeNumberField("outlinkcount", links.size());
      g.writeArrayFieldStart("outlinks");
      for (String[] l : links.values()) {
        g.writeStartObject();
        g.writeStringField("url", l[0]);
        g.writeStringField("anchor", l[1]);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /** One dump line; a backslash that would read back as an escape is doubled (docs/tables.md). */
  private static String line(String row, String column, String value) {
    return escape(row) + "\t" + escape(column) + "\t" + escape(value);
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
      switch (c) {
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\\' -> sb.append("tnr\\\t\n\r".indexOf(next) >= 0 && next != 0 ? "\\\\" : "\\");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
