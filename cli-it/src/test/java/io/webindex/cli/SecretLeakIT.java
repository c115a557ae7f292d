package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.ChildProcessWatcher;
import io.webindex.testkit.SecretScan;
import io.webindex.testkit.WatchesChildProcesses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.accumulo.core.security.TablePermission;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Accumulo password never leaks: the whole cycle ({@link Cycle}: recompute, fluo-init, load,
 * check in map-reduce mode, reconcile, check of the Fluo table, query, dump; Fluo embedded) runs
 * once, as a user with only the grants of docs/permissions.md and a distinctive random password,
 * with every log of this JVM at TRACE into a file, this JVM's stdout and stderr copied, and the job
 * files Hadoop writes under its staging and local directories copied while they exist (it deletes
 * them when a job ends). Then each test looks for the password ({@link SecretScan}: in clear, hex,
 * Base64) in one place it must never reach.
 *
 * <p>The same run proves docs/permissions.md enough and not more than needed: the user is created
 * with exactly the shell commands of its "The grants" section (read from the page), it owns what it
 * made and can read nothing else; and a user without {@code System.CREATE_TABLE} fails at the first
 * step with a message that names the permission problem.
 */
@WatchesChildProcesses
class SecretLeakIT extends AccumuloITBase {
  private static String prefix;
  private static final String ALPHANUMERIC =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  /** Letters and digits only (no format escapes them), random (no earlier run's file matches). */
  private static final String SECRET = "LeakCanary" + random(14);

  private static Path dir;
  private static Path passwordFile;
  private static Path logFile;
  private static Path hadoopTmp;
  private static Path jobFiles;
  private static Path reports;
  private static List<Cycle.Step> steps;
  private static String processOutput;
  private static final SecretScan SCAN = new SecretScan(SECRET);

