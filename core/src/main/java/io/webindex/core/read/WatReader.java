package io.webindex.core.read;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads Common Crawl WAT files: WARC records whose {@code metadata} records carry JSON. A page is a
 * metadata record with an HTML response: URL {@code WARC-Target-URI}, crawl time {@code WARC-Date},
 * links from {@code Envelope.Payload-Metadata.HTTP-Response-Metadata.HTML-Metadata.Links} with path
 * {@code A@/href} (anchor from {@code text}, else {@code title}, else empty), title from {@code
 * Head.Title}, relative links resolved against {@code Head.Base} or else the page URL. Other
 * records are skipped and counted. Damaged records are rejected and the reader resynchronises on
 * the next {@code WARC/} line. Offsets are record starts in the uncompressed stream.
 */
public final class WatReader implements PageReader {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_HEADER_LINE = 64 * 1024;
  private static final int MAX_HEADERS = 256;

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
    boolean haveLine = r.nextLine(MAX_HEADER_LINE);
    while (haveLine) {
      if (r.lineLength() == 0) {
        haveLine = r.nextLine(MAX_HEADER_LINE);
        continue;
      }
      if (!isVersionLine(r)) {
        // garbage between records: one reject for the whole run, then resynchronise
        long at = r.lineStart();
        byte[] head = Arrays.copyOf(r.line(), r.lineLength());
        stats.inc(ReadCounter.RECORDS);
        stats.reject(RejectReason.MALFORMED_WARC);
        sink.reject(
            Reject.of(
                file,
                at,
                RejectReason.MALFORMED_WARC,
                "expected a WARC/ version line",
                head,
                head.length));
        do {
          haveLine = r.nextLine(MAX_HEADER_LINE);
        } while (haveLine && !isVersionLine(r));
        continue;
      }
      long recordStart = r.lineStart();
      stats.inc(ReadCounter.RECORDS);
      Map<String, String> headers = new LinkedHashMap<>();
      boolean ended = false;
      boolean bad = false;
      while (true) {
        if (!r.nextLine(MAX_HEADER_LINE)) {
          ended = true;
          break;
        }
        if (r.lineLength() == 0) {
          break;
        }
        if (r.lineTooLong() || headers.size() >= MAX_HEADERS || isVersionLine(r)) {
          bad = true;
          break;
        }
        String h = new String(r.line(), 0, r.lineLength(), StandardCharsets.UTF_8);
        int colon = h.indexOf(':');
        if (colon <= 0) {
          bad = true;
          break;
        }
        headers.put(
            h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
      }
      long length = parseLength(headers.get("content-length"));
      if (bad || length < 0) {
        rejectAt(
            sink,
            recordStart,
            RejectReason.MALFORMED_WARC,
            bad ? "bad WARC header" : "missing or bad Content-Length",
            headers);
        haveLine = !ended && resync(r);
        continue;
      }
      if (ended && length > 0) {
        rejectAt(sink, recordStart, RejectReason.MALFORMED_WARC, "truncated record", headers);
        return;
      }
      String type = headers.getOrDefault("warc-type", "");
      boolean metadata = type.equalsIgnoreCase("metadata");
      if (!metadata) {
        stats.inc(ReadCounter.SKIPPED_NOT_PAGE);
        if (!r.skip(length)) {
          return;
        }
      } else if (length > limits.maxRecordBytes()) {
        rejectAt(sink, recordStart, RejectReason.OVERSIZED, length + " bytes", headers);
        if (!r.skip(length)) {
          return;
        }
      } else {
        byte[] content = r.readExactly((int) length);
        if (content == null) {
          rejectAt(sink, recordStart, RejectReason.MALFORMED_WARC, "truncated record", headers);
          return;
        }
        metadataRecord(recordStart, headers, content, sink);
      }
      haveLine = r.nextLine(MAX_HEADER_LINE);
    }
  }

  private static boolean isVersionLine(ByteLineReader r) {
    byte[] l = r.line();
    return r.lineLength() >= 6
        && l[0] == 'W'
        && l[1] == 'A'
        && l[2] == 'R'
        && l[3] == 'C'
        && l[4] == '/';
  }

  /** Skips to the next WARC/ line; returns whether one was found. */
  private static boolean resync(ByteLineReader r) throws IOException {
    while (r.nextLine(MAX_HEADER_LINE)) {
      if (isVersionLine(r)) {
        return true;
      }
    }
    return false;
  }

