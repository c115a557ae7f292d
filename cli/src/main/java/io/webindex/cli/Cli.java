package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.KerberosLogin;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;

/**
 * What every command shares: standard output (results only) and standard error, the webindex home
 * directory (the installation or repository root that holds {@code conf/} and {@code work/}), the
 * configuration directory, configuration resolution, the Hadoop configuration of the command's
 * Tools ({@link HadoopOptions}) and the Accumulo connection.
 *
 * <p>Configuration resolution, the same for every command:
 *
 * <ol>
 *   <li>{@code --conf FILE} when given;
 *   <li>else {@code webindex.properties} in the configuration directory ({@code
 *       -Dwebindex.conf.dir}, which {@code bin/webindex} sets from {@code WEBINDEX_CONF_DIR}; else
 *       {@code <home>/conf}) if it exists;
 *   <li>else {@code <home>/work/dev/webindex.properties}, the connection file of a running {@code
 *       bin/webindex dev}, if it exists;
 *   <li>else an error that tells the operator what to do.
 * </ol>
 */
public final class Cli {
  /** A URI's scheme at the start of a typed path: two characters at least, then a colon. */
  private static final Pattern URI_SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+):");

  /** System property naming the home directory; {@code bin/webindex} sets it to the repo root. */
  public static final String HOME_PROPERTY = "webindex.home";

  /**
   * System property naming the configuration directory; {@code bin/webindex} sets it from {@code
   * WEBINDEX_CONF_DIR} (default {@code <home>/conf}).
   */
  public static final String CONF_DIR_PROPERTY = "webindex.conf.dir";

  /** The configuration an operator writes, relative to the home directory. */
  public static final String CONF_FILE = "conf/webindex.properties";

  /** Its name in the configuration directory. */
  public static final String CONF_NAME = "webindex.properties";

  /** Where {@code bin/webindex dev} runs by default, relative to the home directory. */
  public static final String DEV_DIR = "work/dev";

  /** The option every command that talks to Accumulo accepts. */
  public static final String CONF_OPTION = "conf";

  private final Path home;
  private final Path confDir;
  private final OutputStream rawOut;
  private final PrintWriter out;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);

  /** The configuration and connection of this command, loaded and opened once (by option). */
  private final Map<Optional<String>, Loaded> configs = new HashMap<>();

  private final Map<Optional<String>, Connector> connections = new HashMap<>();

  /** A configuration and the file it came from. */
  public record Loaded(WebindexConfig config, Path source) {}

  private HadoopOptions hadoop = HadoopOptions.NONE;

  public Cli(Path home, OutputStream out, OutputStream err) {
    this(home, home.resolve("conf"), out, err);
  }

  /** A context whose configuration directory is not {@code <home>/conf}. */
  public Cli(Path home, Path confDir, OutputStream out, OutputStream err) {
    this.home = home.toAbsolutePath().normalize();
    this.confDir = confDir.toAbsolutePath().normalize();
    this.rawOut = out;
    this.out = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), false);
    this.err = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
  }

  /**
   * The context of a real run: {@code -Dwebindex.home} (else the working directory), {@code
   * -Dwebindex.conf.dir} (else {@code <home>/conf}), stdout, stderr.
   */
  public static Cli standard() {
    String h = System.getProperty(HOME_PROPERTY);
    Path home = h == null || h.isEmpty() ? Paths.get("") : Paths.get(h);
    String c = System.getProperty(CONF_DIR_PROPERTY);
    Path confDir = c == null || c.isEmpty() ? home.resolve("conf") : Paths.get(c);
    // the raw descriptor, not System.out: a PrintStream hides write errors such as a closed pipe
    return new Cli(home, confDir, new FileOutputStream(FileDescriptor.out), System.err);
  }

  /** Results go here, and only results. Flushed by {@link Main} after the command. */
  public PrintWriter out() {
    return out;
  }

  /**
   * Standard output as a stream, for commands that stream large results ({@code dump}): write
   * errors such as a closed pipe surface as {@code IOException}. Flush {@link #out()} first if both
   * are used.
   */
  public OutputStream rawOut() {
    return rawOut;
  }

  /** Messages for the operator (progress, where a file went); logs go to stderr too. */
  public PrintWriter err() {
    return err;
  }

  public Path home() {
    return home;
  }

  /** Where {@code webindex.properties} is looked for when no {@code --conf} is given. */
  public Path confDir() {
    return confDir;
  }

  /** The generic Hadoop options of this command line ({@link Main} sets them). */
  void hadoopOptions(HadoopOptions options) {
    this.hadoop = options;
  }

  /**
   * The Hadoop configuration for this command's Tools: the class path's ({@code HADOOP_CONF_DIR}),
   * then the command line's {@code -conf} files and {@code -D} properties.
   */
  public Configuration hadoopConf() {
    return hadoop.configuration();
  }

  /**
   * As {@link #hadoopConf()}, but on the local file system and job runner whatever the class path
   * names: for the embedded instance of {@code demo}.
   */
  public Configuration localHadoopConf() {
    return hadoop.localConfiguration();
  }

  /**
   * A local path the operator typed: relative to the working directory, or a {@code file:} URI (as
   * the store root of {@code webindex.properties} is written, e.g. {@code file:///data/store}).
   *
   * @throws UsageException for a URI of another file system ({@code hdfs://…}): these options name
   *     a directory of the machine the command runs on
   */
  public Path userPath(String typed) {
    Matcher uri = URI_SCHEME.matcher(typed);
    if (!uri.lookingAt()) {
      return Paths.get(typed).toAbsolutePath().normalize();
    }
    String scheme = uri.group(1);
    if (!scheme.equalsIgnoreCase("file")) {
      throw new UsageException(
          typed
              + ": a directory of this machine is expected here, not a "
              + scheme
              + ": URI (write locally, then copy it there, e.g. with hadoop fs -put)");
    }
    try {
      URI u = new URI(typed);
      if (u.isOpaque() || (u.getAuthority() != null && !u.getAuthority().isEmpty())) {
        throw new URISyntaxException(typed, "an absolute path, file:///dir, is expected");
      }
      return Paths.get(u).toAbsolutePath().normalize();
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new UsageException(typed + ": not a file: URI of a local directory (file:///dir)");
    }
  }

  /**
   * Whether the embedded Accumulo of {@code dev}, {@code demo} and {@code bench} uses Accumulo's
   * native in-memory map: {@code -Dwebindex.embedded.native-map} (e.g. through {@code
   * WEBINDEX_JAVA_OPTS}) when set, else {@code webindex.embedded.native-map} in {@code
   * webindex.properties} of the configuration directory when that file has it, else true.
   *
   * @throws UsageException when the value is neither {@code true} nor {@code false}
   */
  public boolean embeddedNativeMap() {
    String key = WebindexConfig.EMBEDDED_NATIVE_MAP;
    String value = System.getProperty(key);
    String where = "-D" + key;
    Path file = confDir.resolve(CONF_NAME);
    if (value == null && Files.isRegularFile(file)) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new UsageException("cannot read " + file + ": " + e.getMessage());
      }
      value = p.getProperty(key);
      where = file.toString();
    }
    if (value == null || value.isBlank() || value.strip().equals("true")) {
      return true;
    }
    if (value.strip().equals("false")) {
      return false;
    }
    throw new UsageException(
        key + " must be true or false, not '" + value.strip() + "' (" + where + ")");
  }

  /** The default directory of {@code bin/webindex dev}. */
  public Path defaultDevDir() {
    return home.resolve(DEV_DIR);
  }

  /**
   * Resolves and loads the configuration (see the class comment).
   *
   * @param confOption the value of {@code --conf}, or null
   */
  public Loaded config(String confOption) {
    Optional<String> key = Optional.ofNullable(confOption);
    Loaded loaded = configs.get(key);
    if (loaded == null) {
      loaded = load(confOption);
      configs.put(key, loaded);
    }
    return loaded;
  }

  private Loaded load(String confOption) {
    Path file;
    if (confOption != null) {
      file = userPath(confOption);
      if (!Files.isRegularFile(file)) {
        throw new UsageException("configuration file not found: " + file);
      }
    } else if (Files.isRegularFile(confDir.resolve(CONF_NAME))) {
      file = confDir.resolve(CONF_NAME);
    } else if (Files.isRegularFile(defaultDevDir().resolve(EmbeddedAccumulo.CONNECTION_FILE))) {
      if (!DevLock.isHeld(defaultDevDir())) {
        throw new UsageException(
            "no `bin/webindex dev` is running in "
                + defaultDevDir()
                + " (its connection file is left from an earlier run): start it again, or pass"
                + " --conf FILE");
      }
      file = defaultDevDir().resolve(EmbeddedAccumulo.CONNECTION_FILE);
    } else {
      throw new UsageException(
          "no configuration: run `bin/webindex dev` in another terminal for an embedded Accumulo,"
              + " or write "
              + confDir.resolve(CONF_NAME)
              + " (see conf/webindex.properties.example), or pass --conf FILE");
    }
    WebindexConfig cfg = WebindexConfig.load(file, Map.of());
    // a configured keytab: log in once, before the first connection (docs/security.md)
    KerberosLogin.login(cfg.security(), null);
    return new Loaded(cfg, file);
  }

  /** Connects to the Accumulo the resolved configuration names. */
  public Connector connect(String confOption) {
    Optional<String> key = Optional.ofNullable(confOption);
    Connector c = connections.get(key);
    if (c == null) {
      Loaded loaded = config(confOption);
      try {
        c = AccumuloConnections.connect(loaded.config());
      } catch (StoreException e) {
        throw new StoreException(e.getMessage() + " (configuration " + loaded.source() + ")", e);
      }
      connections.put(key, c);
    }
    return c;
  }

  /** What is served, read once from the configuration's meta table. */
  public ServedState served(String confOption) {
    WebindexConfig cfg = config(confOption).config();
    return ServedState.read(new RunRegistry(connect(confOption), cfg.metaTable()), cfg);
  }

  /**
   * The table a command reads: {@code --table} when given, else the served table recorded by {@code
   * fluo-init} or {@code reconcile}.
   */
  public String tableOrServed(Optional<String> table, String confOption) {
    if (table.isPresent()) {
      return table.get();
    }
    return served(confOption)
        .table()
        .orElseThrow(
            () ->
                new UsageException(
                    "no --table given and no served table yet (bin/webindex fluo-init or reconcile"
                        + " choose one)"));
  }

  /** Blocks a long-running command ({@code dev}) until {@link #requestStop()} or interruption. */
  public void awaitStop() throws InterruptedException {
    stop.await();
  }

  /**
   * Waits up to {@code millis} for a stop request.
   *
   * @return true when a stop was requested
   */
  public boolean awaitStop(long millis) throws InterruptedException {
    return stop.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Lets {@link #awaitStop()} return; tests use it in place of Ctrl-C. */
  public void requestStop() {
    stop.countDown();
  }
}
