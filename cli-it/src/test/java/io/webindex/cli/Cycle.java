package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The operator's whole cycle through the command line, dev-style (Fluo embedded in the commands),
 * on the configuration {@code conf} whose store is {@code store}: {@code recompute} (two runs of
 * batch 0, one to be dropped by the retention) → {@code fluo-init} → {@code load --embedded}
 * (batches 1–2) → {@code recompute} → {@code check} (map-reduce mode) → a new batch → {@code
 * reconcile --embedded} → {@code recompute} → {@code check --fluo --embedded} → {@code query} and
 * {@code dump} of the served table. Each step must succeed; the reports go under {@code reports}.
 * The configuration needs {@code webindex.retention.runs=1}.
 */
final class Cycle {
  /** One command of the cycle and what it printed. */
  record Step(List<String> args, Run run) {
    @Override
    public String toString() {
      return String.join(" ", args) + "\n" + run;
    }
  }

  private final Path home;
  private final String conf;
  private final Path store;
  private final Path reports;
  private final String prefix;
  private final List<Step> steps = new ArrayList<>();

  private Cycle(Path home, Path conf, Path store, Path reports, String prefix) {
    this.home = home;
    this.conf = conf.toString();
    this.store = store;
    this.reports = reports;
    this.prefix = prefix;
  }

  /** Runs the whole cycle and returns every step, each asserted successful. */
  static List<Step> run(Path home, Path conf, Path store, Path reports, String prefix) {
    Cycle c = new Cycle(home, conf, store, reports, prefix);
    c.runAll();
    return List.copyOf(c.steps);
  }

  private void runAll() {
    RandomWeb web = new RandomWeb(8, 200);
    for (long b = 0; b < 3; b++) {
      writeBatch(web, b, 150);
    }
    ok("recompute", "--run", "r0", "--snapshot", "0");
    ok("recompute", "--run", "r0b", "--snapshot", "0");
    // batches 1 and 2 are there already: fluo-init catches them up before it serves r0's table
    Step init = ok("fluo-init", "--run", "r0", "--embedded");
    assertTrue(init.run().out().contains("(snapshot 0)"), init.toString());
    assertTrue(
        init.run().out().contains("Fluo caught up to batch 2 before the switch"), init.toString());
    writeBatch(web, 3, 100);
    Step load = ok("load", "--embedded");
    assertTrue(load.run().out().contains("applied batches 3..3"), load.toString());
    ok("recompute", "--run", "r1", "--snapshot", "3");
    ok(
        "check",
        "--run",
        "r1",
        "--actual",
        prefix + "_r0",
        "--mode",
        "mapreduce",
        "--out",
        reports.resolve("check-r1").toString());

    writeBatch(web, 4, 100);
    Step rec = ok("reconcile", "--run", "r1", "--embedded");
    assertTrue(rec.run().out().contains("served table: " + prefix + "_r1"), rec.toString());
    assertTrue(rec.run().out().contains("dropped " + prefix + "_r0b"), rec.toString());
    ok("recompute", "--run", "r2", "--snapshot", "4");
    ok(
        "check",
        "--run",
        "r2",
        "--actual",
        prefix + "_r1",
        "--fluo",
        "--embedded",
        "--out",
        reports.resolve("check-r2").toString());
    Step top = ok("query", "top", "--limit", "3");
    assertTrue(top.run().lines().get(2).matches("\\d+\thttps?://.*"), top.toString());
    Step dump = ok("dump");
    assertTrue(dump.run().out().contains("\tpage:incount\t"), dump.toString());
  }

  private Step ok(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--conf");
    all.add(conf);
    Step step = new Step(all, Run.of(home, all));
    steps.add(step);
    assertEquals(0, step.run().status(), step.toString());
    return step;
  }

  private void writeBatch(RandomWeb web, long batch, int pages) {
    try {
      Path dir =
          Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", batch)));
      for (Map.Entry<String, String> f : web.batchFiles(batch, pages, 2).entrySet()) {
        Files.writeString(dir.resolve(f.getKey()), f.getValue());
      }
      LocalBatches.markComplete(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
