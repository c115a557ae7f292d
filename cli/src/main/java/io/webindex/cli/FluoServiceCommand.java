package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.FluoServices;
import io.webindex.store.StopOnSignal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code fluo-oracle} and {@code fluo-worker}: run the oracle or a worker of a Fluo application as
 * a process of its own until Ctrl-C or SIGTERM ({@link FluoServices}).
 */
final class FluoServiceCommand implements Command {
  private final boolean worker;

  private FluoServiceCommand(boolean worker) {
    this.worker = worker;
  }

  static FluoServiceCommand oracle() {
    return new FluoServiceCommand(false);
  }

  static FluoServiceCommand worker() {
    return new FluoServiceCommand(true);
  }

  @Override
  public String name() {
    return worker ? "fluo-worker" : "fluo-oracle";
  }

  @Override
  public String summary() {
    return worker
        ? "run a worker of the Fluo application (its observers) until stopped"
        : "run the oracle of the Fluo application until stopped";
  }

  @Override
  public String usage() {
    if (worker) {
      return """
          usage: bin/webindex fluo-worker [--app NAME] [--threads N] [--max-scan-interval S]
                                          [--conf FILE]

          Runs a worker in this process until Ctrl-C or SIGTERM: it runs the application's
          observers (the combine queues and the exporter that writes the query table). Without
          --app it follows the served pointer: it serves the application that maintains the
          served table and the one a reconcile or fluo-init is bringing up (its catch-up runs
          here), and stops serving the old one after the switch by itself — start it once and
          leave it running. Start as many as the load needs, on any hosts, and stop or add them
          at any time; an oracle must run too (fluo-oracle). Needs the password locally (the
          configuration), never in ZooKeeper.

            --app NAME               serve only this application, for the process's whole
                                     life (default: follow the served pointer)
            --threads N              observer threads (default 10)
            --max-scan-interval S    longest pause between two scans for new notifications
                                     when there are none (default 1 second)
            --conf FILE              webindex configuration (default: conf/webindex.properties,
                                     else the running `bin/webindex dev` instance)

          exit status: 2 refused (bad options, the --app application is not initialised), 3 Accumulo
          unavailable; stopped by Ctrl-C or SIGTERM, 130 or 143 once the worker stopped
          """;
    }
    return """
        usage: bin/webindex fluo-oracle [--app NAME] [--conf FILE]

        Runs the oracle of a Fluo application (it hands out the transactions' timestamps) in
        this process until Ctrl-C or SIGTERM. Without --app it follows the served pointer: it
        serves the application that maintains the served table and the one a reconcile or
        fluo-init is bringing up, and stops serving the old one after the switch by itself.
        One oracle per application is active; a second process stands by and takes over when
        the first stops. Loading, the catch-up of fluo-init and reconcile without --embedded,
        and the workers need it.

          --app NAME     serve only this application, for the process's whole life (default:
                         follow the served pointer)
          --conf FILE    webindex configuration (default: conf/webindex.properties, else the
                         running `bin/webindex dev` instance)

        exit status: 2 refused (bad options, the --app application is not initialised), 3 Accumulo
        unavailable; stopped by Ctrl-C or SIGTERM, 130 or 143 once the oracle stopped
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Set<String> options =
        worker
            ? Set.of(Cli.CONF_OPTION, "app", "threads", "max-scan-interval")
            : Set.of(Cli.CONF_OPTION, "app");
    Args args = Args.parse(raw, options, Set.of());
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    FluoServices.WorkerOptions w =
        worker
            ? new FluoServices.WorkerOptions(
                args.intValue("threads", FluoServices.DEFAULT_THREADS),
                Duration.ofSeconds(
                    args.intValue(
                        "max-scan-interval",
                        (int) FluoServices.DEFAULT_MAX_SCAN_INTERVAL.toSeconds())))
            : null;
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    Optional<String> pinned = args.value("app").filter(a -> !a.isEmpty());
    // with --app: that application for the process's whole life, refused when not initialised
    String app = pinned.isPresent() ? FluoServices.application(cfg, pinned) : null;
    try (StopOnSignal signal = new StopOnSignal(ctx::requestStop)) {
      if (app == null) {
        FluoServices.runFollowing(
            cfg,
            worker ? FluoServices.Role.WORKER : FluoServices.Role.ORACLE,
            w,
            ctx::awaitStop,
            ctx.err());
      } else if (worker) {
        FluoServices.runWorker(cfg, app, w, ctx::awaitStop, ctx.err());
      } else {
        FluoServices.runOracle(cfg, app, ctx::awaitStop, ctx.err());
      }
    }
    return 0;
  }
}
