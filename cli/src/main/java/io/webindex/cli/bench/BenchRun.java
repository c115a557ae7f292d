package io.webindex.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.webindex.cli.BuildInfo;
import io.webindex.cli.Cli;
import io.webindex.cli.EmbeddedAccumulo;
import io.webindex.cli.ScratchDirs;
import io.webindex.store.RunRecord;
import io.webindex.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bench from start to end: an embedded Accumulo in a temporary directory, the stages in their
 * order, and the figures, written to {@code DIR/bench.json} even when a stage failed.
 */
final class BenchRun {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * The figures ({@code bench.json}), where they went, whether a stage failed, and the error it
   * failed with (null when none did, or it failed a guard only).
   */
  record Result(
      Map<String, Object> figures, Path json, boolean failed, BenchHistory.Failure failure) {}

  /** The latency-under-load stage's name in {@code bench.json}. */
  static final String UNDER_LOAD = "latencyUnderLoad";

  private final Cli ctx;
  private final Steps steps;
  private final BenchOptions options;
  private final Map<String, Object> report = new LinkedHashMap<>();
  private final Map<String, Object> input = new LinkedHashMap<>();
  private final Map<String, Map<String, Object>> stages = new LinkedHashMap<>();

  /** The stage (or step between stages) running: where an error stopped the bench. */
  private String running = "start";

  BenchRun(Cli ctx, Steps steps, BenchOptions options) {
    this.ctx = ctx;
    this.steps = steps;
    this.options = options;
  }

  Result run() throws Exception {
    Files.createDirectories(options.out());
    report.put("command", "bench " + String.join(" ", options.raw()));
    report.put("commit", BuildInfo.current().commit());
    report.put("started", Instant.now().toString());
    HeapPeak heapPeak = HeapPeak.start();
    Map<String, Object> machine = Machine.describe();
    report.put("machine", machine);
    input.put("pages", options.pages());
    input.put("seed", options.seed());
    input.put("domains", options.domains());
    report.put("input", input);
    report.put("stages", stages);

    Path tmp = Files.createTempDirectory("webindex-bench-");
    boolean failed = false;
    BenchHistory.Failure failure = null;
    try (EmbeddedAccumulo accumulo = EmbeddedAccumulo.start(tmp, ctx.embeddedNativeMap())) {
      // which in-memory map the tablet server loaded, as its log says (docs/performance.md)
      machine.put("accumuloMemoryMap", accumulo.memoryMap().label());
      failed = stages(BenchEnv.of(ctx, steps, options, accumulo, tmp));
      report.put("memory", Machine.memory(heapPeak.stop(), heapPeak.peakAfterGc()));
    } catch (StepFailed | StoreException e) {
      // a step, or the latency stage's Fluo application, failed: the figures so far are written
      ctx.err().println("bench: " + e.getMessage());
      failed = true;
      failure = new BenchHistory.Failure(running, e.getMessage());
    } finally {
      ScratchDirs.release(tmp, options.keep(), ctx.err(), "bench");
    }
    report.put("finished", Instant.now().toString());
    Path json = options.out().resolve("bench.json");
    JSON.writeValue(json.toFile(), report);
    return new Result(report, json, failed, failure);
  }

  /** Runs the stages chosen; returns true when one of them failed. */
  private boolean stages(BenchEnv env) throws Exception {
    running = "input";
    InputStage.run(env, input);
    RunRecord b0 = RecomputeStage.run(env, stage("recompute"));
    boolean failed = false;
    if (options.check()) {
      failed |= CheckStage.run(env, b0, stage("check"));
    }

    // the batch the Fluo application applied last (batch 0 is in the run it starts from)
    int lastBatch = 0;
    if (options.fluo()) {
      running = "fluo-init";
      steps.status("fluo-init", "--conf", env.conf(), "--run", RecomputeStage.RUN, "--embedded");
    }
    if (options.frontierStage()) {
      // the frontier service over the recompute's run, served: by fluo-init when Fluo runs (and
      // before it changes the table), else by the served pointer alone, as a cut-over sets it
      if (!options.fluo()) {
        env.runs().serve(b0);
      }
      failed |= FrontierStage.run(env, b0, stage("frontier"));
    }
    if (options.load()) {
      lastBatch = LoadStage.run(env, stage("load"));
    }
    if (options.latency()) {
      failed |= LatencyStage.run(env, lastBatch, stage("latency"));
      lastBatch += options.samples();
    }
    if (options.latencyUnderLoad()) {
      // the deltas after those load applied, so that every version is new to the application
      int firstDelta = options.load() ? options.deltas() + 1 : 1;
      LatencyUnderLoadStage.Outcome o =
          LatencyUnderLoadStage.run(env, lastBatch, firstDelta, stage(UNDER_LOAD));
      failed |= o.failed();
      lastBatch = o.lastBatch();
    }
    if (options.fluo()) {
      // the guard: a recompute of every batch equals what Fluo made of them
      running = "guard";
      failed |= GuardStage.run(env, b0, lastBatch, stages);
    }
    return failed;
  }

  /** The figures of a stage, in the order the stages run. */
  private Map<String, Object> stage(String name) {
    Map<String, Object> figures = new LinkedHashMap<>();
    stages.put(name, figures);
    running = name;
    return figures;
  }
}
