package io.webindex.core.read;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.url.WebUrl;
import java.io.CharConversionException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses one line of page JSON (docs/input.md):
 *
 * <pre>
 * {"url": "http://a.com/page1", "crawled": "2026-11-20T10:00:00Z", "title": "…",
 *  "links": [{"url": "http://c.com", "anchor": "C"}, …]}
 * {"url": "http://a.com/page1", "crawled": "…", "deleted": true}
 * </pre>
 *
 * A link may also be a plain URL string; {@code text} is accepted for {@code anchor} and {@code
 * href} for a link's {@code url}. Unknown fields are ignored. The MapReduce input and the streaming
 * {@link JsonLinesReader} both call {@link #parse}, so offsets and outcomes are identical.
 */
public final class JsonLinesParser {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final String file;
  private final long batch;
  private final ReadLimits limits;
  private final ReadStats stats;

  public JsonLinesParser(String file, long batch, ReadLimits limits, ReadStats stats) {
    this.file = file;
    this.batch = batch;
    this.limits = limits;
    this.stats = stats;
  }

  /** Parses {@code len} bytes of one line that starts at byte {@code offset} of the file. */
  public void parse(byte[] buf, int start, int len, long offset, PageSink sink) {
    int from = start;
    int to = start + len;
    if (to - from >= 3
        && (buf[from] & 0xff) == 0xEF
        && (buf[from + 1] & 0xff) == 0xBB
        && (buf[from + 2] & 0xff) == 0xBF) {
      from += 3; // byte order mark
    }
    while (from < to && isBlank(buf[from])) {
      from++;
    }
    while (to > from && isBlank(buf[to - 1])) {
      to--;
    }
    if (from == to) {
      stats.inc(ReadCounter.BLANK_LINES);
      return;
    }
    stats.inc(ReadCounter.RECORDS);
    if (len > limits.maxRecordBytes()) {
      reject(
          sink,
          offset,
          RejectReason.OVERSIZED,
          len + " bytes, more than " + limits.maxRecordBytes(),
          buf,
          start,
          len);
      return;
    }
    try {
      Page page = parseObject(buf, from, to - from, offset);
      stats.inc(ReadCounter.PAGES);
      if (page.deleted()) {
        stats.inc(ReadCounter.DELETIONS);
      }
      sink.page(page);
    } catch (RawPage.RejectException e) {
      reject(sink, offset, e.reason, e.getMessage(), buf, from, to - from);
    } catch (CharConversionException e) {
      reject(sink, offset, RejectReason.BAD_ENCODING, e.getMessage(), buf, from, to - from);
    } catch (JsonProcessingException e) {
      RejectReason r =
          e.getOriginalMessage() != null && e.getOriginalMessage().contains("UTF-8")
              ? RejectReason.BAD_ENCODING
              : RejectReason.MALFORMED_JSON;
      reject(sink, offset, r, e.getOriginalMessage(), buf, from, to - from);
    } catch (IOException | RuntimeException e) {
      reject(
          sink,
          offset,
          RejectReason.MALFORMED_JSON,
          String.valueOf(e.getMessage()),
          buf,
          from,
          to - from);
    }
  }

  /**
   * Rejects a line of {@code bytes} bytes, more than the limit, of which only the head was kept:
   * the reader skipped the rest without buffering it.
   */
  public void oversized(byte[] head, int headLen, long bytes, long offset, PageSink sink) {
    stats.inc(ReadCounter.RECORDS);
    reject(
        sink,
        offset,
        RejectReason.OVERSIZED,
        bytes + " bytes, more than " + limits.maxRecordBytes(),
        head,
        0,
        headLen);
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }

  private void reject(
      PageSink sink,
      long offset,
      RejectReason reason,
      String detail,
      byte[] buf,
      int from,
      int len) {
    stats.reject(reason);
    byte[] head = Arrays.copyOfRange(buf, from, from + Math.min(len, Reject.MAX_EXCERPT));
    sink.reject(Reject.of(file, offset, reason, detail, head, head.length));
  }

  private Page parseObject(byte[] buf, int from, int len, long offset)
      throws IOException, RawPage.RejectException {
    String url = null;
    String crawled = null;
    String title = "";
    boolean deleted = false;
    String digest = null;
    List<RawPage.RawLink> links = new ArrayList<>();
    try (JsonParser p = FACTORY.createParser(buf, from, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new RawPage.RejectException(
            RejectReason.MALFORMED_JSON, "a page line is a JSON object");
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "url" -> url = scalar(p, v, "url");
          case "crawled" -> crawled = scalar(p, v, "crawled");
          case "title" -> title = v == JsonToken.VALUE_NULL ? "" : scalar(p, v, "title");
          case "deleted" ->
              deleted =
                  v == JsonToken.VALUE_TRUE
                      || (v == JsonToken.VALUE_STRING && "true".equalsIgnoreCase(p.getText()));
          case "links" -> readLinks(p, v, links, limits.maxLinks());
          case "digest" -> digest = RawPage.digestText(p, v);
          default -> p.skipChildren();
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new RawPage.RejectException(RejectReason.MALFORMED_JSON, "unterminated object");
      }
      if (p.nextToken() != null) {
        throw new RawPage.RejectException(RejectReason.MALFORMED_JSON, "content after the object");
      }
    }
    WebUrl pageUrl = RawPage.pageUrl(url);
    Instant when = RawPage.requireCrawlTime(crawled, "crawled");
    PageVersion version = new PageVersion(when, batch, file, offset);
    if (deleted) {
      return Page.deletion(pageUrl.toString(), pageUrl.key(), version);
    }
    return RawPage.build(
        pageUrl, pageUrl, when, title, links, true, version, digest, limits, stats);
  }

  private static String scalar(JsonParser p, JsonToken v, String field)
      throws IOException, RawPage.RejectException {
    if (v == JsonToken.VALUE_STRING
        || v == JsonToken.VALUE_NUMBER_INT
        || v == JsonToken.VALUE_NUMBER_FLOAT) {
      return p.getText();
    }
    if (v == JsonToken.VALUE_NULL) {
      return null;
    }
    p.skipChildren();
    throw new RawPage.RejectException(
        RejectReason.MALFORMED_JSON, "'" + field + "' is not a string");
  }

  /**
   * Reads the links array, stopping at the first link over {@code maxLinks}: a page with more links
   * is rejected while its array streams by, before the rest of it is read or built.
   */
  private static void readLinks(
      JsonParser p, JsonToken v, List<RawPage.RawLink> links, int maxLinks)
      throws IOException, RawPage.RejectException {
    if (v == JsonToken.VALUE_NULL) {
      return;
    }
    if (v != JsonToken.START_ARRAY) {
      p.skipChildren();
      throw new RawPage.RejectException(RejectReason.MALFORMED_JSON, "'links' is not an array");
    }
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != null && links.size() >= maxLinks) {
        throw new RawPage.RejectException(
            RejectReason.OVERSIZED, "more than " + maxLinks + " links");
      }
      if (t == JsonToken.VALUE_STRING) {
        links.add(new RawPage.RawLink(p.getText(), ""));
      } else if (t == JsonToken.START_OBJECT) {
        String u = null;
        String a = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String f = p.currentName();
          JsonToken fv = p.nextToken();
          boolean text = fv == JsonToken.VALUE_STRING;
          switch (f) {
            case "url", "href" -> u = text ? p.getText() : u;
            case "anchor" -> a = text ? p.getText() : a;
            case "text" -> a = a == null && text ? p.getText() : a;
            default -> p.skipChildren();
          }
        }
        links.add(new RawPage.RawLink(u, a == null ? "" : a));
      } else if (t == null) {
        throw new RawPage.RejectException(RejectReason.MALFORMED_JSON, "unterminated links");
      } else {
        p.skipChildren(); // a number or null in the links array: an invalid link
        links.add(new RawPage.RawLink(null, ""));
      }
    }
  }
}
