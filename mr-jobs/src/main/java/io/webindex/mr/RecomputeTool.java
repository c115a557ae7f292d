package io.webindex.mr;

import io.webindex.core.args.Args;
import io.webindex.core.args.ArgsException;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.exit.ExitStatus;
import io.webindex.store.JobSecrets;
import io.webindex.store.RunRecord;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code recompute}: recomputes the whole query table from every batch {@code <= S} of the raw page
 * store into a fresh, pre-split table {@code <prefix>_<run>}, plus the Fluo seed files, and records
 * the run in {@code <prefix>_meta}. Three MapReduce jobs (latest versions → per URI → sort and
 * write RFiles), each checked before the next; then the table is created with split points sampled
 * from the data and the RFiles are bulk imported. Nothing live is touched, and a failed run drops
 * its table and is recorded as FAILED with the failed task's exception. The same run id again
 * cleans up a FAILED attempt and starts over; a RUNNING one (a killed process) only with {@code
 * --restart}; a SUCCEEDED one never. The Accumulo password stays in the driver: a webindex password
 * key in the Hadoop configuration is refused, and every job is scrubbed of such keys ({@link
 * JobSecrets}).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs.jar io.webindex.mr.RecomputeTool \
 *     [--webindex-conf FILE] [--snapshot S] [--run ID [--restart]] [-D webindex.key=value ...]
 * </pre>
 */
public final class RecomputeTool extends Configured implements Tool {
  private static final Logger log = LoggerFactory.getLogger(RecomputeTool.class);
  private static final DateTimeFormatter RUN_ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** Exit status of a usage or configuration error. */
  public static final int USAGE = ExitStatus.USAGE;

  private final PrintStream out;
  private Consumer<? super Job> beforeSubmit = job -> {};

  public RecomputeTool() {
    this(System.out);
  }

  public RecomputeTool(PrintStream out) {
    this.out = out;
  }

  /**
   * Shows each MapReduce job to {@code observer} just before it is submitted (its secrets already
   * stripped): for tests and tooling that inspect what a job carries.
   */
  public RecomputeTool beforeSubmit(Consumer<? super Job> observer) {
    this.beforeSubmit = observer;
    return this;
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("recompute", new RecomputeTool(), args);
  }

  static String usage() {
    return "usage: recompute [--webindex-conf FILE] [--snapshot S] [--run ID [--restart]]"
        + " [-D webindex.key=value ...]";
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      JobSecrets.refuse(getConf());
      return parseAndRun(args);
    } catch (UserError e) {
      return usageError(e.getMessage());
    } catch (Exception e) {
      int status = ToolMain.fail("recompute", e, System.err);
      if (e instanceof IllegalArgumentException) {
        System.err.println(usage());
      }
      return status;
    }
  }

  private int parseAndRun(String[] args) throws Exception {
    Args a = parse(args);
    if (a.helpRequested()) {
      out.println(usage());
      return 0;
    }
    WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.");
    String runId = a.value("run").orElseGet(() -> RUN_ID.format(Instant.now()));
    Long snapshot = a.has("snapshot") ? a.longValue("snapshot", 0) : null;
    Optional<RunRecord> done =
        new Recompute(getConf(), out, beforeSubmit).run(cfg, snapshot, runId, a.has("restart"));
    done.ifPresent(r -> lastRun = r);
    return done.isPresent() ? ExitStatus.OK : ExitStatus.INTERNAL;
  }

  /**
   * Checks the tool's own arguments (after Hadoop's generic options {@code -D}, {@code -conf}, …)
   * exactly as {@link #run} reads them, without reading a configuration or touching anything:
   * throws {@link IllegalArgumentException}, with the message {@code run} prints, for arguments
   * that {@code run} refuses with exit status 2. For schedulers' definitions (the Oozie workflow's
   * test).
   */
  public static void parseArgs(String[] args) {
    parse(args);
  }

  static Args parse(String[] args) {
    Args a = ToolConfig.args(args, Set.of("snapshot", "run"), Set.of("restart"));
    if (a.helpRequested()) {
      return a;
    }
    a.longValue("snapshot", 0);
    String runId = a.value("run").orElse(null);
    if (runId != null && !runId.matches("[A-Za-z0-9_]{1,40}")) {
      throw new ArgsException("--run takes letters, digits and '_': " + runId);
    }
    if (a.has("restart") && runId == null) {
      throw new ArgsException("--restart needs the --run it restarts");
    }
    return a;
  }

  private int usageError(String message) {
    System.err.println("recompute: " + message);
    System.err.println(usage());
    return USAGE;
  }

  /** The record of the run this tool completed last (empty before one succeeded). */
  public java.util.Optional<RunRecord> lastRun() {
    return java.util.Optional.ofNullable(lastRun);
  }

  private RunRecord lastRun;
}
