package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.frontier.FrontierServer;
import io.webindex.frontier.FrontierServing;
import io.webindex.store.StopOnSignal;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.accumulo.core.client.Connector;

/** {@code bin/webindex frontier-serve}: the crawl frontier as a URLFrontier 2.5 gRPC service. */
final class FrontierServeCommand implements Command {
  private final BiFunction<WebindexConfig, Connector, UrlFrontier> open;

  /**
   * @param open opens the frontier to serve over the index's connection (closed by the command)
   */
  FrontierServeCommand(BiFunction<WebindexConfig, Connector, UrlFrontier> open) {
    this.open = open;
  }

  @Override
  public String name() {
    return "frontier-serve";
  }

  @Override
  public String summary() {
    return "serve the crawl frontier to crawlers over gRPC (URLFrontier 2.5)";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex frontier-serve [--port N] [--bind ADDR] [--conf FILE]

        Serves the index's crawl frontier as a URLFrontier 2.5 gRPC service
        (docs/frontier.md) until Ctrl-C or SIGTERM: crawlers take due URLs with GetURLs and
        put back what they crawled and discovered with PutURLs. Any number of frontier-serve
        processes may serve one index: they share their state in Accumulo and never hand
        out one URL twice at a time.

          --port N                 the port (default webindex.frontier.port, else 7071;
                                   0 picks a free one)
          --bind ADDR              the address to listen on (default 127.0.0.1, this
                                   machine only; 0.0.0.0 for crawlers elsewhere)
          --conf FILE              the configuration to use (see bin/webindex help)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args = Args.parse(raw, Set.of("port", "bind", Cli.CONF_OPTION), Set.of());
    args.expectPositionals(0, "");
    String conf = args.value(Cli.CONF_OPTION).orElse(null);
    WebindexConfig cfg = ctx.config(conf).config();
    int port = FrontierServing.port(args, cfg);
    String bind = args.value("bind").orElse(FrontierServer.DEFAULT_BIND);
    Connector conn = ctx.connect(conf);
    try (StopOnSignal signal = new StopOnSignal(ctx::requestStop);
        UrlFrontier frontier = open.apply(cfg, conn)) {
      FrontierServing.serve(frontier, bind, port, ctx.out(), ctx::awaitStop);
    }
    return 0;
  }
}
