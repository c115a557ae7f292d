package io.webindex.core.read;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads Common Crawl WAT files: WARC records whose {@code metadata} records carry JSON. A page is a
 * metadata record with an HTML response: URL {@code WARC-Target-URI}, crawl time {@code WARC-Date},
 * links from {@code Envelope.Payload-Metadata.HTTP-Response-Metadata.HTML-Metadata.Links} with path
 * {@code A@/href} (anchor from {@code text}, else {@code title}, else empty), title from {@code
 * Head.Title}, relative links resolved against {@code Head.Base} or else the page URL; the
 * signature from {@code Envelope.Payload-Metadata.HTTP-Response-Metadata.Entity-Digest}, else
 * {@code Envelope.WARC-Header-Metadata.WARC-Payload-Digest} (both the response record's, normalised
 * by {@link io.webindex.core.history.Signatures}), else the content signature. Other records are
 * skipped and counted. Offsets are record starts in the uncompressed stream.
 *
 * <p>Damage never costs more than the damaged record:
 *
 * <ul>
 *   <li>garbage between records is one {@code MALFORMED_WARC} reject, and reading resumes at the
 *       next {@code WARC/<version>} line, even one glued to the garbage;
 *   <li>a bad header block (no {@code Content-Length}, a line without ':', cut short by the next
 *       {@code WARC/} line) is rejected and reading resumes at the next record;
 *   <li>a record is only taken when its content is followed by its blank-line trailer and then the
 *       next record or the end of the input. A truncated record, whose {@code Content-Length} runs
 *       into the records after it, is rejected and those records are read again from where the
 *       first of them starts inside its content (records up to {@code maxRecordBytes} are buffered;
 *       an oversized one is skipped unread, so a truncated oversized record also loses the records
 *       inside its claimed length).
 * </ul>
 *
 * <p>The metadata JSON is read as a stream: only the fields above are kept, and a page is rejected
 * as {@code OVERSIZED} at its link {@code maxLinks + 1}, before the rest is read.
 */
public final class WatReader implements PageReader {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final int MAX_HEADER_LINE = 64 * 1024;
  private static final int MAX_HEADERS = 256;

  /** CR/LF bytes looked at after a record's content for its trailer. */
  private static final int MAX_TRAILER = 4096;

  private static final byte[] WARC = {'W', 'A', 'R', 'C', '/'};

  /** Longest version line {@code WARC/ddd.ddd\r\n}. */
  private static final int VERSION_LOOK = 15;

  private final String file;
  private final long batch;
  private final ReadLimits limits;
  private final ReadStats stats;

  public WatReader(String file, long batch, ReadLimits limits, ReadStats stats) {
    this.file = file;
    this.batch = batch;
    this.limits = limits;
    this.stats = stats;
  }

  @Override
  public void read(InputStream in, PageSink sink) throws IOException {
    ByteLineReader r = new ByteLineReader(in);
    while (true) {
      int n = r.peek(Reject.MAX_EXCERPT);
      if (n == 0) {
        return;
      }
      if (r.peekByte(0) == '\r' || r.peekByte(0) == '\n') {
        r.skip(1); // blank lines between records
        continue;
      }
      if (startsWithWarc(r)) {
        r.nextLine(MAX_HEADER_LINE);
        if (!record(r, sink)) {
          return;
        }
        continue;
      }
      // garbage between records: one reject for the whole run, then resynchronise on the next
      // version line, wherever it starts
      byte[] head = new byte[n];
      for (int i = 0; i < n; i++) {
        head[i] = (byte) r.peekByte(i);
      }
      stats.inc(ReadCounter.RECORDS);
      stats.reject(RejectReason.MALFORMED_WARC);
      sink.reject(
          Reject.of(
              file,
              r.position(),
              RejectReason.MALFORMED_WARC,
              "expected a WARC/ version line",
              head,
              n));
      r.skip(1);
      if (!seekVersion(r)) {
        return;
      }
    }
  }

