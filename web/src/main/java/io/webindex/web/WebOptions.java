package io.webindex.web;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How {@link WebServer} runs: where it listens, which table it reads (null: the served table, read
 * from the run registry at most {@link #servedCacheMillis} old), where the check reports are,
 * optional basic authentication, and its limits.
 *
 * @param bind the address to listen on ({@code 127.0.0.1} unless told otherwise)
 * @param port the port; 0 picks a free one
 * @param table a fixed table to read, or null for the served table
 * @param checksDir a directory holding {@code check.json}/{@code check.html}, directly or one
 *     directory down, or null
 * @param auth basic authentication, or null for none
 * @param requestsPerSecond requests a client address may make per second (a burst of twice that)
 * @param servedCacheMillis how long a read of the served pointer is reused
 * @param openDetail show operational detail without authentication: only for a throw-away local
 *     instance ({@code demo --serve}); {@code serve} never sets it (see {@link #showsDetail})
 */
public record WebOptions(
    String bind,
    int port,
    String table,
    Path checksDir,
    BasicAuth auth,
    int requestsPerSecond,
    long servedCacheMillis,
    boolean openDetail) {

  /** The default address: loopback only. */
  public static final String DEFAULT_BIND = "127.0.0.1";

  public static final int DEFAULT_PORT = 8080;
  public static final int DEFAULT_RATE = 200;
  public static final long DEFAULT_SERVED_CACHE_MILLIS = 1000;

  /**
   * A user name and password for HTTP basic authentication; {@code toString} hides the password.
   */
  public record BasicAuth(String user, String password) {
    public BasicAuth {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (user.isEmpty() || user.contains(":")) {
        throw new IllegalArgumentException("the web user name must be non-empty, without ':'");
      }
      if (password.isEmpty()) {
        throw new IllegalArgumentException("the web password is empty");
      }
    }

    @Override
    public String toString() {
      return "BasicAuth[user=" + user + ", password=*****]";
    }
  }

  public WebOptions {
    Objects.requireNonNull(bind, "bind");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
    }
    if (requestsPerSecond < 1) {
      throw new IllegalArgumentException("the rate limit must be at least 1 request per second");
    }
    if (servedCacheMillis < 0) {
      throw new IllegalArgumentException("servedCacheMillis must not be negative");
    }
  }

  /** Loopback, the given port, the served table, no reports, no authentication, default limits. */
  public static WebOptions local(int port) {
    return new WebOptions(
        DEFAULT_BIND, port, null, null, null, DEFAULT_RATE, DEFAULT_SERVED_CACHE_MILLIS, false);
  }

  public WebOptions withBind(String b) {
    return new WebOptions(
        b, port, table, checksDir, auth, requestsPerSecond, servedCacheMillis, openDetail);
  }

  public WebOptions withTable(String t) {
    return new WebOptions(
        bind, port, t, checksDir, auth, requestsPerSecond, servedCacheMillis, openDetail);
  }

  public WebOptions withChecksDir(Path d) {
    return new WebOptions(
        bind, port, table, d, auth, requestsPerSecond, servedCacheMillis, openDetail);
  }

  public WebOptions withAuth(BasicAuth a) {
    return new WebOptions(
        bind, port, table, checksDir, a, requestsPerSecond, servedCacheMillis, openDetail);
  }

  public WebOptions withRate(int perSecond) {
    return new WebOptions(
        bind, port, table, checksDir, auth, perSecond, servedCacheMillis, openDetail);
  }

  public WebOptions withServedCacheMillis(long millis) {
    return new WebOptions(
        bind, port, table, checksDir, auth, requestsPerSecond, millis, openDetail);
  }

  /** As these options, with {@link #openDetail}: operational detail without authentication. */
  public WebOptions withOpenDetail(boolean open) {
    return new WebOptions(
        bind, port, table, checksDir, auth, requestsPerSecond, servedCacheMillis, open);
  }

  /**
   * Whether the server shows operational detail (run messages with process ids, host names and
   * exceptions, the reports' directory, the Accumulo instance, failure texts, the overview): to
   * authenticated users when authentication is configured (every request is then), else only with
   * {@link #openDetail}. Without either the pages and the API answer the three questions and a
   * minimal health.
   */
  public boolean showsDetail() {
    return auth != null || openDetail;
  }
}
