package io.webindex.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** {@code /static/style.css}, read once from the class path, cached by browsers for an hour. */
final class StyleSheet implements HttpHandler {
  private static final String RESOURCE = "/io/webindex/web/static/style.css";

  private final byte[] css;

  StyleSheet() {
    try (InputStream in = StyleSheet.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      this.css = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/css; charset=utf-8");
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "max-age=3600");
    ex.getResponseSender().send(ByteBuffer.wrap(css));
  }
}
