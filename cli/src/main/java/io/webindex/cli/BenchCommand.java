package io.webindex.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.IndexCells;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.SyntheticWeb;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.fluo.LatencyProbe;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.client.rfile.RFileWriter;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * {@code bin/webindex bench}: the stages timed on the embedded instance, on a synthetic web,
 * through the same commands an operator runs; prints a table of figures and writes them as JSON.
 */
final class BenchCommand implements Command {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Pattern LOAD_RATE = Pattern.compile("([0-9]+) pages/s");

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String summary() {
    return "time recompute, load, latency and check on a synthetic web, embedded";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex bench recompute|load|latency|check|all [--pages N] [--seed S]
                                  [--delta-pages M] [--deltas K] [--samples L] [--out DIR]
                                  [--keep]

        Starts an embedded Accumulo in a temporary directory, writes a synthetic web of N
        pages there (as bin/webindex gen does) and times the stages through the same
        commands an operator runs:
          recompute  the batch recompute of batch 0, end to end (bulk import included),
                     and the single-pass floor measured in the same run: parsing every
                     input file once and writing as many sorted cells to one RFile
          check      the consistency check of the recomputed table against a clone of it
          load       fluo-init from the recompute, then K delta batches of M page versions
                     (re-crawls, new pages, deletions, stale versions) through
                     load --embedded
          latency    fluo-init from the recompute (unless load ran), then the application
                     runs embedded while, L times on an idle system, a batch of one new
                     page linking to a crawled page is applied as load applies batches;
                     each sample is the time from the start of applying it until the
                     served table holds the page's page:cur cell and its inlink cell in
                     the target's row (polled every 5 ms; not visible within 30 s is a
                     failure); reports p50, p90, p99, max and mean
          all        all four
        Every stage needs the recompute of batch 0, so it always runs. After load and
        latency, a recompute of every batch and the check of the Fluo-maintained table
        against it run once; its verdict is reported with each of them. Prints a table
        of the figures (throughput, time, peak heap of this JVM in use and right after a
        GC, its peak RSS, the peak RSS of every process the embedded instance started,
        input size, machine) and writes it to DIR/bench.json. Exits 0 unless a stage
        failed (never because of slowness; an inconsistent check after load or latency,
        or a sample never visible, is a failure).

