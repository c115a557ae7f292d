package io.webindex.frontier;

import io.webindex.core.args.Args;
import io.webindex.core.args.ArgsException;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.frontier.AccumuloUrlFrontier;
import java.io.PrintWriter;
import org.apache.accumulo.core.client.Connector;

/** What {@code bin/webindex frontier-serve} and {@link FrontierServeTool} share. */
public final class FrontierServing {
  private FrontierServing() {}

  /** Waits until the process is asked to stop. */
  @FunctionalInterface
  public interface StopWait {
    void await() throws InterruptedException;
  }

  /** The index's frontier in Accumulo, over a connection of its own. */
  public static UrlFrontier open(WebindexConfig cfg) {
    return open(cfg, AccumuloConnections.connect(cfg));
  }

  /**
   * The index's frontier in Accumulo, over {@code conn}; this process names the leases it takes.
   */
  public static UrlFrontier open(WebindexConfig cfg, Connector conn) {
    return AccumuloUrlFrontier.open(conn, cfg);
  }

  /**
   * The port: {@code --port}, else {@code webindex.frontier.port}.
   *
   * @throws ArgsException for a port out of range
   */
  public static int port(Args args, WebindexConfig cfg) {
    int port = args.intValue("port", cfg.frontierPort());
    if (port < 0 || port > 65_535) {
      throw new ArgsException("--port must be between 0 and 65535");
    }
    return port;
  }

  /**
   * Serves {@code frontier} on {@code bind:port} until {@code stop} returns, printing one line with
   * the address first; the server is shut down gracefully before this returns.
   */
  public static void serve(
      UrlFrontier frontier, String bind, int port, PrintWriter out, StopWait stop)
      throws InterruptedException {
    try (FrontierServer server = FrontierServer.start(frontier, bind, port)) {
      out.println(
          "serving URLFrontier on "
              + server.node()
              + " (port "
              + server.port()
              + "; Ctrl-C stops it)");
      out.flush();
      stop.await();
    }
  }
}
