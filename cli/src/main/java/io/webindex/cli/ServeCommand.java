package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.files.SecretFiles;
import io.webindex.store.StopOnSignal;
import io.webindex.web.WebOptions;
import io.webindex.web.WebServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;

/** {@code bin/webindex serve}: the read-only web application over the served table. */
final class ServeCommand implements Command {
  /** The environment variable that may hold the password of {@code --auth-user}. */
  static final String PASSWORD_ENV = "WEBINDEX_WEB_PASSWORD";

  @Override
  public String name() {
    return "serve";
  }

  @Override
  public String summary() {
    return "serve the web application (JSON API and pages) over the served table";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex serve [--port P] [--bind ADDR] [--conf FILE] [--table T]
                                  [--checks DIR] [--auth-user NAME [--auth-password-file F]]
                                  [--rate N]

        Serves the read-only web application (docs/web.md) until Ctrl-C: the JSON API under
        /api/v1/ (top, domain/<domain>, page?url=, inlinks?url=, history?url=, frontier,
        runs, checks, health) and the pages for people. It answers from the served table and
        follows the served pointer without a restart (re-read at most every second). It
        never writes a table.

          --port P                 the port (default 8080; 0 picks a free one)
          --bind ADDR              the address to listen on (default 127.0.0.1, this
                                   machine only)
          --conf FILE              the configuration to use (see bin/webindex help)
          --table T                answer from table T instead of the served table
          --checks DIR             where check.json/check.html are (DIR itself and its
                                   subdirectories), for /checks
          --auth-user NAME         require HTTP basic authentication as NAME; the password
                                   is read from --auth-password-file F, else the environment
                                   variable WEBINDEX_WEB_PASSWORD (never from the command line)
          --rate N                 requests per second per client address (default 200)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw,
            Set.of(
                "port",
                "bind",
                Cli.CONF_OPTION,
                "table",
                "checks",
                "auth-user",
                "auth-password-file",
                "rate"),
            Set.of());
    args.expectPositionals(0, "");
    WebOptions options = options(args, ctx);
    String conf = args.value(Cli.CONF_OPTION).orElse(null);
    WebindexConfig cfg = ctx.config(conf).config();
    Connector conn = ctx.connect(conf);
    try (StopOnSignal signal = new StopOnSignal(ctx::requestStop);
        FluoStateProbe fluo = new FluoStateProbe(cfg);
        WebServer server = WebServer.start(options, conn, cfg, fluo)) {
      serveUntilStopped(server, ctx);
    }
    return 0;
  }

  /**
   * Prints the address and blocks until {@link Cli#requestStop()} (Ctrl-C, with a {@link
   * StopOnSignal} in place).
   */
  static void serveUntilStopped(WebServer server, Cli ctx) throws InterruptedException {
    ctx.out().println("serving " + server.url() + " (Ctrl-C stops it)");
    ctx.out().flush();
    ctx.awaitStop();
  }

  static WebOptions options(Args args, Cli ctx) throws IOException {
    int port = args.intValue("port", WebOptions.DEFAULT_PORT);
    if (port < 0 || port > 65535) {
      throw new UsageException("--port must be between 0 and 65535");
    }
    int rate = args.intValue("rate", WebOptions.DEFAULT_RATE);
    if (rate < 1) {
      throw new UsageException("--rate must be at least 1");
    }
    WebOptions o =
        WebOptions.local(port)
            .withBind(args.value("bind").orElse(WebOptions.DEFAULT_BIND))
            .withRate(rate)
            .withTable(args.value("table").orElse(null));
    if (args.value("checks").isPresent()) {
      Path dir = ctx.userPath(args.value("checks").get());
      if (!Files.isDirectory(dir)) {
        throw new UsageException("--checks: no such directory: " + dir);
      }
      o = o.withChecksDir(dir);
    }
    if (args.value("auth-user").isPresent()) {
      String password;
      if (args.value("auth-password-file").isPresent()) {
        Path f = ctx.userPath(args.value("auth-password-file").get());
        // refused when group or others may read or write it, like the Accumulo password file
        password = SecretFiles.read(f, "--auth-password-file");
      } else {
        password = System.getenv(PASSWORD_ENV);
      }
      if (password == null || password.isEmpty()) {
        throw new UsageException(
            "--auth-user needs a password: --auth-password-file F or " + PASSWORD_ENV);
      }
      o = o.withAuth(new WebOptions.BasicAuth(args.value("auth-user").get(), password));
    } else if (args.value("auth-password-file").isPresent()) {
      throw new UsageException("--auth-password-file needs --auth-user");
    }
    return o;
  }
}
