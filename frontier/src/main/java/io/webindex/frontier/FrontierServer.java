package io.webindex.frontier;

import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.frontier.shaded.io.grpc.Server;
import io.webindex.frontier.shaded.io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The URLFrontier gRPC server: a {@link FrontierGrpcService} on a Netty server (plaintext HTTP/2)
 * listening on one address. {@link #close()} shuts it down gracefully: no new calls, the calls
 * under way get {@value #GRACE_SECONDS} seconds to finish, then the rest are cancelled.
 */
public final class FrontierServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FrontierServer.class);

  /** The port of the reference URLFrontier service, the default of {@code frontier-serve}. */
  public static final int DEFAULT_PORT = 7071;

  /**
   * The address the server listens on by default: this machine only (the protocol has no
   * authentication; {@code --bind 0.0.0.0} serves crawlers on other machines).
   */
  public static final String DEFAULT_BIND = "127.0.0.1";

  /** How long {@link #close()} lets calls under way finish. */
  static final long GRACE_SECONDS = 10;

  private final Server server;
  private final int port;
  private final String node;

  private FrontierServer(Server server, String node) {
    this.server = server;
    this.port = server.getPort();
    this.node = node;
  }

  /**
   * Starts serving {@code frontier} on {@code bind:port} (port 0: a free one).
   *
   * @throws UncheckedIOException when the address cannot be bound (in use, say)
   */
  public static FrontierServer start(UrlFrontier frontier, String bind, int port) {
    InetSocketAddress address = new InetSocketAddress(bind, port);
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("cannot resolve the address to listen on: " + bind);
    }
    // ListNodes answers the port, which (for port 0) is known once the server is bound
    AtomicReference<String> nodeName = new AtomicReference<>(bind + ":" + port);
    Server server =
        NettyServerBuilder.forAddress(address)
            .addService(new FrontierGrpcService(frontier, nodeName::get))
            .build();
    try {
      server.start();
    } catch (IOException e) {
      Throwable why = e.getCause() != null ? e.getCause() : e;
      throw new UncheckedIOException(
          new IOException("cannot listen on " + bind + ":" + port + ": " + why.getMessage(), e));
    }
    String node = nodeName(address, server.getPort());
    nodeName.set(node);
    log.info("URLFrontier service listening on port {} ({})", server.getPort(), node);
    return new FrontierServer(server, node);
  }

  /** The port the server listens on. */
  public int port() {
    return port;
  }

  /** This node's {@code host:port}, as {@code ListNodes} answers it. */
  public String node() {
    return node;
  }

  /** Blocks until the server has terminated (after {@link #close()} on another thread). */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
        server.shutdownNow();
        server.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    log.info("URLFrontier service on port {} stopped", port);
  }

  /**
   * The {@code host:port} other machines reach this node by: the address listened on, or for a
   * wildcard address this machine's host name.
   */
  static String nodeName(InetSocketAddress bound, int port) {
    String host;
    if (bound.getAddress().isAnyLocalAddress()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    } else {
      host = bound.getHostString();
    }
    return host + ":" + port;
  }
}