        options:
          --pages N        pages of the initial crawl (default 100000)
          --seed S         the synthetic web's seed (default 1)
          --deltas K       delta batches for load (default 4)
          --delta-pages M  page versions per delta batch (default N/20, at least 1)
          --samples L      latency samples (default 50)
          --out DIR        where bench.json goes (default bench-out)
          --keep           keep the temporary directory (its path is printed)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw,
            Set.of("pages", "seed", "deltas", "delta-pages", "samples", "out"),
            Set.of("keep"));
    List<String> pos =
        args.expectPositionals(1, "what to time: recompute, load, latency, check or all");
    String what = pos.get(0);
    if (!Set.of("recompute", "load", "latency", "check", "all").contains(what)) {
      throw new UsageException(
          "bench times recompute, load, latency, check or all, not '" + what + "'");
    }
    int pages = args.intValue("pages", 100_000);
    if (pages < 1) {
      throw new UsageException("--pages must be at least 1");
    }
    long seed;
    try {
      seed = Long.parseLong(args.value("seed").orElse("1"));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed must be a whole number: " + args.value("seed").get());
    }
    int deltas = args.intValue("deltas", 4);
    int deltaPages = args.intValue("delta-pages", Math.max(1, pages / 20));
    if (deltas < 1 || deltaPages < 1) {
      throw new UsageException("--deltas and --delta-pages must be at least 1");
    }
    int samples = args.intValue("samples", 50);
    if (samples < 1) {
      throw new UsageException("--samples must be at least 1");
    }
    Path out = ctx.userPath(args.value("out").orElse("bench-out"));
    Files.createDirectories(out);
    boolean load = what.equals("load") || what.equals("all");
    boolean check = what.equals("check") || what.equals("all");
    boolean latency = what.equals("latency") || what.equals("all");

    Map<String, Object> report = new LinkedHashMap<>();
    report.put("command", "bench " + String.join(" ", raw));
    report.put("started", Instant.now().toString());
    HeapPeak heapPeak = HeapPeak.start();
    report.put("machine", machine());
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("pages", pages);
    input.put("seed", seed);
    report.put("input", input);
    Map<String, Map<String, Object>> stages = new LinkedHashMap<>();
    report.put("stages", stages);

    Path tmp = Files.createTempDirectory("webindex-bench-");
    boolean failed = false;
    try (EmbeddedAccumulo accumulo = EmbeddedAccumulo.start(tmp)) {
      String conf = accumulo.connectionFile().toString();
      Connector conn = accumulo.connector();
      RunRegistry runs = new RunRegistry(conn, accumulo.config().metaTable());
      Path batches = tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR);
      Files.createDirectories(batches);
      SyntheticWeb web = new SyntheticWeb(seed, pages, deltaPages);

      // the input
      long t = System.nanoTime();
      long[] gen = GenCommand.writeBatch(web, 0, batches, false);
      double genSecs = secs(t);
      input.put("links", gen[0]);
      input.put("bytes", gen[1]);
      input.put("genSeconds", round(genSecs));
      ctx.err()
          .printf(
              Locale.ROOT,
              "bench: generated %,d pages, %,d links (%,d bytes) in %.1f s%n",
              pages,
              gen[0],
              gen[1],
              genSecs);

      // recompute of batch 0, and the floor
      Map<String, Object> rec = new LinkedHashMap<>();
      stages.put("recompute", rec);
      t = System.nanoTime();
      step(ctx, "recompute", "--conf", conf, "--run", "b0", "--snapshot", "0");
      double recSecs = secs(t);
      RunRecord b0 = runs.get("b0").orElseThrow(() -> new IllegalStateException("no run b0"));
      long cells = countCells(conn, b0.table());
      rec.put("seconds", round(recSecs));
      rec.put("pagesPerSecond", Math.round(pages / recSecs));
      rec.put("cells", cells);
      rec.put("counters", b0.counters());
      Map<String, Object> floor =
          floor(
              batches.resolve(BatchLayout.dirName(0)),
              cells,
              tmp,
              accumulo.config().recomputeCompression());
      rec.put("floor", floor);
      rec.put("ratioToFloor", round(recSecs / (double) floor.get("seconds")));
      ctx.err()
          .printf(
              Locale.ROOT,
              "bench: recompute %.1f s (%,d cells), floor %.1f s%n",
              recSecs,
              cells,
              (double) floor.get("seconds"));

      if (check) {
        Map<String, Object> chk = new LinkedHashMap<>();
        stages.put("check", chk);
        String clone = b0.table() + "_clone";
        conn.tableOperations().clone(b0.table(), clone, true, Map.of(), Set.of());
        Path dir = tmp.resolve("check-clone");
        t = System.nanoTime();
        int status =
            step(
                ctx,
                "check",
                "--conf",
                conf,
                "--run",
                "b0",
                "--actual",
                clone,
                "--out",
                dir.toString());
        double s = secs(t);
        JsonNode r = JSON.readTree(dir.resolve("check.json").toFile());
        chk.put("seconds", round(s));
        chk.put("cellsCompared", r.path("totals").path("compared").asLong());
        chk.put("cellsPerSecond", r.path("cellsPerSecond").asDouble());
        chk.put("mode", r.path("mode").asText());
        chk.put("verdict", r.path("verdict").asText());
        failed |= status != 0;
        ctx.err().printf(Locale.ROOT, "bench: check %.1f s, %s%n", s, r.path("verdict").asText());
      }

      // the batch the Fluo application applied last (batch 0 is in the run it starts from)
      int lastBatch = 0;
      if (load || latency) {
        step(ctx, "fluo-init", "--conf", conf, "--run", "b0", "--embedded");
      }
      if (load) {
        Map<String, Object> ld = new LinkedHashMap<>();
        stages.put("load", ld);
        long versions = 0;
        for (int b = 1; b <= deltas; b++) {
          GenCommand.writeBatch(web, b, batches, false);
          versions += web.batchSize(b);
        }
        t = System.nanoTime();
        String loaded = stepOutput(ctx, "load", "--conf", conf, "--embedded");
        double s = secs(t);
        ld.put("versions", versions);
        ld.put("seconds", round(s));
        ld.put("pagesPerSecond", Math.round(versions / s));
        Matcher m = LOAD_RATE.matcher(loaded);
        if (m.find()) {
          ld.put("loaderPagesPerSecond", Long.parseLong(m.group(1)));
        }
        ctx.err().printf(Locale.ROOT, "bench: load %,d versions in %.1f s%n", versions, s);
        lastBatch = deltas;
      }

      if (latency) {
        Map<String, Object> lat = new LinkedHashMap<>();
        stages.put("latency", lat);
        WebindexConfig cfg = ctx.config(conf).config();
        failed |= latency(ctx, cfg, web, batches, lastBatch, samples, seed, lat);
        lastBatch += samples;
      }

      if (load || latency) {
        // the guard: a recompute of every batch equals what Fluo made of them
        t = System.nanoTime();
        step(
            ctx,
            "recompute",
            "--conf",
            conf,
            "--run",
            "all",
            "--snapshot",
            Integer.toString(lastBatch));
        Path dir = tmp.resolve("check-fluo");
        int status =
            step(
                ctx,
                "check",
                "--conf",
                conf,
                "--run",
                "all",
                "--actual",
                b0.table(),
                "--applied",
                Integer.toString(lastBatch),
                "--out",
                dir.toString());
        String verdict = JSON.readTree(dir.resolve("check.json").toFile()).path("verdict").asText();
        for (String stage : List.of("load", "latency")) {
          if (stages.containsKey(stage)) {
            stages.get(stage).put("verdict", verdict);
          }
        }
        failed |= status != 0;
        ctx.err()
            .printf(
                Locale.ROOT,
                "bench: recompute of batches 0..%d and check against the Fluo-maintained table:"
                    + " %s in %.1f s%n",
                lastBatch,
                verdict,
                secs(t));
      }
      report.put("memory", memory(heapPeak.stop(), heapPeak.peakAfterGc()));
    } catch (StepFailed | StoreException e) {
      // a step, or the latency stage's Fluo application, failed: the figures so far are written
      ctx.err().println("bench: " + e.getMessage());
      failed = true;
    } finally {
      if (args.has("keep")) {
        ctx.err().println("bench: kept " + tmp);
      } else {
        EmbeddedAccumulo.deleteRecursively(tmp);
      }
    }
    report.put("finished", Instant.now().toString());
    Path json = out.resolve("bench.json");
    JSON.writeValue(json.toFile(), report);
    ctx.out().print(table(report));
    ctx.out().println("figures: " + json);
    return failed ? Main.FAILED : 0;
  }

  /** How often a latency sample looks at the served table, and how long it waits at most. */
  static final Duration LATENCY_POLL = Duration.ofMillis(5);

  static final Duration LATENCY_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The latency stage: with the served application running embedded, {@code samples} times on an
   * idle system a batch of one new page is written after batch {@code after}, applied as load
   * applies batches, and timed until its cells are in the served table. Fills {@code lat}; returns
   * true when a sample never became visible.
   */
  private static boolean latency(
      Cli ctx,
      WebindexConfig cfg,
      SyntheticWeb web,
      Path batches,
      int after,
      int samples,
      long seed,
      Map<String, Object> lat)
      throws IOException, InterruptedException {
    SplittableRandom random = new SplittableRandom(seed);
    List<Double> visible = new ArrayList<>();
    List<Double> committed = new ArrayList<>();
    List<Double> afterCommit = new ArrayList<>();
    int failures = 0;
    long t = System.nanoTime();
    try (LatencyProbe probe = LatencyProbe.open(cfg, new Configuration())) {
      for (int i = 0; i < samples; i++) {
        int batch = after + 1 + i;
        String target = web.url(random.nextInt(web.pages()));
        Page page = writeProbeBatch(cfg, batches, batch, target, i);
        List<Cell> expected = IndexCells.page(page);
        // idle: every notification of the previous sample processed, then a pause of a random
        // length so that samples do not start in step with the workers' notification scans
        probe.awaitIdle();
        Thread.sleep(random.nextInt(100));
        LatencyProbe.Sample sample = probe.measure(batch, expected, LATENCY_TIMEOUT, LATENCY_POLL);
        visible.add(sample.untilVisible().toNanos() / 1e6);
        committed.add(sample.untilCommitted().toNanos() / 1e6);
        afterCommit.add(sample.untilVisible().minus(sample.untilCommitted()).toNanos() / 1e6);
        if (!sample.visible()) {
          failures++;
          ctx.err()
              .printf(
                  Locale.ROOT,
                  "bench: latency sample %d (batch %d): its cells were not in %s after %d s%n",
                  i + 1,
                  batch,
                  probe.table(),
                  LATENCY_TIMEOUT.toSeconds());
        }
        if ((i + 1) % 10 == 0 || i + 1 == samples) {
          ctx.err()
              .printf(
                  Locale.ROOT,
                  "bench: latency: %d of %d samples, last %.0f ms%n",
                  i + 1,
                  samples,
                  visible.get(i));
        }
      }
    }
    LatencyProbe.Summary v = LatencyProbe.summarize(visible);
    LatencyProbe.Summary c = LatencyProbe.summarize(committed);
    LatencyProbe.Summary a = LatencyProbe.summarize(afterCommit);
    lat.put("samples", samples);
    lat.put("visible", samples - failures);
    lat.put("failures", failures);
    lat.put("p50Ms", round(v.p50()));
    lat.put("p90Ms", round(v.p90()));
    lat.put("p99Ms", round(v.p99()));
    lat.put("maxMs", round(v.max()));
    lat.put("meanMs", round(v.mean()));
    lat.put("committedP50Ms", round(c.p50()));
    lat.put("committedP99Ms", round(c.p99()));
    lat.put("afterCommitP50Ms", round(a.p50()));
    lat.put("afterCommitP99Ms", round(a.p99()));
    lat.put("pollMs", LATENCY_POLL.toMillis());
    lat.put("timeoutSeconds", LATENCY_TIMEOUT.toSeconds());
    lat.put("seconds", round(secs(t)));
    lat.put("millis", visible.stream().map(BenchCommand::round).toList());
    ctx.err()
        .printf(
            Locale.ROOT,
            "bench: latency over %d samples: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
            samples,
            v.p50(),
            v.p99(),
            v.max());
    return failures > 0;
  }

  /**
   * Writes batch {@code batch} of the raw page store as gen writes batches (under its temporary
   * name, then renamed): one new page, its URL unique to sample {@code sample}, on the host of
   * {@code target} and linking to it. Returns the page as the loader reads it.
   */
  private static Page writeProbeBatch(
      WebindexConfig cfg, Path batches, int batch, String target, int sample) throws IOException {
    Path tmp = LocalBatches.begin(batches, batch);
    String name = "part-00000.jsonl";
    Path file = tmp.resolve(name);
    WebUrl to;
    WebUrl url;
    try {
      to = WebUrl.parse(target);
      url = WebUrl.parse("/webindex-bench-latency/sample-" + sample, to);
    } catch (InvalidUrlException e) {
      throw new IllegalStateException("the synthetic web made an invalid URL: " + target, e);
    }
    String line =
        PageJson.toInputLine(
            url.toString(),
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            "latency sample " + sample,
            List.of(new Link(to.toString(), to.key(), "latency sample " + sample)));
    Files.writeString(file, line + "\n", StandardCharsets.UTF_8);
    List<Page> read = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      PageReaders.read(
          in,
          name,
          batch,
          cfg.readLimits(),
          new ReadStats(),
          new PageSink() {
            @Override
            public void page(Page page) {
              read.add(page);
            }

            @Override
            public void reject(Reject reject) {
              rejects.add(reject);
            }
          });
    }
    if (read.size() != 1 || !rejects.isEmpty() || read.get(0).links().size() != 1) {
      throw new IllegalStateException(
          "the latency sample's page was not read back as one page with one link: " + line);
    }
    LocalBatches.publish(batches, batch); // its _SUCCESS marker, then the rename
    return read.get(0);
  }

  /** One command in this process, its output kept out of the way; fails the bench if it fails. */
  private static int step(Cli ctx, String... args) throws StepFailed {
    return run(ctx, args).status();
  }

  private static String stepOutput(Cli ctx, String... args) throws StepFailed {
    return run(ctx, args).out();
  }

  private record Ran(int status, String out) {}

  private static Ran run(Cli ctx, String... args) throws StepFailed {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(List.of(args), new Cli(ctx.home(), out, err));
    String o = out.toString(StandardCharsets.UTF_8);
    if (status != 0 && !(args[0].equals("check") && status == 1)) {
      throw new StepFailed(
          String.join(" ", args).replaceAll("--conf \\S+ ", "")
              + " failed with status "
              + status
              + ":\n"
              + o
              + err.toString(StandardCharsets.UTF_8));
    }
    return new Ran(status, o);
  }

  /**
   * The single-pass floor: every input file of the batch parsed once, then as many cells as the
   * recompute wrote, already sorted, written once to one RFile with the recompute's compression.
   */
  private static Map<String, Object> floor(Path batch, long cells, Path tmp, String compression)
      throws IOException {
    long t = System.nanoTime();
    ReadStats stats = new ReadStats();
    long[] links = {0};
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            links[0] += page.links().size();
          }

          @Override
          public void reject(Reject reject) {}
        };
    try (Stream<Path> files = Files.list(batch)) {
      for (Path f : files.sorted().toList()) {
        try (InputStream in = Files.newInputStream(f)) {
          PageReaders.read(in, f.getFileName().toString(), 0, ReadLimits.DEFAULT, stats, sink);
        }
      }
    }
    double parse = secs(t);
    long w = System.nanoTime();
    Path rfile = tmp.resolve("floor.rf");
    FileSystem local = FileSystem.getLocal(new Configuration());
    Value one = new Value("1".getBytes(StandardCharsets.UTF_8));
    try (RFileWriter writer =
        RFile.newWriter()
            .to(rfile.toString())
            .withFileSystem(local)
            .withTableProperties(Map.of("table.file.compress.type", compression))
            .build()) {
      for (long i = 0; i < cells; i++) {
        writer.append(new Key(String.format(Locale.ROOT, "p:%015d", i), "page", "incount"), one);
      }
    }
    double write = secs(w);
    Files.deleteIfExists(rfile);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", round(parse + write));
    m.put("parseSeconds", round(parse));
    m.put("writeSeconds", round(write));
    m.put("compression", compression);
    m.put("linksParsed", links[0]);
    return m;
  }

  private static long countCells(Connector conn, String table) throws Exception {
    long n = 0;
    try (Scanner s = conn.createScanner(table, Authorizations.EMPTY)) {
      for (Map.Entry<Key, Value> ignored : s) {
        n++;
      }
    }
    return n;
  }

  /**
   * The largest heap use of this JVM seen by sampling it every 20 ms. The memory pools' own peaks
   * cannot be added up: each pool peaks at another moment, and their sum exceeded the maximum heap.
   */
  private static final class HeapPeak implements Runnable {
    private volatile boolean running = true;
    private volatile long peak;
    private volatile long peakAfterGc;
    private final Thread thread = new Thread(this, "webindex-bench-heap");
    private final java.util.Set<String> heapPools = new java.util.HashSet<>();
    private final List<javax.management.NotificationEmitter> emitters = new ArrayList<>();
    private final javax.management.NotificationListener afterGc = this::collected;

    static HeapPeak start() {
      HeapPeak h = new HeapPeak();
      for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == java.lang.management.MemoryType.HEAP) {
          h.heapPools.add(pool.getName());
        }
      }
      for (java.lang.management.GarbageCollectorMXBean gc :
          ManagementFactory.getGarbageCollectorMXBeans()) {
        if (gc instanceof javax.management.NotificationEmitter e) {
          e.addNotificationListener(h.afterGc, null, null);
          h.emitters.add(e);
        }
      }
      h.thread.setDaemon(true);
      h.thread.start();
      return h;
    }

    /**
     * The heap in use right after a collection: what the JVM could not free, an upper bound of the
     * live data (the used heap between collections is mostly garbage the collector has not needed
     * to free yet, so it grows with the heap it is given, not with the input).
     */
    private void collected(javax.management.Notification n, Object handback) {
      if (!n.getType()
          .equals(
              com.sun.management.GarbageCollectionNotificationInfo
                  .GARBAGE_COLLECTION_NOTIFICATION)) {
        return;
      }
      com.sun.management.GarbageCollectionNotificationInfo info =
          com.sun.management.GarbageCollectionNotificationInfo.from(
              (javax.management.openmbean.CompositeData) n.getUserData());
      long used = 0;
      for (Map.Entry<String, java.lang.management.MemoryUsage> e :
          info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
        if (heapPools.contains(e.getKey())) {
          used += e.getValue().getUsed();
        }
      }
      peakAfterGc = Math.max(peakAfterGc, used);
    }

    @Override
    public void run() {
      java.lang.management.MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
      while (running) {
        peak = Math.max(peak, mem.getHeapMemoryUsage().getUsed());
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    long stop() {
      running = false;
      thread.interrupt();
      for (javax.management.NotificationEmitter e : emitters) {
        try {
          e.removeNotificationListener(afterGc);
        } catch (javax.management.ListenerNotFoundException ignored) {
          // not registered: nothing to remove
        }
      }
      return Math.max(peak, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }

    long peakAfterGc() {
      return peakAfterGc;
    }
  }

  /** Peak heap and RSS of this JVM, and the peak RSS of every process it started. */
  private static Map<String, Object> memory(long peakHeap, long peakAfterGc) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("thisJvmPeakHeapBytes", peakHeap);
    m.put("thisJvmPeakHeapAfterGcBytes", peakAfterGc);
    m.put("thisJvmMaxHeapBytes", Runtime.getRuntime().maxMemory());
    peakRss(ProcessHandle.current().pid()).ifPresent(r -> m.put("thisJvmPeakRssBytes", r));
    Map<String, Long> children = new TreeMap<>();
    ProcessHandle.current()
        .descendants()
        .forEach(
            p ->
                peakRss(p.pid())
                    .ifPresent(r -> children.put(processName(p) + " (pid " + p.pid() + ")", r)));
    m.put("childPeakRssBytes", children);
    return m;
  }

  private static Optional<Long> peakRss(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (l.startsWith("VmHWM:")) {
          return Optional.of(Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process ended
    }
    return Optional.empty();
  }

  /** What a child process runs: its main class's simple name and the service it is given. */
  private static String processName(ProcessHandle p) {
    try {
      String[] args =
          Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).split("\0");
      for (int i = 0; i < args.length; i++) {
        if (args[i].matches("(org|io)\\.[a-zA-Z0-9_.]+\\.[A-Z][A-Za-z0-9_]*")) {
          String main = args[i].substring(args[i].lastIndexOf('.') + 1);
          return i + 1 < args.length && args[i + 1].matches("[a-z]+")
              ? main + " " + args[i + 1]
              : main;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process ended
    }
    return p.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("process");
  }

  private static Map<String, Object> machine() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          m.put("cpu", l.substring(l.indexOf(':') + 1).strip());
          break;
        }
      }
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          m.put("memoryBytes", Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: cores and Java only
    }
    return m;
  }

  /** The figures as an aligned table. */
  @SuppressWarnings("unchecked")
  static String table(Map<String, Object> r) {
    List<String[]> rows = new ArrayList<>();
    Map<String, Object> in = (Map<String, Object>) r.get("input");
    rows.add(
        row(
            "input",
            String.format(
                Locale.ROOT,
                "%,d pages, %,d links, %,d MB (seed %s)",
                in.get("pages"),
                in.get("links"),
                (long) in.get("bytes") >> 20,
                in.get("seed"))));
    Map<String, Map<String, Object>> stages = (Map<String, Map<String, Object>>) r.get("stages");
    Map<String, Object> rec = stages.get("recompute");
    if (rec != null && rec.containsKey("seconds")) {
      Map<String, Object> f = (Map<String, Object>) rec.get("floor");
      rows.add(
          row(
              "recompute",
              String.format(
                  Locale.ROOT,
                  "%s s, %,d pages/s, %,d cells",
                  rec.get("seconds"),
                  rec.get("pagesPerSecond"),
                  rec.get("cells"))));
      rows.add(
          row(
              "  floor",
              String.format(
                  Locale.ROOT,
                  "%s s (parse %s s, write %s s): recompute is %s x the floor",
                  f.get("seconds"),
                  f.get("parseSeconds"),
                  f.get("writeSeconds"),
                  rec.get("ratioToFloor"))));
    }
    Map<String, Object> chk = stages.get("check");
    if (chk != null && chk.containsKey("seconds")) {
      rows.add(
          row(
              "check",
              String.format(
                  Locale.ROOT,
                  "%s s, %,d cells compared, %s cells/s (%s), %s",
                  chk.get("seconds"),
                  chk.get("cellsCompared"),
                  chk.get("cellsPerSecond"),
                  chk.get("mode"),
                  chk.get("verdict"))));
    }
    Map<String, Object> ld = stages.get("load");
    if (ld != null && ld.containsKey("seconds")) {
      rows.add(
          row(
              "load",
              String.format(
                  Locale.ROOT,
                  "%,d page versions in %s s: %,d pages/s end to end (loader alone %s pages/s), check %s",
                  ld.get("versions"),
                  ld.get("seconds"),
                  ld.get("pagesPerSecond"),
                  ld.getOrDefault("loaderPagesPerSecond", "?"),
                  ld.getOrDefault("verdict", "not run"))));
    }
    Map<String, Object> lat = stages.get("latency");
    if (lat != null && lat.containsKey("p50Ms")) {
      rows.add(
          row(
              "latency",
              String.format(
                  Locale.ROOT,
                  "one page loaded -> its cells served, %d samples (%d visible): p50 %s ms,"
                      + " p90 %s ms, p99 %s ms, max %s ms, mean %s ms (loader committed: p50 %s"
                      + " ms, then served: p50 %s ms), check %s",
                  lat.get("samples"),
                  lat.get("visible"),
                  lat.get("p50Ms"),
                  lat.get("p90Ms"),
                  lat.get("p99Ms"),
                  lat.get("maxMs"),
                  lat.get("meanMs"),
                  lat.get("committedP50Ms"),
                  lat.get("afterCommitP50Ms"),
                  lat.getOrDefault("verdict", "not run"))));
    }
    Map<String, Object> mem = (Map<String, Object>) r.get("memory");
    if (mem != null) {
      rows.add(
          row(
              "memory",
              String.format(
                  Locale.ROOT,
                  "this JVM: peak heap %,d MB of %,d MB (after a GC at most %,d MB), peak RSS"
                      + " %,d MB",
                  (long) mem.get("thisJvmPeakHeapBytes") >> 20,
                  (long) mem.get("thisJvmMaxHeapBytes") >> 20,
                  (long) mem.getOrDefault("thisJvmPeakHeapAfterGcBytes", 0L) >> 20,
                  (long) mem.getOrDefault("thisJvmPeakRssBytes", 0L) >> 20)));
      ((Map<String, Long>) mem.get("childPeakRssBytes"))
          .forEach(
              (k, v) ->
                  rows.add(row("", String.format(Locale.ROOT, "%s: peak RSS %,d MB", k, v >> 20))));
    }
    Map<String, Object> mc = (Map<String, Object>) r.get("machine");
    rows.add(
        row(
            "machine",
            mc.get("cores") + " cores, " + mc.getOrDefault("cpu", "?") + ", " + mc.get("java")));
    StringBuilder sb = new StringBuilder();
    for (String[] row : rows) {
      sb.append(String.format(Locale.ROOT, "%-10s %s%n", row[0], row[1]));
    }
    return sb.toString();
  }

  private static String[] row(String name, String value) {
    return new String[] {name, value};
  }

  private static double secs(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static double round(double d) {
    return Math.round(d * 10) / 10.0;
  }

  private static final class StepFailed extends Exception {
    private static final long serialVersionUID = 1L;

    StepFailed(String m) {
      super(m);
    }
  }
}
