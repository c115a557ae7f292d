package io.webindex.web;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Pebble templates under {@code io/webindex/web/templates} (HTML escaping by the engine), and
 * the model every page starts from.
 */
final class Templates {
  private final PebbleEngine pebble;

  Templates() {
    ClasspathLoader loader = new ClasspathLoader(Templates.class.getClassLoader());
    loader.setPrefix("io/webindex/web/templates");
    loader.setSuffix(".peb");
    this.pebble =
        new PebbleEngine.Builder()
            .loader(loader)
            .autoEscaping(true)
            .defaultEscapingStrategy("html")
            .strictVariables(false)
            .build();
  }

  /** The model of a page titled {@code title}: an empty search box, no table named. */
  static Map<String, Object> model(String title) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("title", title);
    m.put("q", "");
    m.put("table", null);
    return m;
  }

  /** Renders {@code template} with {@code model} and sends it, never cached. */
  void send(HttpServerExchange ex, String template, Map<String, Object> model) {
    PebbleTemplate t = pebble.getTemplate(template);
    StringWriter w = new StringWriter(4096);
    try {
      t.evaluate(w, model, Locale.ROOT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, Responses.HTML_TYPE);
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    ex.getResponseSender().send(w.toString(), StandardCharsets.UTF_8);
  }
}
