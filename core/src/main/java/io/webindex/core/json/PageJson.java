package io.webindex.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The two JSON forms of a page.
 *
 * <ul>
 *   <li>{@link #toQueryJson}: the {@code page:cur} value of the query table — {@code url}, {@code
 *       crawled}, {@code title}, {@code outlinkcount} (distinct targets after dedup) and {@code
 *       outlinks} ({@code url}, {@code anchor}) — compact, fields always in this order.
 *   <li>{@link #toStoredJson}/{@link #fromStoredJson}: the Fluo table's {@code p:} content, which
 *       also carries the version (batch, file, offset), the content signature, the deletion flag
 *       and the link keys, so that latest-crawl-wins and the crawl history can be decided inside
 *       Fluo. Stored JSON without a {@code signature} (written before it existed) reads with the
 *       content signature of its title and links.
 * </ul>
 */
public final class PageJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private PageJson() {}

  public static String toQueryJson(Page p) {
    if (p.deleted()) {
      throw new IllegalArgumentException("a deleted page has no page:cur");
    }
    return render(
        128 + 64 * p.links().size(),
        g -> {
          g.writeStringField("url", p.url());
          g.writeStringField("crawled", p.version().crawled().toString());
          g.writeStringField("title", p.title());
          g.writeNumberField("outlinkcount", p.links().size());
          writeLinks(g, "outlinks", p.links(), false);
        });
  }

  /**
   * One line of page JSON input (docs/input.md) for a page version: what a crawler would write.
   * Used by generators of test and benchmark input.
   */
  public static String toInputLine(Page p) {
    return render(
        128 + 64 * p.links().size(),
        g -> {
          g.writeStringField("url", p.url());
          g.writeStringField("crawled", p.version().crawled().toString());
          if (p.deleted()) {
            g.writeBooleanField("deleted", true);
          } else {
            g.writeStringField("title", p.title());
            writeLinks(g, "links", p.links(), false);
          }
        });
  }

  /**
   * One line of page JSON input for a live page with {@code links} exactly as given: a generator of
   * raw input writes duplicates and self links this way, for the readers to drop.
   */
  public static String toInputLine(String url, Instant crawled, String title, List<Link> links) {
    return render(
        128 + 64 * links.size(),
        g -> {
          g.writeStringField("url", url);
          g.writeStringField("crawled", crawled.toString());
          g.writeStringField("title", title);
          writeLinks(g, "links", links, false);
        });
  }

  public static String toStoredJson(Page p) {
    return render(
        160 + 96 * p.links().size(),
        g -> {
          g.writeStringField("url", p.url());
          g.writeStringField("key", p.key());
          g.writeStringField("crawled", p.version().crawled().toString());
          g.writeNumberField("batch", p.version().batch());
          g.writeStringField("file", p.version().file());
          g.writeNumberField("offset", p.version().offset());
          if (p.deleted()) {
            g.writeBooleanField("deleted", true);
          } else {
            g.writeStringField("signature", p.signature());
            g.writeStringField("title", p.title());
            writeLinks(g, "outlinks", p.links(), true);
          }
        });
  }

  /** The fields of one JSON object. */
  private interface Fields {
    void write(JsonGenerator g) throws IOException;
  }

  /** One compact JSON object. */
  private static String render(int capacity, Fields fields) {
    StringWriter w = new StringWriter(capacity);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.writeStartObject();
      fields.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  private static void writeLinks(JsonGenerator g, String field, List<Link> links, boolean withKeys)
      throws IOException {
    g.writeArrayFieldStart(field);
    for (Link l : links) {
      g.writeStartObject();
      g.writeStringField("url", l.url());
      if (withKeys) {
        g.writeStringField("key", l.key());
      }
      g.writeStringField("anchor", l.anchor());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * The {@code outlinks} URLs of a {@code page:cur} value (for damaged JSON: what it could read).
   */
  public static List<String> outlinkUrls(String queryJson) {
    List<String> urls = new ArrayList<>();
    try (JsonParser p = FACTORY.createParser(queryJson)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return urls;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (name.equals("outlinks") && t == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String f = p.currentName();
              p.nextToken();
              if (f.equals("url")) {
                urls.add(p.getText());
              } else {
                p.skipChildren();
              }
            }
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      // a damaged page:cur: the links read so far
    }
    return urls;
  }

  public static Page fromStoredJson(String json) {
    try (JsonParser p = FACTORY.createParser(json)) {
      String url = null;
      String key = null;
      Instant crawled = null;
      long batch = 0;
      String file = "";
      long offset = 0;
      boolean deleted = false;
      String title = "";
      String signature = null;
      List<Link> links = new ArrayList<>();
      expect(p.nextToken(), JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "url" -> url = p.getText();
          case "key" -> key = p.getText();
          case "crawled" -> crawled = Instant.parse(p.getText());
          case "batch" -> batch = p.getLongValue();
          case "file" -> file = p.getText();
          case "offset" -> offset = p.getLongValue();
          case "deleted" -> deleted = p.getBooleanValue();
          case "title" -> title = p.getText();
          case "signature" -> signature = p.getText();
          case "outlinks" -> {
            expect(t, JsonToken.START_ARRAY);
            while (p.nextToken() == JsonToken.START_OBJECT) {
              String lu = null;
              String lk = null;
              String la = "";
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                  case "url" -> lu = p.getText();
                  case "key" -> lk = p.getText();
                  case "anchor" -> la = p.getText();
                  default -> p.skipChildren();
                }
              }
              links.add(new Link(lu, lk, la));
            }
          }
          default -> p.skipChildren();
        }
      }
      PageVersion v = new PageVersion(crawled, batch, file, offset);
      if (deleted) {
        return Page.deletion(url, key, v);
      }
      return signature == null
          ? new Page(url, key, v, title, links, false)
          : new Page(url, key, v, title, links, false, signature);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a stored page: " + abbreviate(json), e);
    }
  }

  private static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("expected " + expected + " but got " + actual);
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
