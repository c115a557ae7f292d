package io.webindex.core.config;

import io.webindex.core.files.SecretFiles;
import io.webindex.core.frontier.ops.FrontierSettings;
import io.webindex.core.frontier.ops.QueuePriority;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.read.ReadLimits;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The whole configuration: one typed, immutable object, loaded from a properties file under {@code
 * conf/} (example: {@code conf/webindex.properties.example}) with optional overrides. Every key is
 * namespaced {@code webindex.*}. The Accumulo password comes from {@code
 * webindex.accumulo.password}, or the file named by {@code webindex.accumulo.password.file}, or the
 * environment variable {@code WEBINDEX_ACCUMULO_PASSWORD}; it is never printed ({@link #toString()}
 * masks it) and never copied into job configurations. The file is read as UTF-8; a relative {@code
 * webindex.accumulo.password.file} is relative to the file's directory, and refused when its group
 * or others may read or write it ({@link SecretFiles}). {@code webindex.accumulo.connect.timeout}
 * bounds, in seconds, how long opening a connection may wait for ZooKeeper and the tablet servers.
 * The user defaults to {@value #DEFAULT_USER}, not {@code root}. The secure-cluster keys (Kerberos,
 * SASL, SSL, TLS for the web application) are read by {@link SecurityConfig}. The crawl history
 * keeps {@code webindex.history.versions} versions per cell (1 to 1000, default 16) and schedules
 * refetches with the {@code webindex.schedule.*} constants ({@link ScheduleConfig}); the intervals
 * are durations: a whole number with a unit {@code s}, {@code m}, {@code h} or {@code d} ({@code
 * 30d}), or without one (seconds).
 */
public record WebindexConfig(
    String accumuloInstance,
    String zookeepers,
    String accumuloUser,
    Secret accumuloPassword,
    String tablePrefix,
    String storeRoot,
    String workDir,
    int recomputeTablets,
    String recomputeCompression,
    int retentionRuns,
    ReadLimits readLimits,
    int rejectSamplesPerTask,
    String fluoApp,
    int fluoBuckets,
    int connectTimeoutSeconds,
    int metricsPort,
    String metricsBind,
    Map<String, String> fluoProperties,
    SecurityConfig security,
    int historyVersions,
    ScheduleConfig schedule,
    FrontierSettings frontier,
    int frontierPort) {

  public static final String INSTANCE = "webindex.accumulo.instance";
  public static final String ZOOKEEPERS = "webindex.accumulo.zookeepers";
  public static final String USER = "webindex.accumulo.user";
  public static final String PASSWORD = "webindex.accumulo.password";
  public static final String PASSWORD_FILE = "webindex.accumulo.password.file";
  public static final String PASSWORD_ENV = "WEBINDEX_ACCUMULO_PASSWORD";

  /**
   * The Accumulo user when none is configured: the project's own user of docs/permissions.md, never
   * {@code root}.
   */
  public static final String DEFAULT_USER = "webindex";

  public static final String TABLE_PREFIX = "webindex.table.prefix";
  public static final String STORE_ROOT = "webindex.store.root";
  public static final String WORK_DIR = "webindex.work.dir";
  public static final String RECOMPUTE_TABLETS = "webindex.recompute.tablets";
  public static final String RECOMPUTE_COMPRESSION = "webindex.recompute.compression";

  /** The RFile compressions a recompute can write (Accumulo's names). */
  public static final Set<String> COMPRESSIONS = Set.of("snappy", "gz", "none");

  /**
   * The uncompressed size of an RFile data block in the Fluo seed's files and in those the Fluo
   * table's compactions write: 16 KB instead of Accumulo's 100 KB (which the query, history and
   * frontier tables' files keep: the check reads them whole, a third slower in 16 KB blocks). A
   * point read — every Fluo transaction's read and every condition its commit checks — seeks to a
   * block and then steps through its keys one by one; in 100 KB blocks that stepping was a third of
   * the tablet server's time during a load (performance.md).
   */
  public static final int RFILE_DATA_BLOCK_BYTES = 16 * 1024;

  public static final String RETENTION_RUNS = "webindex.retention.runs";
  public static final String MAX_RECORD_BYTES = "webindex.read.max.record.bytes";
  public static final String MAX_LINKS = "webindex.read.max.links";
  public static final String REJECT_SAMPLES = "webindex.rejects.samples.per.task";
  public static final String FLUO_APP = "webindex.fluo.app";
  public static final String FLUO_BUCKETS = "webindex.fluo.buckets";
  public static final String CONNECT_TIMEOUT = "webindex.accumulo.connect.timeout";

  /**
   * The port of the Prometheus endpoint ({@code /metrics}) of a headless service ({@code
   * fluo-oracle}, {@code fluo-worker}, {@code load --watch}); 0 (the default): none.
   */
  public static final String METRICS_PORT = "webindex.metrics.port";

  /** The address that endpoint listens on (default {@code 127.0.0.1}: this host only). */
  public static final String METRICS_BIND = "webindex.metrics.bind";

  /**
   * The port of the URLFrontier gRPC service ({@code frontier-serve}) when its command line names
   * none; default {@value #DEFAULT_FRONTIER_PORT}, the reference service's.
   */
  public static final String FRONTIER_PORT = "webindex.frontier.port";

  public static final int DEFAULT_FRONTIER_PORT = 7071;

  /** Versions of each history-table cell kept (crawls and urc points per URI). */
  public static final String HISTORY_VERSIONS = "webindex.history.versions";

  public static final int MAX_HISTORY_VERSIONS = 1000;

  public static final String SCHEDULE_INTERVAL_DEFAULT = "webindex.schedule.interval.default";
  public static final String SCHEDULE_INTERVAL_MIN = "webindex.schedule.interval.min";
  public static final String SCHEDULE_INTERVAL_MAX = "webindex.schedule.interval.max";
  public static final String SCHEDULE_INC_RATE = "webindex.schedule.inc.rate";
  public static final String SCHEDULE_DEC_RATE = "webindex.schedule.dec.rate";
  public static final String SCHEDULE_SYNC_DELTA = "webindex.schedule.sync.delta";
  public static final String SCHEDULE_SYNC_DELTA_RATE = "webindex.schedule.sync.delta.rate";

  /** The frontier's delay of a queue without one of its own when none was set (seconds). */
  public static final String FRONTIER_DELAY = "webindex.frontier.delay";

  /** How often the frontier re-reads the served run and its queues' heads (seconds). */
  public static final String FRONTIER_REFRESH = "webindex.frontier.refresh";

  /** The order the frontier serves queues in: criteria among due, urc, domain. */
  public static final String FRONTIER_PRIORITY = "webindex.frontier.priority";

  /**
   * Whether the embedded Accumulo of {@code dev}, {@code demo} and {@code bench} keeps its
   * in-memory map in Accumulo's native map ({@code true}, the default) or its Java map; read by the
   * command line for those commands, not by anything that connects to a cluster.
   */
  public static final String EMBEDDED_NATIVE_MAP = "webindex.embedded.native-map";

  /** Keys passed through into every Fluo configuration webindex builds (docs/metrics.md). */
  public static final String FLUO_PREFIX = "fluo.";

  /**
   * The {@code fluo.*} keys webindex sets itself (connection, credentials, the application's own
   * configuration and observers, worker threads and notification scans, the embedded runner): a
   * configuration that sets one is refused. Entries ending in {@code .} are prefixes.
   */
  public static final List<String> FLUO_RESERVED =
      List.of(
          "fluo.client.",
          "fluo.connection.",
          "fluo.accumulo.",
          "fluo.admin.",
          "fluo.app.",
          "fluo.observer.",
          "fluo.observers.",
          "fluo.mini.",
          "fluo.worker.num.threads",
          "fluo.impl.worker.finder.");

  /** A secret value whose {@code toString} never shows it. */
  public record Secret(String value) {
    @Override
    public String toString() {
      return value == null || value.isEmpty() ? "(none)" : "*****";
    }

    public boolean isPresent() {
      return value != null && !value.isEmpty();
    }
  }

  public WebindexConfig {
    Objects.requireNonNull(tablePrefix, "tablePrefix");
    if (!tablePrefix.matches("[A-Za-z][A-Za-z0-9_]{0,40}")) {
      throw new IllegalArgumentException(
          TABLE_PREFIX + " must be letters, digits, '_': " + tablePrefix);
    }
    if (recomputeTablets < 1 || recomputeTablets > 100_000) {
      throw new IllegalArgumentException(RECOMPUTE_TABLETS + " out of range: " + recomputeTablets);
    }
    if (!COMPRESSIONS.contains(recomputeCompression)) {
      throw new IllegalArgumentException(
          RECOMPUTE_COMPRESSION
              + " is one of "
              + new TreeSet<>(COMPRESSIONS)
              + ": "
              + recomputeCompression);
    }
    if (retentionRuns < 1) {
      throw new IllegalArgumentException(RETENTION_RUNS + " must be at least 1: " + retentionRuns);
    }
    if (fluoBuckets < 1) {
      throw new IllegalArgumentException(FLUO_BUCKETS + " must be at least 1: " + fluoBuckets);
    }
    Objects.requireNonNull(security, "security");
    if (connectTimeoutSeconds < 1) {
      throw new IllegalArgumentException(
          CONNECT_TIMEOUT + " must be at least 1 (seconds): " + connectTimeoutSeconds);
    }
    if (metricsPort < 0 || metricsPort > 65_535) {
      throw new IllegalArgumentException(
          METRICS_PORT + " must be between 0 (none) and 65535: " + metricsPort);
    }
    Objects.requireNonNull(metricsBind, "metricsBind");
    if (historyVersions < 1 || historyVersions > MAX_HISTORY_VERSIONS) {
      throw new IllegalArgumentException(
          HISTORY_VERSIONS
              + " must be between 1 and "
              + MAX_HISTORY_VERSIONS
              + ": "
              + historyVersions);
    }
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(frontier, "frontier");
    if (frontierPort < 0 || frontierPort > 65_535) {
      throw new IllegalArgumentException(
          FRONTIER_PORT + " must be between 0 (a free one) and 65535: " + frontierPort);
    }
    fluoProperties = Collections.unmodifiableSortedMap(new TreeMap<>(fluoProperties));
    for (String k : fluoProperties.keySet()) {
      if (!k.startsWith(FLUO_PREFIX)) {
        throw new IllegalArgumentException("not a Fluo property (fluo.*): " + k);
      }
      reservedBy(k)
          .ifPresent(
              r -> {
                throw new IllegalArgumentException(
                    "configuration key "
                        + k
                        + " is set by webindex itself ("
                        + r
                        + (r.endsWith(".") ? "*" : "")
                        + "): remove it; only other fluo.* keys, such as"
                        + " fluo.metrics.reporter.*, pass through to Fluo");
              });
    }
  }

  /**
   * The {@code fluo.*} keys under a reserved prefix that pass through all the same: the ZooKeeper
   * session timeout of every Fluo process ({@code fluo.connection.zookeeper.timeout}, in
   * milliseconds; Fluo's default 30000), which is how long a killed oracle keeps its leadership and
   * a killed process its locks before another takes over.
   */
  public static final List<String> FLUO_TUNABLE = List.of("fluo.connection.zookeeper.timeout");

  /** The reserved key or prefix ({@link #FLUO_RESERVED}) that {@code key} falls under. */
  public static Optional<String> reservedBy(String key) {
    if (FLUO_TUNABLE.contains(key)) {
      return Optional.empty();
    }
    return FLUO_RESERVED.stream()
        .filter(r -> r.endsWith(".") ? key.startsWith(r) : key.equals(r))
        .findFirst();
  }

  /** Loads a properties file; {@code overrides} win over the file. */
  public static WebindexConfig load(Path file, Map<String, String> overrides) {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read configuration " + file + ": " + e.getMessage(), e);
    }
    Map<String, String> m = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k).strip()));
    m.putAll(overrides);
    // a relative file name is relative to the configuration file, not the working directory
    Path dir = file.toAbsolutePath().getParent();
    Set<String> pathKeys = new TreeSet<>(SecurityConfig.PATH_KEYS);
    pathKeys.add(PASSWORD_FILE);
    for (String key : pathKeys) {
      String v = m.get(key);
      if (v != null && !v.isEmpty() && !Path.of(v).isAbsolute()) {
        m.put(key, dir.resolve(v).toString());
      }
    }
    return fromMap(m, System.getenv());
  }

  /** Builds a configuration from keys (missing keys take their defaults) and an environment. */
  public static WebindexConfig fromMap(Map<String, String> m, Map<String, String> env) {
    for (String k : m.keySet()) {
      if (k.startsWith("webindex.") && !KNOWN.contains(k) && !SecurityConfig.KEYS.contains(k)) {
        throw new IllegalArgumentException("unknown configuration key " + k);
      }
    }
    String password = m.get(PASSWORD);
    if ((password == null || password.isEmpty()) && m.containsKey(PASSWORD_FILE)) {
      password = SecretFiles.read(Path.of(m.get(PASSWORD_FILE)), PASSWORD_FILE);
    }
    if (password == null || password.isEmpty()) {
      password = env.get(PASSWORD_ENV);
    }
    return new WebindexConfig(
        m.getOrDefault(INSTANCE, ""),
        m.getOrDefault(ZOOKEEPERS, ""),
        m.getOrDefault(USER, DEFAULT_USER),
        new Secret(password == null ? "" : password),
        m.getOrDefault(TABLE_PREFIX, "webindex"),
        m.getOrDefault(STORE_ROOT, ""),
        m.getOrDefault(WORK_DIR, ""),
        intValue(m, RECOMPUTE_TABLETS, 4),
        m.getOrDefault(RECOMPUTE_COMPRESSION, "snappy"),
        intValue(m, RETENTION_RUNS, 3),
        new ReadLimits(
            bounded(
                m,
                MAX_RECORD_BYTES,
                ReadLimits.DEFAULT.maxRecordBytes(),
                ReadLimits.MIN_RECORD_BYTES,
                ReadLimits.MAX_RECORD_BYTES,
                " (256 MiB: one record is held in memory whole)"),
            bounded(m, MAX_LINKS, ReadLimits.DEFAULT.maxLinks(), 1, ReadLimits.MAX_LINKS, "")),
        intValue(m, REJECT_SAMPLES, 100),
        m.getOrDefault(FLUO_APP, "webindex"),
        intValue(m, FLUO_BUCKETS, 16),
        intValue(m, CONNECT_TIMEOUT, 60),
        intValue(m, METRICS_PORT, 0),
        m.getOrDefault(METRICS_BIND, "127.0.0.1"),
        fluoKeys(m),
        SecurityConfig.fromMap(m, env),
        bounded(m, HISTORY_VERSIONS, 16, 1, MAX_HISTORY_VERSIONS, ""),
        schedule(m),
        new FrontierSettings(
            bounded(m, FRONTIER_DELAY, FrontierSettings.DEFAULT.delaySeconds(), 0, 86_400, ""),
            bounded(m, FRONTIER_REFRESH, FrontierSettings.DEFAULT.refreshSeconds(), 1, 3_600, ""),
            priority(m)),
        intValue(m, FRONTIER_PORT, DEFAULT_FRONTIER_PORT));
  }

  /** The frontier's queue order; a bad one is a configuration error naming its key. */
  private static List<QueuePriority> priority(Map<String, String> m) {
    String v = m.get(FRONTIER_PRIORITY);
    if (v == null || v.isBlank()) {
      return QueuePriority.DEFAULT;
    }
    try {
      return QueuePriority.parse(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(FRONTIER_PRIORITY + ": " + e.getMessage(), e);
    }
  }

  /** The schedule constants; a bad one is a configuration error naming its key. */
  private static ScheduleConfig schedule(Map<String, String> m) {
    ScheduleConfig d = ScheduleConfig.DEFAULT;
    long dflt = seconds(m, SCHEDULE_INTERVAL_DEFAULT, d.defaultIntervalSeconds());
    long min = seconds(m, SCHEDULE_INTERVAL_MIN, d.minIntervalSeconds());
    long max = seconds(m, SCHEDULE_INTERVAL_MAX, d.maxIntervalSeconds());
    double inc = rate(m, SCHEDULE_INC_RATE, d.incRate());
    double dec = rate(m, SCHEDULE_DEC_RATE, d.decRate());
    boolean sync = bool(m, SCHEDULE_SYNC_DELTA, d.syncDelta());
    double syncRate = rate(m, SCHEDULE_SYNC_DELTA_RATE, d.syncDeltaRate());
    if (min > dflt || dflt > max) {
      throw new IllegalArgumentException(
          SCHEDULE_INTERVAL_MIN
              + " <= "
              + SCHEDULE_INTERVAL_DEFAULT
              + " <= "
              + SCHEDULE_INTERVAL_MAX
              + " must hold: "
              + min
              + " s, "
              + dflt
              + " s, "
              + max
              + " s");
    }
    return new ScheduleConfig(dflt, min, max, inc, dec, sync, syncRate);
  }

  /** Longest schedule interval accepted: 100 years. */
  private static final long MAX_INTERVAL_SECONDS = 100L * 365 * ScheduleConfig.DAY;

  /** A duration {@code <n>[s|m|h|d]} (no unit: seconds), 1 s to 100 years, in seconds. */
  static long seconds(Map<String, String> m, String key, long dflt) {
    String v = m.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    String s = v.strip().toLowerCase(java.util.Locale.ROOT);
    long unit = 1;
    char last = s.charAt(s.length() - 1);
    if ("smhd".indexOf(last) >= 0) {
      unit = last == 's' ? 1 : last == 'm' ? 60 : last == 'h' ? 3600 : ScheduleConfig.DAY;
      s = s.substring(0, s.length() - 1);
    }
    long n;
    try {
      n = Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + " is not a duration (a whole number with s, m, h or d, e.g. 30d): " + v);
    }
    if (n < 1 || n > MAX_INTERVAL_SECONDS / unit) {
      throw new IllegalArgumentException(key + " must be between 1 s and 100 years: " + v);
    }
    return n * unit;
  }

  /** A rate in {@code [0, 1)}. */
  private static double rate(Map<String, String> m, String key, double dflt) {
    String v = m.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    double r;
    try {
      r = Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a number: " + v);
    }
    if (!(r >= 0 && r < 1)) {
      throw new IllegalArgumentException(key + " must be at least 0 and less than 1: " + v);
    }
    return r;
  }

  private static boolean bool(Map<String, String> m, String key, boolean dflt) {
    String v = m.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    return switch (v.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + " is true or false: " + v);
    };
  }

  private static Map<String, String> fluoKeys(Map<String, String> m) {
    Map<String, String> f = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          if (k.startsWith(FLUO_PREFIX)) {
            f.put(k, v);
          }
        });
    return f;
  }

  private static final Set<String> KNOWN =
      Set.of(
          INSTANCE,
          ZOOKEEPERS,
          USER,
          PASSWORD,
          PASSWORD_FILE,
          TABLE_PREFIX,
          STORE_ROOT,
          WORK_DIR,
          RECOMPUTE_TABLETS,
          RECOMPUTE_COMPRESSION,
          RETENTION_RUNS,
          MAX_RECORD_BYTES,
          MAX_LINKS,
          REJECT_SAMPLES,
          FLUO_APP,
          FLUO_BUCKETS,
          CONNECT_TIMEOUT,
          METRICS_PORT,
          METRICS_BIND,
          HISTORY_VERSIONS,
          SCHEDULE_INTERVAL_DEFAULT,
          SCHEDULE_INTERVAL_MIN,
          SCHEDULE_INTERVAL_MAX,
          SCHEDULE_INC_RATE,
          SCHEDULE_DEC_RATE,
          SCHEDULE_SYNC_DELTA,
          SCHEDULE_SYNC_DELTA_RATE,
          FRONTIER_DELAY,
          FRONTIER_REFRESH,
          FRONTIER_PRIORITY,
          FRONTIER_PORT,
          EMBEDDED_NATIVE_MAP);

  /**
   * A whole number in {@code [min, max]}; anything else is a configuration error naming the key.
   */
  private static int bounded(
      Map<String, String> m, String key, int dflt, int min, int max, String why) {
    String v = m.get(key);
    long n;
    if (v == null || v.isEmpty()) {
      n = dflt;
    } else {
      try {
        n = Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " is not a whole number: " + v);
      }
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          key + " must be between " + min + " and " + max + why + ": " + v);
    }
    return (int) n;
  }

  private static int intValue(Map<String, String> m, String key, int dflt) {
    String v = m.get(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a whole number: " + v);
    }
  }

  /**
   * The configuration as properties, without the password (for run records, job configurations and
   * connection files that name a password file instead).
   */
  public Map<String, String> toMapWithoutSecrets() {
    Map<String, String> m = new TreeMap<>();
    m.put(INSTANCE, accumuloInstance);
    m.put(ZOOKEEPERS, zookeepers);
    m.put(USER, accumuloUser);
    m.put(TABLE_PREFIX, tablePrefix);
    m.put(STORE_ROOT, storeRoot);
    m.put(WORK_DIR, workDir);
    m.put(RECOMPUTE_TABLETS, Integer.toString(recomputeTablets));
    m.put(RECOMPUTE_COMPRESSION, recomputeCompression);
    m.put(RETENTION_RUNS, Integer.toString(retentionRuns));
    m.put(MAX_RECORD_BYTES, Integer.toString(readLimits.maxRecordBytes()));
    m.put(MAX_LINKS, Integer.toString(readLimits.maxLinks()));
    m.put(REJECT_SAMPLES, Integer.toString(rejectSamplesPerTask));
    m.put(FLUO_APP, fluoApp);
    m.put(FLUO_BUCKETS, Integer.toString(fluoBuckets));
    m.put(CONNECT_TIMEOUT, Integer.toString(connectTimeoutSeconds));
    m.put(METRICS_PORT, Integer.toString(metricsPort));
    m.put(METRICS_BIND, metricsBind);
    m.put(HISTORY_VERSIONS, Integer.toString(historyVersions));
    m.put(SCHEDULE_INTERVAL_DEFAULT, schedule.defaultIntervalSeconds() + "s");
    m.put(SCHEDULE_INTERVAL_MIN, schedule.minIntervalSeconds() + "s");
    m.put(SCHEDULE_INTERVAL_MAX, schedule.maxIntervalSeconds() + "s");
    m.put(SCHEDULE_INC_RATE, Double.toString(schedule.incRate()));
    m.put(SCHEDULE_DEC_RATE, Double.toString(schedule.decRate()));
    m.put(SCHEDULE_SYNC_DELTA, Boolean.toString(schedule.syncDelta()));
    m.put(SCHEDULE_SYNC_DELTA_RATE, Double.toString(schedule.syncDeltaRate()));
    m.put(FRONTIER_DELAY, Integer.toString(frontier.delaySeconds()));
    m.put(FRONTIER_REFRESH, Integer.toString(frontier.refreshSeconds()));
    m.put(FRONTIER_PRIORITY, QueuePriority.format(frontier.priority()));
    m.put(FRONTIER_PORT, Integer.toString(frontierPort));
    // Fluo keys named *password* or *secret* stay out, like the Accumulo password
    fluoProperties.forEach(
        (k, v) -> {
          if (!SECRET_NAME.matcher(k).find()) {
            m.put(k, v);
          }
        });
    m.putAll(security.toMap());
    return m;
  }

  private static final java.util.regex.Pattern SECRET_NAME =
      java.util.regex.Pattern.compile("(?i)password|secret|token|keytab");

  /** The rule new histories are kept by: {@link #historyVersions} and {@link #schedule}. */
  public HistorySettings historySettings() {
    return new HistorySettings(historyVersions, schedule);
  }

  /** The name of the run-metadata table. */
  public String metaTable() {
    return tablePrefix + "_meta";
  }

  /** The name of the history table of a run (its query table's, {@code <table>_history}). */
  public String historyTable(String runId) {
    return io.webindex.core.schema.HistorySchema.historyTable(runTable(runId));
  }

  /** The name of the query table of a run. */
  public String runTable(String runId) {
    return tablePrefix + "_" + runId;
  }
}