  @BeforeAll
  @Timeout(value = 8, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  static void runTheCycle() throws Exception {
    dir = Files.createTempDirectory(clusterDir(), "leak-");
    Grants grants = documentedGrants();
    createUser(grants.user(), SECRET, grants.system().toArray(new SystemPermission[0]));
    prefix = newTableName("leak");
    passwordFile =
        Files.createFile(
            dir.resolve("accumulo.password"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(passwordFile, SECRET + "\n");
    Path conf =
        Files.write(
            dir.resolve("webindex.properties"),
            List.of(
                WebindexConfig.INSTANCE + "=" + instanceName(),
                WebindexConfig.ZOOKEEPERS + "=" + zookeepers(),
                WebindexConfig.USER + "=" + grants.user(),
                WebindexConfig.PASSWORD_FILE + "=" + passwordFile,
                WebindexConfig.TABLE_PREFIX + "=" + prefix,
                WebindexConfig.FLUO_APP + "=" + prefix,
                WebindexConfig.STORE_ROOT + "=" + dir.resolve("store").toUri(),
                WebindexConfig.WORK_DIR + "=" + dir.resolve("work").toUri(),
                WebindexConfig.RETENTION_RUNS + "=1",
                WebindexConfig.FLUO_BUCKETS + "=4"));
    logFile = dir.resolve("all-levels.log");
    hadoopTmp = Files.createDirectories(dir.resolve("hadoop-tmp"));
    jobFiles = Files.createDirectories(dir.resolve("job-files"));
    reports = Files.createDirectories(dir.resolve("reports"));

    System.setProperty("hadoop.tmp.dir", hadoopTmp.toString());
    Configuration.addDefaultResource("webindex-it-hadoop-dirs.xml");
    ByteArrayOutputStream processBytes = new ByteArrayOutputStream();
    PrintStream out = System.out;
    PrintStream err = System.err;
    JobFileCopier copier = new JobFileCopier(hadoopTmp, jobFiles);
    try (LogCapture logs = new LogCapture(logFile)) {
      System.setOut(new PrintStream(new Tee(out, processBytes), true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(new Tee(err, processBytes), true, StandardCharsets.UTF_8));
      copier.start();
      steps = Cycle.run(dir, conf, dir.resolve("store"), reports, prefix);
    } finally {
      copier.close();
      System.setOut(out);
      System.setErr(err);
      // later classes in this JVM get Hadoop's default directories again
      System.clearProperty("hadoop.tmp.dir");
      processOutput = processBytes.toString(StandardCharsets.UTF_8);
    }
  }

  @AfterAll
  static void clearState() {
    steps = null;
    processOutput = null;
  }

  /** Every log event of the test JVM at every level, and the MiniAccumulo servers' logs. */
  @Test
  void notInAnyLog() throws IOException {
    String log = Files.readString(logFile, StandardCharsets.ISO_8859_1);
    assertTrue(log.contains(" TRACE ") && log.contains(" DEBUG "), "the capture saw every level");
    assertTrue(log.contains(" INFO  [") && log.contains("org.apache.fluo"), "and Fluo's logs");
    List<String> found = new ArrayList<>(SCAN.file(logFile));
    found.addAll(SCAN.files(clusterDir().resolve("logs"), p -> false));
    assertEquals(
        List.of(), found, "the password is in logs, e.g. in the events " + eventsWithSecret(log));
  }

  /** stdout and stderr of every command, and everything the JVM printed meanwhile. */
  @Test
  void notInCommandOutput() {
    List<String> found = new ArrayList<>();
    for (Cycle.Step s : steps) {
      found.addAll(SCAN.text(String.join(" ", s.args()) + " stdout", s.run().out()));
      found.addAll(SCAN.text(String.join(" ", s.args()) + " stderr", s.run().err()));
    }
    found.addAll(SCAN.text("System.out/System.err", processOutput));
    assertEquals(List.of(), found);
  }

  /** Every ZooKeeper node any client can read (Accumulo's protected ones too). */
  @Test
  void notInZooKeeper() {
    SecretScan.ZooKeeperWalk world = SCAN.zooKeeper(zookeepers(), null);
    assertTrue(world.nodes() > 100, "walked the whole tree: " + world);
    SecretScan.ZooKeeperWalk accumulo =
        SCAN.zooKeeper(zookeepers(), "accumulo:" + instanceSecret());
    assertTrue(
        accumulo.unreadable().stream().allMatch(p -> p.startsWith("/fluo")),
        "with the instance secret every Accumulo node is read: " + accumulo.unreadable());
    Set<String> found = new HashSet<>(world.findings());
    found.addAll(accumulo.findings());
    assertEquals(Set.of(), found, "the password is in ZooKeeper nodes");
  }

  /**
   * The job configurations and every other file the jobs wrote (staging and local directories,
   * copied while they existed), and everything left in the work directory, the store and the Hadoop
   * directories after the cycle. Only the password file webindex was configured with holds the
   * password. A Hadoop credentials file (job tokens, magic {@code HDTS}) may hold secrets: it is
   * the channel tasks should use; it is not searched, but must be readable by the owner only.
   */
  @Test
  void notInJobFiles() throws IOException {
    List<Path> copied;
    try (Stream<Path> s = Files.walk(jobFiles)) {
      copied = s.filter(Files::isRegularFile).toList();
    }
    StringBuilder confs = new StringBuilder();
    for (Path p : copied) {
      if (p.getFileName().toString().endsWith(".xml")) {
        confs.append(Files.readString(p, StandardCharsets.ISO_8859_1));
      }
    }
    assertTrue(
        copied.stream().anyMatch(p -> p.getFileName().toString().endsWith("-job.xml"))
            && copied.stream().anyMatch(p -> p.getFileName().toString().contains("-job_local")),
        "the staging job.xml and the local runner's job files were copied: " + copied);
    assertTrue(
        confs.toString().contains("<name>mapreduce.job.name</name><value>webindex recompute")
            && confs.toString().contains("<name>mapreduce.job.name</name><value>webindex check"),
        "the configurations of the recompute and check jobs were copied");
    List<String> found = new ArrayList<>();
    found.addAll(SCAN.files(jobFiles, SecretLeakIT::isCredentials));
    found.addAll(SCAN.files(hadoopTmp, SecretLeakIT::isCredentials));
    found.addAll(SCAN.files(dir.resolve("work"), SecretLeakIT::isCredentials));
    found.addAll(SCAN.files(dir.resolve("store"), p -> false));
    assertEquals(List.of(), found, "the password is in job files");
    List<String> openCredentials = new ArrayList<>();
    for (Path root : List.of(hadoopTmp, dir.resolve("work"))) {
      try (Stream<Path> s = Files.walk(root)) {
        for (Path p : s.filter(Files::isRegularFile).filter(SecretLeakIT::isCredentials).toList()) {
          if (!ownerOnly(p)) {
            openCredentials.add(p.toString());
          }
        }
      }
    }
    assertEquals(List.of(), openCredentials, "credentials files readable by others");
  }

  /** The check reports (JSON and HTML). */
  @Test
  void notInReports() throws IOException {
    try (Stream<Path> s = Files.walk(reports)) {
      assertTrue(
          s.anyMatch(p -> p.getFileName().toString().equals("check.html")), "reports written");
    }
    assertEquals(List.of(), SCAN.files(reports, p -> false));
  }

  /** Every cell of every table: the meta table, the query tables, the Fluo tables, Accumulo's. */
  @Test
  void notInAnyTable() {
    assertEquals(List.of(), SCAN.tables(connector()));
  }

  /**
   * No child process got the password, nor the root password the other tests configure, on its
   * command line or in its environment; MiniAccumulo's Initialize, which gets a root password as an
   * argument, was among them.
   */
  @Test
  void notOnAnyCommandLine() {
    List<ChildProcessWatcher.Seen> children = childProcesses();
    assertTrue(
        children.stream()
            .anyMatch(c -> c.commandLine().contains("org.apache.accumulo.server.init.Initialize")),
        "Initialize was seen: " + children);
    SecretScan root = new SecretScan(ROOT_PASSWORD);
    List<String> found = new ArrayList<>();
    for (ChildProcessWatcher.Seen c : children) {
      found.addAll(SCAN.text("command line of " + c, c.commandLine()));
      found.addAll(SCAN.text("environment of " + c, c.environment()));
      found.addAll(root.text("command line of " + c, c.commandLine()));
      found.addAll(root.text("environment of " + c, c.environment()));
    }
    assertEquals(List.of(), found);
  }

  /** The first events (their first line, and the line with the secret, which is masked). */
  private static List<String> eventsWithSecret(String log) {
    List<String> lines = log.lines().toList();
    List<String> events = new ArrayList<>();
    for (int i = 0; i < lines.size() && events.size() < 5; i++) {
      if (lines.get(i).contains(SECRET)) {
        int start = i;
        while (start > 0 && !lines.get(start).matches("\\d\\d:\\d\\d:\\d\\d,\\d{3} .*")) {
          start--;
        }
        events.add(
            shorten(lines.get(start))
                + (start == i ? "" : " … " + shorten(lines.get(i).replace(SECRET, "<password>"))));
      }
    }
    return events;
  }

  private static String shorten(String line) {
    String l = line.replace(SECRET, "<password>");
    return l.length() > 200 ? l.substring(0, 200) + "…" : l;
  }

  private static boolean isCredentials(Path p) {
    try (var in = Files.newInputStream(p)) {
      byte[] magic = in.readNBytes(4);
      return new String(magic, StandardCharsets.US_ASCII).equals("HDTS");
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean ownerOnly(Path p) throws IOException {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return true;
    }
    String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    return perms.substring(3).equals("------");
  }

  private static String random(int n) {
    SecureRandom r = new SecureRandom();
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(ALPHANUMERIC.charAt(r.nextInt(ALPHANUMERIC.length())));
    }
    return sb.toString();
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      synchronized (b) {
        b.write(c);
      }
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      synchronized (b) {
        b.write(buf, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      a.flush();
    }
  }

  /**
   * Copies every file that appears under {@code from} into {@code to} while running (Hadoop deletes
   * a job's staging and local files when it ends), again when its size or time changes.
   */
  private static final class JobFileCopier implements AutoCloseable {
    private final Path from;
    private final Path to;
    private final Set<String> copied = new HashSet<>();
    private final Thread thread;
    private volatile boolean stopped;
    private int n;

    JobFileCopier(Path from, Path to) {
      this.from = from;
      this.to = to;
      this.thread = new Thread(this::loop, "job-file-copier");
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    private void loop() {
      while (!stopped) {
        copyNew();
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    private void copyNew() {
      try (Stream<Path> s = Files.walk(from)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          try {
            if (!Files.isRegularFile(p)) {
              continue;
            }
            String key = p + " " + Files.size(p) + " " + Files.getLastModifiedTime(p);
            if (copied.add(key)) {
              Path target = to.resolve((n++) + "-" + p.getFileName());
              Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
            }
          } catch (NoSuchFileException e) {
            // gone meanwhile
          }
        }
      } catch (IOException | UncheckedIOException e) {
        // a directory went away during the walk: the next round sees the rest
      }
    }

    @Override
    public void close() throws InterruptedException {
      stopped = true;
      thread.join(TimeUnit.SECONDS.toMillis(10));
      copyNew();
    }
  }

  // --- least privilege: docs/permissions.md is enough, and not more than needed ---

  private static final Pattern CREATE_USER = Pattern.compile("createuser (\\S+)");
  private static final Pattern GRANT_SYSTEM =
      Pattern.compile("grant System\\.([A-Z_]+) -s -u (\\S+)");

  @TempDir Path tmp;

  /** The user and system permissions the shell commands of docs/permissions.md create. */
  record Grants(String user, Set<SystemPermission> system) {}

  static Grants documentedGrants() throws IOException {
    String base = System.getProperty("basedir", System.getProperty("user.dir"));
    Path doc = Path.of(base).toAbsolutePath().getParent().resolve("docs/permissions.md");
    List<String> lines = Files.readAllLines(doc);
    int section = lines.indexOf("## The grants");
    assertTrue(section >= 0, "docs/permissions.md has a section '## The grants'");
    int open = section + 1;
    while (!lines.get(open).startsWith("```")) {
      open++;
    }
    String user = null;
    Set<SystemPermission> system = EnumSet.noneOf(SystemPermission.class);
    for (int i = open + 1; !lines.get(i).startsWith("```"); i++) {
      String line = lines.get(i).strip();
      Matcher create = CREATE_USER.matcher(line);
      Matcher grant = GRANT_SYSTEM.matcher(line);
      if (create.matches()) {
        user = create.group(1);
      } else if (grant.matches() && grant.group(2).equals(user)) {
        system.add(SystemPermission.valueOf(grant.group(1)));
      } else {
        throw new AssertionError("a shell command this test does not apply: " + line);
      }
    }
    assertTrue(user != null, "the grants create a user");
    return new Grants(user, system);
  }

  @Test
  void theDocumentedGrantsRanTheWholeCycle() throws Exception {
    Grants grants = documentedGrants();
    assertEquals(
        EmbeddedAccumulo.USER_SYSTEM_PERMISSIONS,
        grants.system(),
        "the embedded instance's user has the documented grants");
    Connector user = cluster().getConnector(grants.user(), SECRET);
    for (SystemPermission p : SystemPermission.values()) {
      assertEquals(
          grants.system().contains(p),
          user.securityOperations().hasSystemPermission(grants.user(), p),
          p.toString());
    }
    // the cycle of runTheCycle ran as this user, every step successful
    assertTrue(steps.size() >= 10, steps.toString());

    // what it has, it has as the owner of its tables; a table of another user stays closed
    assertTrue(
        user.securityOperations()
            .hasTablePermission(grants.user(), prefix + "_meta", TablePermission.DROP_TABLE));
    String others = createTable("others");
    Scanner s = user.createScanner(others, Authorizations.EMPTY);
    assertThrows(RuntimeException.class, () -> s.iterator().hasNext());
    assertFalse(
        user.securityOperations().hasTablePermission(grants.user(), others, TablePermission.READ));
  }

  @Test
  void withoutCreateTableTheFirstStepFails() throws Exception {
    String name = "no_grants";
    String password = "no-grants-password";
    createUser(name, password);
    String prefix = newTableName("ng");
    Path conf = writeConf(name, password, prefix);
    Path b0 = Files.createDirectories(tmp.resolve("store/batches/00000"));
    Files.writeString(
        b0.resolve("p.jsonl"),
        "{\"url\":\"http://a.com/\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[]}\n");
    LocalBatches.markComplete(b0);
    // the recompute tool reports on System.err, not on the command's stderr
    PrintStream err = System.err;
    ByteArrayOutputStream toolErr = new ByteArrayOutputStream();
    Run r;
    try {
      System.setErr(new PrintStream(toolErr, true, StandardCharsets.UTF_8));
      r = Run.of(tmp, "recompute", "--conf", conf.toString(), "--run", "r0");
    } finally {
      System.setErr(err);
    }
    String all = r + toolErr.toString(StandardCharsets.UTF_8);
    assertEquals(2, r.status(), all);
    assertTrue(all.contains("PERMISSION_DENIED for user " + name), all);
    assertFalse(all.contains(password), all);
    assertFalse(connector().tableOperations().exists(prefix + "_meta"));
    assertFalse(connector().tableOperations().exists(prefix + "_r0"));
    assertTrue(
        cluster()
            .getConnector(name, password)
            .securityOperations()
            .authenticateUser(name, new PasswordToken(password)));
  }

  private Path writeConf(String user, String password, String prefix) throws IOException {
    Path pw =
        Files.createFile(
            tmp.resolve("accumulo.password"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(pw, password + "\n");
    List<String> lines =
        new ArrayList<>(
            List.of(
                WebindexConfig.INSTANCE + "=" + instanceName(),
                WebindexConfig.ZOOKEEPERS + "=" + zookeepers(),
                WebindexConfig.USER + "=" + user,
                WebindexConfig.PASSWORD_FILE + "=" + pw,
                WebindexConfig.TABLE_PREFIX + "=" + prefix,
                WebindexConfig.FLUO_APP + "=" + prefix,
                WebindexConfig.STORE_ROOT + "=" + tmp.resolve("store").toUri(),
                WebindexConfig.WORK_DIR + "=" + tmp.resolve("work").toUri(),
                WebindexConfig.RETENTION_RUNS + "=1",
                WebindexConfig.FLUO_BUCKETS + "=4"));
    return Files.write(tmp.resolve("webindex.properties"), lines);
  }
}