  private static long parseLength(String v) {
    if (v == null || v.isEmpty() || v.length() > 18 || !v.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(v);
  }

  private void rejectAt(
      PageSink sink, long offset, RejectReason reason, String detail, Map<String, String> headers) {
    stats.reject(reason);
    byte[] head = headers.toString().getBytes(StandardCharsets.UTF_8);
    sink.reject(Reject.of(file, offset, reason, detail, head, head.length));
  }

  private void metadataRecord(
      long offset, Map<String, String> headers, byte[] content, PageSink sink) {
    String contentType = headers.getOrDefault("content-type", "").toLowerCase(Locale.ROOT);
    if (!contentType.contains("json") && !(content.length > 0 && content[0] == '{')) {
      stats.inc(ReadCounter.SKIPPED_NOT_PAGE);
      return;
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(content);
    } catch (CharConversionException e) {
      reject(sink, offset, RejectReason.BAD_ENCODING, e.getMessage(), content);
      return;
    } catch (JsonProcessingException e) {
      String m = e.getOriginalMessage();
      reject(
          sink,
          offset,
          m != null && m.contains("UTF-8")
              ? RejectReason.BAD_ENCODING
              : RejectReason.MALFORMED_JSON,
          m,
          content);
      return;
    } catch (IOException | RuntimeException e) {
      reject(sink, offset, RejectReason.MALFORMED_JSON, String.valueOf(e.getMessage()), content);
      return;
    }
    if (root == null || !root.isObject()) {
      reject(sink, offset, RejectReason.MALFORMED_JSON, "metadata is not a JSON object", content);
      return;
    }
    JsonNode envelope = root.path("Envelope");
    JsonNode html =
        envelope.path("Payload-Metadata").path("HTTP-Response-Metadata").path("HTML-Metadata");
    if (!html.isObject()) {
      stats.inc(ReadCounter.SKIPPED_NOT_HTML);
      return;
    }
    JsonNode warcHeaders = envelope.path("WARC-Header-Metadata");
    String target =
        headers.getOrDefault("warc-target-uri", warcHeaders.path("WARC-Target-URI").asText(null));
    String date = headers.getOrDefault("warc-date", warcHeaders.path("WARC-Date").asText(null));
    try {
      WebUrl url = RawPage.pageUrl(target);
      Instant crawled = RawPage.crawlTime(date);
      if (crawled == null) {
        stats.inc(ReadCounter.MISSING_CRAWL_TIME);
        crawled = Instant.EPOCH;
      }
      JsonNode head = html.path("Head");
      WebUrl base = url;
      JsonNode baseNode = head.path("Base");
      String baseText =
          baseNode.isTextual()
              ? baseNode.asText()
              : baseNode.path("href").asText(baseNode.path("url").asText(null));
      if (baseText != null && !baseText.isBlank()) {
        try {
          base = WebUrl.parse(HtmlEntities.decode(baseText), url);
        } catch (InvalidUrlException e) {
          base = url;
        }
      }
      List<RawPage.RawLink> links = new ArrayList<>();
      for (JsonNode l : html.path("Links")) {
        if (!"A@/href".equals(l.path("path").asText())) {
          continue;
        }
        String u = l.hasNonNull("url") ? l.get("url").asText() : l.path("href").asText(null);
        String anchor = l.hasNonNull("text") ? l.get("text").asText() : l.path("title").asText("");
        links.add(new RawPage.RawLink(HtmlEntities.decode(u), HtmlEntities.decode(anchor)));
      }
      JsonNode titleNode = head.path("Title");
      String title = titleNode.isTextual() ? HtmlEntities.decode(titleNode.asText()) : "";
      PageVersion version = new PageVersion(crawled, batch, file, offset);
      Page page = RawPage.build(url, base, crawled, title, links, false, version, limits, stats);
      stats.inc(ReadCounter.PAGES);
      sink.page(page);
    } catch (RawPage.RejectException e) {
      reject(sink, offset, e.reason, e.getMessage(), content);
    }
  }

  private void reject(
      PageSink sink, long offset, RejectReason reason, String detail, byte[] content) {
    stats.reject(reason);
    sink.reject(Reject.of(file, offset, reason, detail, content, content.length));
  }
}
