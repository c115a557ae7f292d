package io.webindex.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.webindex.core.config.SecurityConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import java.util.function.IntSupplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * HTTPS for the web application (docs/security.md): the server's certificate and private key from
 * the configured key store, and the plain HTTP listener that only redirects to HTTPS.
 */
final class Tls {
  private Tls() {}

  /**
   * The TLS context of the key store {@code tls} names.
   *
   * @throws IllegalArgumentException when the key store cannot be read or holds no private key
   */
  static SSLContext context(SecurityConfig.WebTls tls) {
    char[] password = tls.keystorePassword().value().toCharArray();
    try (InputStream in = Files.newInputStream(Path.of(tls.keystore()))) {
      KeyStore ks = KeyStore.getInstance(tls.keystoreType());
      ks.load(in, password);
      boolean hasKey = false;
      for (String alias : Collections.list(ks.aliases())) {
        hasKey |= ks.isKeyEntry(alias);
      }
      if (!hasKey) {
        throw new IllegalArgumentException(
            SecurityConfig.WEB_TLS_KEYSTORE
                + " "
                + tls.keystore()
                + " holds no private key: it needs the server's key and certificate");
      }
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot read "
              + SecurityConfig.WEB_TLS_KEYSTORE
              + " "
              + tls.keystore()
              + " ("
              + tls.keystoreType()
              + "): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Answers every plain HTTP request with a permanent redirect (308: the method is kept) to the
   * same path and query on the HTTPS port; it reads nothing else.
   */
  static HttpHandler redirect(IntSupplier httpsPort) {
    return (HttpServerExchange ex) -> {
      String host = ex.getHostName();
      if (host.contains(":") && !host.startsWith("[")) {
        host = "[" + host + "]";
      }
      String query = ex.getQueryString();
      String target =
          "https://"
              + host
              + ":"
              + httpsPort.getAsInt()
              + ex.getRequestURI()
              + (query == null || query.isEmpty() ? "" : "?" + query);
      ex.setStatusCode(308);
      ex.getResponseHeaders().put(Headers.LOCATION, target);
      ex.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
      ex.endExchange();
    };
  }
}