  /**
   * Reads one record whose version line was just read.
   *
   * @return false when the input has ended
   */
  private boolean record(ByteLineReader r, PageSink sink) throws IOException {
    long recordStart = r.lineStart();
    stats.inc(ReadCounter.RECORDS);
    Map<String, String> headers = new LinkedHashMap<>();
    String bad = null;
    while (true) {
      if (startsWithWarc(r)) {
        bad = "header block cut short by the next record";
        break;
      }
      if (!r.nextLine(MAX_HEADER_LINE)) {
        bad = "input ends in the header block";
        break;
      }
      if (r.lineLength() == 0 && !r.lineTooLong()) {
        break;
      }
      if (r.lineTooLong() || headers.size() >= MAX_HEADERS) {
        bad = "bad WARC header";
        break;
      }
      String h = new String(r.line(), 0, r.lineLength(), StandardCharsets.UTF_8);
      int colon = h.indexOf(':');
      if (colon <= 0) {
        bad = "bad WARC header";
        break;
      }
      headers.put(
          h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
    }
    long length = parseLength(headers.get("content-length"));
    if (bad == null && length < 0) {
      bad = "missing or bad Content-Length";
    }
    if (bad != null) {
      rejectAt(sink, recordStart, RejectReason.MALFORMED_WARC, bad, headers);
      return seekVersion(r);
    }
    boolean metadata = headers.getOrDefault("warc-type", "").equalsIgnoreCase("metadata");
    if (length > limits.maxRecordBytes()) {
      if (!r.skip(length)) {
        rejectAt(sink, recordStart, RejectReason.MALFORMED_WARC, "truncated record", headers);
        return false;
      }
      if (metadata) {
        rejectAt(
            sink,
            recordStart,
            RejectReason.OVERSIZED,
            length + " bytes, more than " + limits.maxRecordBytes(),
            headers);
      } else {
        stats.inc(ReadCounter.SKIPPED_NOT_PAGE);
      }
      return true;
    }
    int n = (int) length;
    int got = r.readData(n);
    byte[] content = r.data();
    boolean complete = got == n;
    if (!complete || !trailerFollows(r)) {
      int next = versionIn(content, got);
      if (next >= 0) {
        rejectAt(
            sink,
            recordStart,
            RejectReason.MALFORMED_WARC,
            "truncated record: the next record starts at byte " + next + " of its content",
            headers);
        r.unread(content, next, got - next);
        return true;
      }
      if (!complete) {
        rejectAt(sink, recordStart, RejectReason.MALFORMED_WARC, "truncated record", headers);
        return false;
      }
      // complete by its Content-Length: taken; what follows it is garbage to the next record
    }
    if (metadata) {
      metadataRecord(recordStart, headers, content, n, sink);
    } else {
      stats.inc(ReadCounter.SKIPPED_NOT_PAGE);
    }
    return true;
  }

  /** Whether the unread bytes start with {@code WARC/}. */
  private static boolean startsWithWarc(ByteLineReader r) throws IOException {
    int n = r.peek(WARC.length);
    if (n < WARC.length) {
      return false;
    }
    for (int i = 0; i < WARC.length; i++) {
      if (r.peekByte(i) != WARC[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * After a record's content: blank lines, then the next record ({@code WARC/}) or the end of the
   * input. Nothing is consumed.
   */
  private static boolean trailerFollows(ByteLineReader r) throws IOException {
    int n = r.peek(MAX_TRAILER + VERSION_LOOK);
    int i = 0;
    while (i < n && (r.peekByte(i) == '\r' || r.peekByte(i) == '\n')) {
      i++;
    }
    if (i == n) {
      return true; // the end of the input, or more blank lines than we look at
    }
    if (n - i < WARC.length) {
      return false;
    }
    for (int k = 0; k < WARC.length; k++) {
      if (r.peekByte(i + k) != WARC[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Skips to the next {@code WARC/<digits>.<digits>} line break, wherever it starts (also in the
   * middle of a damaged line).
   *
   * @return whether one was found
   */
  private static boolean seekVersion(ByteLineReader r) throws IOException {
    while (r.skipUntil((byte) 'W')) {
      int n = r.peek(VERSION_LOOK);
      int[] look = new int[n];
      for (int i = 0; i < n; i++) {
        look[i] = r.peekByte(i);
      }
      if (versionAt(look, 0, n, n < VERSION_LOOK)) {
        return true;
      }
      r.skip(1);
    }
    return false;
  }

  /**
   * The first {@code WARC/<digits>.<digits>} followed by a line break in {@code b[0, len)}, or one
   * cut off by the end of {@code b} (the rest is still unread); -1 when there is none.
   */
  static int versionIn(byte[] b, int len) {
    int[] look = new int[VERSION_LOOK];
    for (int i = 0; i < len; i++) {
      if (b[i] != 'W') {
        continue;
      }
      int n = Math.min(VERSION_LOOK, len - i);
      for (int k = 0; k < n; k++) {
        look[k] = b[i + k] & 0xff;
      }
      if (versionAt(look, 0, n, false) || (n < VERSION_LOOK && isPrefixOfVersion(look, n))) {
        return i;
      }
    }
    return -1;
  }

  /** {@code WARC/<1-3 digits>.<1-3 digits>} then {@code \r\n}, {@code \n}, or the end of input. */
  private static boolean versionAt(int[] b, int from, int n, boolean endOfInput) {
    int i = from;
    for (byte w : WARC) {
      if (i >= n || b[i++] != w) {
        return false;
      }
    }
    int d = 0;
    while (i < n && isDigit(b[i]) && d < 3) {
      i++;
      d++;
    }
    if (d == 0 || i >= n || b[i++] != '.') {
      return false;
    }
    d = 0;
    while (i < n && isDigit(b[i]) && d < 3) {
      i++;
      d++;
    }
    if (d == 0) {
      return false;
    }
    if (i >= n) {
      return endOfInput;
    }
    return b[i] == '\n' || (b[i] == '\r' && (i + 1 >= n ? endOfInput : b[i + 1] == '\n'));
  }

  /** Whether {@code b[0, n)} could begin a version line (it was cut off by the end of a buffer). */
  private static boolean isPrefixOfVersion(int[] b, int n) {
    int i = 0;
    for (byte w : WARC) {
      if (i >= n) {
        return true;
      }
      if (b[i++] != w) {
        return false;
      }
    }
    int state = 0; // 0 major digits, 1 minor digits, 2 after '\r'
    int digits = 0;
    for (; i < n; i++) {
      int c = b[i];
      if (state == 0) {
        if (isDigit(c) && digits < 3) {
          digits++;
        } else if (c == '.' && digits > 0) {
          state = 1;
          digits = 0;
        } else {
          return false;
        }
      } else if (state == 1) {
        if (isDigit(c) && digits < 3) {
          digits++;
        } else if (c == '\r' && digits > 0) {
          state = 2;
        } else {
          return false;
        }
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static long parseLength(String v) {
    if (v == null
        || v.isEmpty()
        || v.length() > 18
        || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    return Long.parseLong(v);
  }

  private void rejectAt(
      PageSink sink, long offset, RejectReason reason, String detail, Map<String, String> headers) {
    stats.reject(reason);
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (sb.length() > Reject.MAX_EXCERPT) {
        break;
      }
      sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(e.getValue());
    }
    byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
    sink.reject(Reject.of(file, offset, reason, detail, head, head.length));
  }

  /** The fields of a WAT metadata record's JSON that make a page. */
  private static final class WatJson {
    boolean html;
    String targetUri;
    String date;
    String title = "";
    String base;
    String entityDigest;
    String payloadDigest;
    final List<RawPage.RawLink> links = new ArrayList<>();
  }

  private void metadataRecord(
      long offset, Map<String, String> headers, byte[] content, int len, PageSink sink) {
    String contentType = headers.getOrDefault("content-type", "").toLowerCase(Locale.ROOT);
    if (!contentType.contains("json") && !(len > 0 && content[0] == '{')) {
      stats.inc(ReadCounter.SKIPPED_NOT_PAGE);
      return;
    }
    WatJson json = new WatJson();
    try (JsonParser p = FACTORY.createParser(content, 0, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new RawPage.RejectException(
            RejectReason.MALFORMED_JSON, "metadata is not a JSON object");
      }
      readRoot(p, json);
      if (!json.html) {
        stats.inc(ReadCounter.SKIPPED_NOT_HTML);
        return;
      }
      String target = headers.getOrDefault("warc-target-uri", json.targetUri);
      String date = headers.getOrDefault("warc-date", json.date);
      WebUrl url = RawPage.pageUrl(target);
      Instant crawled = RawPage.requireCrawlTime(date, "WARC-Date");
      WebUrl base = url;
      if (json.base != null && !json.base.isBlank()) {
        try {
          base = WebUrl.parse(HtmlEntities.decodeAttribute(json.base), url);
        } catch (InvalidUrlException e) {
          base = url;
        }
      }
      PageVersion version = new PageVersion(crawled, batch, file, offset);
      Page page =
          RawPage.build(
              url,
              base,
              crawled,
              HtmlEntities.decode(json.title),
              json.links,
              false,
              version,
              json.entityDigest != null ? json.entityDigest : json.payloadDigest,
              limits,
              stats);
      stats.inc(ReadCounter.PAGES);
      sink.page(page);
    } catch (RawPage.RejectException e) {
      reject(sink, offset, e.reason, e.getMessage(), content, len);
    } catch (CharConversionException e) {
      reject(sink, offset, RejectReason.BAD_ENCODING, e.getMessage(), content, len);
    } catch (JsonProcessingException e) {
      String m = e.getOriginalMessage();
      reject(
          sink,
          offset,
          m != null && m.contains("UTF-8")
              ? RejectReason.BAD_ENCODING
              : RejectReason.MALFORMED_JSON,
          m,
          content,
          len);
    } catch (IOException | RuntimeException e) {
      reject(
          sink, offset, RejectReason.MALFORMED_JSON, String.valueOf(e.getMessage()), content, len);
    }
  }

  // ---- the streaming walk of the metadata JSON: known paths are descended, the rest skipped

  private void readRoot(JsonParser p, WatJson json) throws IOException, RawPage.RejectException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      if (p.nextToken() == JsonToken.START_OBJECT && name.equals("Envelope")) {
        readEnvelope(p, json);
      } else {
        p.skipChildren();
      }
    }
  }

  private void readEnvelope(JsonParser p, WatJson json)
      throws IOException, RawPage.RejectException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.START_OBJECT && name.equals("WARC-Header-Metadata")) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String h = p.currentName();
          JsonToken hv = p.nextToken();
          switch (h) {
            case "WARC-Target-URI" -> json.targetUri = text(p, hv);
            case "WARC-Date" -> json.date = text(p, hv);
            case "WARC-Payload-Digest" -> json.payloadDigest = text(p, hv);
            default -> p.skipChildren();
          }
        }
      } else if (v == JsonToken.START_OBJECT && name.equals("Payload-Metadata")) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String h = p.currentName();
          if (p.nextToken() == JsonToken.START_OBJECT && h.equals("HTTP-Response-Metadata")) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String m = p.currentName();
              JsonToken mv = p.nextToken();
              if (mv == JsonToken.START_OBJECT && m.equals("HTML-Metadata")) {
                json.html = true;
                readHtml(p, json);
              } else if (m.equals("Entity-Digest")) {
                json.entityDigest = text(p, mv);
              } else {
                p.skipChildren();
              }
            }
          } else {
            p.skipChildren();
          }
        }
      } else {
        p.skipChildren();
      }
    }
  }

  private void readHtml(JsonParser p, WatJson json) throws IOException, RawPage.RejectException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.START_OBJECT && name.equals("Head")) {
        readHead(p, json);
      } else if (v == JsonToken.START_ARRAY && name.equals("Links")) {
        readLinks(p, json);
      } else {
        p.skipChildren();
      }
    }
  }

  private static void readHead(JsonParser p, WatJson json) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (name.equals("Title")) {
        json.title = v == JsonToken.VALUE_STRING ? p.getText() : "";
        p.skipChildren();
      } else if (name.equals("Base") && v == JsonToken.START_OBJECT) {
        String href = null;
        String url = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String f = p.currentName();
          JsonToken fv = p.nextToken();
          switch (f) {
            case "href" -> href = text(p, fv);
            case "url" -> url = text(p, fv);
            default -> p.skipChildren();
          }
        }
        json.base = href != null ? href : url;
      } else if (name.equals("Base")) {
        json.base = text(p, v);
      } else {
        p.skipChildren();
      }
    }
  }

  private void readLinks(JsonParser p, WatJson json) throws IOException, RawPage.RejectException {
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
      if (t != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      String path = null;
      String url = null;
      String href = null;
      String text = null;
      String title = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        JsonToken fv = p.nextToken();
        switch (f) {
          case "path" -> path = text(p, fv);
          case "url" -> url = text(p, fv);
          case "href" -> href = text(p, fv);
          case "text" -> text = text(p, fv);
          case "title" -> title = text(p, fv);
          default -> p.skipChildren();
        }
      }
      if (!"A@/href".equals(path)) {
        continue;
      }
      if (json.links.size() >= limits.maxLinks()) {
        throw new RawPage.RejectException(
            RejectReason.OVERSIZED, "more than " + limits.maxLinks() + " links");
      }
      String u = url != null ? url : href;
      // the anchor text is text; a title is an attribute value, like the URL
      String anchor =
          text != null
              ? HtmlEntities.decode(text)
              : title != null ? HtmlEntities.decodeAttribute(title) : "";
      json.links.add(new RawPage.RawLink(HtmlEntities.decodeAttribute(u), anchor));
    }
  }

  /** A scalar's text; null for JSON null, objects and arrays (which are skipped). */
  private static String text(JsonParser p, JsonToken v) throws IOException {
    if (v != null && v.isScalarValue() && v != JsonToken.VALUE_NULL) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }

  private void reject(
      PageSink sink, long offset, RejectReason reason, String detail, byte[] content, int len) {
    stats.reject(reason);
    sink.reject(Reject.of(file, offset, reason, detail, content, Math.min(len, content.length)));
  }
}
