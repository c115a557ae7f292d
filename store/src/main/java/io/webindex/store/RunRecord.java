package io.webindex.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a recompute run recorded: its id, status, snapshot (highest batch read), the query table it
 * produced, the batch directories it read, its counters, where its Fluo seed files are, its timing
 * and, for a failure, what failed, the Fluo bucket count its seed was laid out with (0: not
 * recorded), and the version of webindex that recomputed it and wrote its seed ({@code ""}: a run
 * recorded before versions were). Later steps (check, cut-over, retention) read these.
 */
public record RunRecord(
    String runId,
    Status status,
    long snapshot,
    String table,
    Instant started,
    Instant finished,
    List<String> inputs,
    Map<String, Long> counters,
    String seedDir,
    String workDir,
    String message,
    int fluoBuckets,
    String version) {

  /** The life of a run. */
  public enum Status {
    RUNNING,
    SUCCEEDED,
    FAILED,
    /** Its table and files were removed by retention (the record stays as history). */
    DROPPED
  }

  public RunRecord {
    version = version == null ? "" : version;
    inputs = List.copyOf(inputs);
    counters = Map.copyOf(counters);
  }

  public RunRecord finish(Status s, Instant when, Map<String, Long> finalCounters, String msg) {
    return new RunRecord(
        runId,
        s,
        snapshot,
        table,
        started,
        when,
        inputs,
        finalCounters,
        seedDir,
        workDir,
        msg,
        fluoBuckets,
        version);
  }
}
