package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.web.Overview;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;

/**
 * {@code bin/webindex status}: health at a glance, as the web application's home page and {@code
 * /api/v1/health} show it ({@link Overview}).
 */
final class StatusCommand implements Command {
  /**
   * How long the Fluo reads may take: longer than {@code serve}'s, since this process opens its
   * first Fluo client for them.
   */
  static final Duration TIME_LIMIT = Duration.ofSeconds(10);

  @Override
  public String name() {
    return "status";
  }

  @Override
  public String summary() {
    return "health at a glance: served table, Fluo lag and processes, last check";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex status [--conf FILE] [--json]

        Prints, one line each: the served table (its run and since when) and the table
        served before it; the batch the serving Fluo application has applied, the newest
        complete batch of the raw page store and the lag in batches and time; the Fluo
        applications the services serve (the served one and a cut-over's target, if any),
        each with whether an oracle runs and how many workers; the last consistency check
        (verdict, time, run, differences, report). Only reads.

          --conf FILE   the configuration to use (see bin/webindex help)
          --json        print one JSON object instead, the same as the "overview" of the
                        web application's /api/v1/health (docs/web.md)

        Exit status: 0 the state was read (whatever it says); 2 a configuration error or
        Accumulo refuses; 3 Accumulo unavailable.
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) {
    Args args = Args.parse(raw, Set.of(Cli.CONF_OPTION), Set.of("json"));
    args.expectPositionals(0, "");
    String conf = args.value(Cli.CONF_OPTION).orElse(null);
    WebindexConfig cfg = ctx.config(conf).config();
    Connector conn = ctx.connect(conf);
    Overview o;
    try (FluoStateProbe fluo = new FluoStateProbe(cfg, TIME_LIMIT)) {
      o = Overview.gather(conn, cfg, fluo);
    }
    PrintWriter out = ctx.out();
    if (args.has("json")) {
      out.println(RecomputeCommand.json(o.toJson()));
    } else {
      text(o.lines(Instant.now())).forEach(out::println);
    }
    return 0;
  }

  /** {@code label: text}, the texts aligned. */
  static List<String> text(List<Overview.Line> lines) {
    int width = lines.stream().mapToInt(l -> l.label().length()).max().orElse(0) + 1;
    return lines.stream()
        .map(l -> String.format("%-" + width + "s %s", l.label() + ":", l.text()))
        .toList();
  }
}
