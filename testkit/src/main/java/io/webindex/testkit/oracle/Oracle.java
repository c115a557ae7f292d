package io.webindex.testkit.oracle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * An independent oracle of the query table (docs/semantics.md, docs/tables.md), for tests: the
 * naive recomputation, written apart from {@code io.webindex.core} (it imports nothing from it —
 * {@code OracleIsolationTest}) so that the engines and core's {@code ReferenceIndex} are checked
 * against something that does not share their URL keys, domains, latest-wins, link dedup or
 * self-link code.
 *
 * <p>Input: page JSON lines only (plain or {@code .gz}), each line read whole into a Jackson tree
 * ({@code ObjectMapper.readTree}); WAT files are not read (a store holding one is refused, never
 * silently half-read). Malformed lines, lines without a URL or a parseable crawl time, lines whose
 * {@code links} is neither a list nor null, and invalid page URLs are skipped; a link that is
 * neither a string nor an object is ignored. A version is {@code (crawled, batch, file name, byte
 * offset of the line)}; the greatest wins.
 *
 * <p>Output: the query table as dump lines ({@code bin/webindex dump}: {@code
 * row<TAB>family:qualifier<TAB>value}, counts decoded), in table order.
 */
public final class Oracle {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A backslash followed by what would make it read back as an escape in a dump. */
  private static final Pattern ESCAPE_LIKE = Pattern.compile("\\\\(?=[tnr\\\\\t\n\r])");

  private static final int MAX_ANCHOR = 512;
  private static final int MAX_TITLE = 1024;

  /** One version of one URL, as read. */
  record Version(
      Instant crawled,
      long batch,
      String file,
      long offset,
      OracleUrl url,
      boolean deleted,
      String title,
      List<String[]> links,
      String digest) {

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

  /** Every version read, per URI key (for the crawl history). */
  private final Map<String, List<Version>> all = new HashMap<>();

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
    all.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
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
    JsonNode page;
    try {
      page = MAPPER.readTree(data, from, len);
    } catch (IOException e) {
      return null; // malformed: skipped
    }
    if (page == null || !page.isObject()) {
      return null;
    }
    String url = text(page.get("url"), null);
    String crawled = text(page.get("crawled"), null);
    if (url == null || crawled == null) {
      return null;
    }
    JsonNode del = page.get("deleted");
    boolean deleted =
        del != null
            && (del.isBoolean() && del.booleanValue()
                || del.isTextual() && del.textValue().equalsIgnoreCase("true"));
    List<String[]> links = new ArrayList<>();
    JsonNode array = page.get("links");
    if (array != null && !array.isNull()) {
      if (!array.isArray()) {
        return null; // "links" that is not a list: a malformed page
      }
      for (JsonNode link : array) {
        if (link.isTextual()) {
          links.add(new String[] {link.textValue(), ""});
        } else if (link.isObject()) {
          links.add(linkObject(link));
        }
      }
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
    OracleUrl pageUrl;
    try {
      pageUrl = OracleUrl.parse(url, null);
    } catch (OracleUrl.Invalid e) {
      return null;
    }
    String title = deleted ? "" : text(page.get("title"), "");
    // a digest that is not a string is no usable digest: "?" (the history falls back to content)
    JsonNode d = page.get("digest");
    String digest = d == null || d.isNull() ? null : d.isTextual() ? d.textValue() : "?";
    return new Version(when, batch, file, offset, pageUrl, deleted, title, links, digest);
  }

  /** A string field's text, else {@code otherwise}. */
  private static String text(JsonNode field, String otherwise) {
    return field != null && field.isTextual() ? field.textValue() : otherwise;
  }

  /**
   * A link object: its target from {@code url} or {@code href} (the later field when both are
   * there), its anchor from {@code anchor}, else from the first {@code text}.
   */
  private static String[] linkObject(JsonNode link) {
    String target = null;
    String anchor = null;
    String firstText = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = link.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      String value = text(f.getValue(), null);
      if (value == null) {
        continue;
      }
      if (f.getKey().equals("url") || f.getKey().equals("href")) {
        target = value;
      } else if (f.getKey().equals("anchor")) {
        anchor = value;
      } else if (f.getKey().equals("text") && firstText == null) {
        firstText = value;
      }
    }
    String a = anchor != null ? anchor : firstText;
    return new String[] {target, a == null ? "" : a};
  }

  /** A page's links: by target key, first occurrence (and its anchor) wins, self links dropped. */
  static Map<String, String[]> outlinks(Version v) {
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

  /** Every version read, per URI key. */
  Map<String, List<Version>> allVersions() {
    return all;
  }

  /** The urc of every seen URI (a current page, or linked to by one). */
  Map<String, Long> urcOfSeen() {
    Map<String, Long> urc = new HashMap<>();
    for (Version v : latest.values()) {
      if (v.deleted) {
        continue;
      }
      urc.putIfAbsent(v.url.key(), 0L);
      for (String target : outlinks(v).keySet()) {
        urc.merge(target, 1L, Long::sum);
      }
    }
    return urc;
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

  /** The {@code page:cur} value: a JSON object with its fields in the order of docs/tables.md. */
  private static String json(Version v, Map<String, String[]> links) {
    ObjectNode page = MAPPER.createObjectNode();
    page.put("url", v.url.toString());
    page.put("crawled", v.crawled.toString());
    page.put("title", clean(v.title, MAX_TITLE));
    page.put("outlinkcount", links.size());
    ArrayNode out = page.putArray("outlinks");
    for (String[] l : links.values()) {
      out.addObject().put("url", l[0]).put("anchor", l[1]);
    }
    try {
      return MAPPER.writeValueAsString(page);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always writes", e);
    }
  }

  /**
   * One dump line (docs/tables.md): tab, newline and carriage return written as {@code \t \n \r}; a
   * backslash that would read back as one of those escapes (one followed by {@code t n r}, a
   * backslash, a tab, a newline or a carriage return) doubled; every other backslash as it is.
   */
  private static String line(String row, String column, String value) {
    return escape(row) + "\t" + escape(column) + "\t" + escape(value);
  }

  static String escape(String s) {
    String doubled = ESCAPE_LIKE.matcher(s).replaceAll(Matcher.quoteReplacement("\\\\"));
    return doubled.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }
}
