package io.webindex.frontier;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.store.StopOnSignal;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;

/**
 * The URLFrontier service as a Tool, for a cluster's process manager: {@code java -cp ...
 * io.webindex.frontier.FrontierServeTool [--port N] [--bind ADDR] [--webindex-conf FILE]} serves
 * the index's frontier until SIGTERM or Ctrl-C, then shuts the server down gracefully. Its
 * configuration is the {@code --webindex-conf} file (else the environment) with {@code -D
 * webindex.*} overrides, like every webindex Tool; the exit status is theirs ({@link ToolMain}).
 */
public final class FrontierServeTool extends Configured implements Tool {
  /** The Tool's name in its messages. */
  public static final String NAME = "frontier-serve";

  private final Function<WebindexConfig, UrlFrontier> open;
  private final PrintWriter out;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);

  /** The Tool over the index's frontier in Accumulo. */
  public FrontierServeTool() {
    this(
        FrontierServing::open,
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }

  /**
   * @param open opens the frontier to serve (closed by the Tool when it stops)
   */
  FrontierServeTool(Function<WebindexConfig, UrlFrontier> open, PrintWriter out, PrintWriter err) {
    this.open = open;
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    ToolMain.exit(NAME, new FrontierServeTool(), args);
  }

  static final String USAGE =
      """
      usage: FrontierServeTool [--port N] [--bind ADDR] [--webindex-conf FILE] [-D key=value ...]

      Serves the index's crawl frontier as a URLFrontier 2.5 gRPC service until SIGTERM.
        --port N        the port (default webindex.frontier.port, 7071; 0 picks a free one)
        --bind ADDR     the address to listen on (default 127.0.0.1, this machine only)
      """;

  /** Stops the service (as SIGTERM does). */
  public void requestStop() {
    stop.countDown();
  }

  @Override
  public int run(String[] args) throws Exception {
    StopOnSignal signal = null;
    try {
      Args a = ToolConfig.args(args, Set.of("port", "bind"), Set.of());
      if (a.helpRequested()) {
        out.print(USAGE);
        return 0;
      }
      WebindexConfig cfg = ToolConfig.load(getConf(), a);
      int port = FrontierServing.port(a, cfg);
      String bind = a.value("bind").orElse(FrontierServer.DEFAULT_BIND);
      signal = new StopOnSignal(this::requestStop);
      try (UrlFrontier frontier = open.apply(cfg)) {
        FrontierServing.serve(frontier, bind, port, out, stop::await);
      }
      return 0;
    } catch (Exception e) {
      return ToolMain.fail(NAME, e, err);
    } finally {
      if (signal != null) {
        signal.close();
      }
      out.flush();
      err.flush();
    }
  }
}
