package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.Command;
import io.webindex.cli.ExitCodes;
import io.webindex.cli.UsageException;
import io.webindex.core.args.Args;
import io.webindex.web.WebBench;
import java.net.URI;
import java.util.List;
import java.util.Set;

/** {@code bin/webindex bench-web}: latency of a running web application (docs/performance.md). */
public final class BenchWebCommand implements Command {
  @Override
  public String name() {
    return "bench-web";
  }

  @Override
  public String summary() {
    return "measure the latency of a running web application (bin/webindex serve)";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex bench-web --url URL [--requests N] [--warmup W] [--concurrency C]
                                      [--limit L] [--seed S]

        Measures a running web application over HTTP: walks its top list (up to 400 pages)
        to collect cursors, hosts and URLs, then sends W unmeasured warm-up requests and N
        measured ones, a mix of top pages at those cursors, domain pages, inlink pages and
        page lookups, from C clients at once, and prints the latency percentiles (p50, p90,
        p99, max) and the error count. Run the server with a --rate above the load, or the
        rate limit answers 429 (counted as errors).

          --url URL          the application, e.g. http://127.0.0.1:8080/
          --requests N       requests to measure (default 2000)
          --warmup W         requests before measuring (default 500)
          --concurrency C    clients at once (default 4)
          --limit L          results per page (default 25)
          --seed S           seed of the request mix (default 1)

        Exit status: 0 measured with no error answers; 4 some requests failed; 2 a usage
        error or the application cannot be reached.
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw, Set.of("url", "requests", "warmup", "concurrency", "limit", "seed"), Set.of());
    args.expectPositionals(0, "");
    String url = args.required("url", "--url URL");
    URI base;
    try {
      base = URI.create(url.endsWith("/") ? url : url + "/");
    } catch (IllegalArgumentException e) {
      throw new UsageException("--url is not a URL: " + url);
    }
    if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
      throw new UsageException("--url must be an http:// or https:// URL: " + url);
    }
    int requests = args.intValue("requests", 2000);
    int warmup = args.intValue("warmup", 500);
    int concurrency = args.intValue("concurrency", 4);
    int limit = args.intValue("limit", 25);
    int seed = args.intValue("seed", 1);
    checkRanges(requests, warmup, concurrency, limit);
    WebBench.Result r;
    try {
      r = WebBench.run(base, requests, warmup, concurrency, limit, seed, ctx.err());
    } catch (java.net.ConnectException e) {
      throw new UsageException("nothing answers at " + base + " (is bin/webindex serve running?)");
    }
    ctx.out().print(WebBench.summary(r, limit));
    return r.errors() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private static void checkRanges(int requests, int warmup, int concurrency, int limit) {
    if (requests < 1
        || warmup < 0
        || concurrency < 1
        || concurrency > 256
        || limit < 1
        || limit > 1000) {
      throw new UsageException(
          "--requests >= 1, --warmup >= 0, --concurrency 1 to 256 and --limit 1 to 1000, please");
    }
  }
}
