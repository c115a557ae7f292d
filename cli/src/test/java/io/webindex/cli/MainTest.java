package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.args.Args;
import io.webindex.core.args.ArgsException;
import io.webindex.store.StoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a cluster: usage, argument errors, configuration resolution. */
class MainTest {
  @TempDir Path home;

  /** A user error: status 2, nothing on stdout, exactly one 'webindex: ' line on stderr. */
  private static void assertUserError(Run r, String fragment) {
    assertEquals(2, r.status(), r.toString());
    assertEquals("", r.out(), r.toString());
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r.toString());
    assertTrue(lines.get(0).startsWith("webindex: "), r.toString());
    assertTrue(lines.get(0).contains(fragment), "expected '" + fragment + "' in " + r);
  }

  @Test
  void helpListsEveryCommand() {
    Run r = Run.of(home, "help");
    assertEquals(0, r.status(), r.toString());
    for (String c : List.of("dev", "dump", "query", "help")) {
      assertTrue(r.out().contains("\n  " + c + " "), c + " missing in\n" + r.out());
    }
    assertEquals("", r.err());
    assertEquals(r.out(), Main.usage());
    for (Command c : Main.commands()) {
      assertTrue(c.summary().length() < 72, c.name() + ": summary too long for one line");
      assertFalse(c.summary().contains("\n"));
    }
  }

  @Test
  void noArgumentsPrintUsageToStderr() {
    Run r = Run.of(home);
    assertEquals(2, r.status());
    assertEquals("", r.out());
    assertEquals(Main.usage(), r.err());
  }

  @Test
  void commandHelp() {
    for (Command c : Main.commands()) {
      Run viaHelp = Run.of(home, "help", c.name());
      assertEquals(0, viaHelp.status());
      assertEquals(c.usage(), viaHelp.out());
      assertTrue(c.usage().startsWith("usage: bin/webindex " + c.name()), c.usage());
      Run viaFlag = Run.of(home, c.name(), "--help");
      assertEquals(0, viaFlag.status());
      assertEquals(c.usage(), viaFlag.out());
    }
    assertUserError(Run.of(home, "help", "nope"), "unknown command 'nope'");
  }

  @Test
  void unknownCommand() {
    assertUserError(Run.of(home, "frobnicate"), "unknown command 'frobnicate'");
  }

  @Test
  void queryArgumentErrors() {
    assertUserError(Run.of(home, "query"), "missing question");
    assertUserError(Run.of(home, "query", "bottom", "--table", "t"), "unknown question 'bottom'");
    // without --table the served table is read, which needs a configuration
    assertUserError(Run.of(home, "query", "top"), "no configuration");
    assertUserError(Run.of(home, "query", "top", "extra", "--table", "t"), "unexpected argument");
    assertUserError(Run.of(home, "query", "domain", "--table", "t"), "missing <domain>");
    assertUserError(Run.of(home, "query", "inlinks", "--table", "t"), "missing <url>");
    assertUserError(
        Run.of(home, "query", "top", "--table", "t", "--limit", "ten"), "must be a whole number");
    assertUserError(Run.of(home, "query", "top", "--table", "t", "--limit", "0"), "between 1");
    assertUserError(Run.of(home, "query", "top", "--table", "t", "--table", "u"), "given twice");
    assertUserError(Run.of(home, "query", "top", "--tabel", "t"), "unknown option --tabel");
    assertUserError(Run.of(home, "query", "top", "--table"), "--table needs a value");
    assertUserError(Run.of(home, "query", "top", "-x"), "unknown option -x");
    assertTrue(Run.of(home, "query", "top").err().contains("(see bin/webindex help query)"));
  }

  @Test
  void dumpAndDevArgumentErrors() {
    assertUserError(Run.of(home, "dump"), "no configuration");
    assertUserError(Run.of(home, "dump", "t"), "unexpected argument 't'");
    assertUserError(Run.of(home, "dump", "--table=t", "--out"), "--out needs a value");
    assertUserError(Run.of(home, "dev", "--dir"), "--dir needs a value");
    assertUserError(Run.of(home, "dev", "now"), "unexpected argument 'now'");
  }

  @Test
  void withoutAnyConfigurationTheOperatorIsToldWhatToDo() {
    Run r = Run.of(home, "query", "top", "--table", "t");
    assertUserError(r, "no configuration");
    assertTrue(r.err().contains("bin/webindex dev"), r.err());
    assertTrue(r.err().contains("conf/webindex.properties"), r.err());
    assertUserError(Run.of(home, "dump", "--table", "t"), "no configuration");
  }

  @Test
  void missingOrBrokenConfFile() throws IOException {
    assertUserError(
        Run.of(home, "dump", "--table", "t", "--conf", home.resolve("nope.properties").toString()),
        "configuration file not found");
    Path bad = home.resolve("bad.properties");
    Files.writeString(bad, "webindex.accumulo.instanse=x\n");
    assertUserError(
        Run.of(home, "dump", "--table", "t", "--conf", bad.toString()),
        "unknown configuration key webindex.accumulo.instanse");
    Path noPassword = home.resolve("nopw.properties");
    Files.writeString(
        noPassword,
        "webindex.accumulo.instance=i\nwebindex.accumulo.zookeepers=localhost:1\n"
            + "webindex.accumulo.password.file="
            + home.resolve("missing.password")
            + "\n");
    assertUserError(
        Run.of(home, "dump", "--table", "t", "--conf", noPassword.toString()), "cannot read");
  }

  @Test
  void confUnderHomeIsUsedBeforeTheDevInstance() throws IOException {
    Files.createDirectories(home.resolve("conf"));
    // a configuration without an instance: proves which file was read without any cluster
    Files.writeString(home.resolve(Cli.CONF_FILE), "webindex.table.prefix=x\n");
    Path dev = home.resolve(Cli.DEV_DIR);
    Files.createDirectories(dev);
    Files.writeString(dev.resolve(EmbeddedAccumulo.CONNECTION_FILE), "webindex.table.prefix=y\n");
    Run r = Run.of(home, "query", "top", "--table", "t");
    assertUserError(r, "no Accumulo instance configured");
    assertTrue(r.err().contains(home.resolve(Cli.CONF_FILE).toString()), r.err());
  }

  @Test
  void aDevConnectionFileWithoutARunningDevIsStale() throws IOException {
    Path dev = home.resolve(Cli.DEV_DIR);
    Files.createDirectories(dev);
    Files.writeString(dev.resolve(EmbeddedAccumulo.CONNECTION_FILE), "webindex.table.prefix=y\n");
    assertUserError(
        Run.of(home, "query", "top", "--table", "t"), "no `bin/webindex dev` is running");
    Files.writeString(dev.resolve(DevLock.FILE), "12345\n");
    assertUserError(
        Run.of(home, "query", "top", "--table", "t"), "no `bin/webindex dev` is running");
  }

  @Test
  void devRefusesADirectoryInUse() throws IOException {
    Path dir = home.resolve("inuse");
    try (DevLock lock = DevLock.acquire(dir)) {
      assertTrue(lock != null && DevLock.isHeld(dir));
      assertUserError(
          Run.of(home, "dev", "--dir", dir.toString()), "already running in " + dir.toString());
    }
    assertFalse(DevLock.isHeld(dir));
  }

  @Test
  void args() {
    Args a =
        Args.parse(
            List.of("top", "--limit=5", "--after", "abc", "-", "--", "--table"),
            Set.of("limit", "after", "table"),
            Set.of("verbose"));
    assertEquals(List.of("top", "-", "--table"), a.positionals());
    assertEquals(5, a.intValue("limit", 10));
    assertEquals("abc", a.value("after").orElseThrow());
    assertFalse(a.has("table"));
    assertEquals(10, Args.parse(List.of(), Set.of("limit"), Set.of()).intValue("limit", 10));
    assertTrue(Args.parse(List.of("--verbose"), Set.of(), Set.of("verbose")).has("verbose"));
    assertThrows(
        ArgsException.class, () -> Args.parse(List.of("--verbose=1"), Set.of(), Set.of("verbose")));
    assertThrows(
        ArgsException.class, () -> Args.parse(List.of("--limit="), Set.of("limit"), Set.of()));
  }

  @Test
  void embeddedNeedsTheJdkOptions() {
    EmbeddedAccumulo.checkJdkOptions(String.join(" ", EmbeddedAccumulo.REQUIRED_JDK_OPTIONS));
    EmbeddedAccumulo.checkJdkOptions(
        "-Xss2m " + String.join("  ", EmbeddedAccumulo.REQUIRED_JDK_OPTIONS) + " -Dx=y");
    StoreException e =
        assertThrows(
            StoreException.class,
            () -> EmbeddedAccumulo.checkJdkOptions("-XX:+IgnoreUnrecognizedVMOptions"));
    assertTrue(e.getMessage().contains("zookeeper.4lw.commands.whitelist"), e.getMessage());
    assertThrows(StoreException.class, () -> EmbeddedAccumulo.checkJdkOptions(null));
    // without them (bin/webindex sets none), start() runs the cluster in a host JVM
    assertEquals(EmbeddedAccumulo.REQUIRED_JDK_OPTIONS, EmbeddedAccumulo.missingJdkOptions(null));
    assertEquals(
        List.of("-Dzookeeper.admin.enableServer=false"),
        EmbeddedAccumulo.missingJdkOptions(
            "-XX:+IgnoreUnrecognizedVMOptions -Dzookeeper.4lw.commands.whitelist=*"));
  }

  @Test
  void embeddedServersCompileWithC1UnlessTheCallerChose() {
    assertEquals(List.of("-XX:TieredStopAtLevel=1"), EmbeddedAccumulo.serverJitOptions(null));
    assertEquals(
        List.of("-XX:TieredStopAtLevel=1"), EmbeddedAccumulo.serverJitOptions("-Xss2m -Dx=y"));
    // a compiler named by the caller's JDK_JAVA_OPTIONS stands (it comes first, ours would win)
    assertEquals(List.of(), EmbeddedAccumulo.serverJitOptions("-XX:TieredStopAtLevel=4"));
    assertEquals(List.of(), EmbeddedAccumulo.serverJitOptions("-Xss2m -XX:-TieredCompilation"));
  }

  @Test
  void connectionFileValuesReadBackUnchanged() throws IOException {
    for (String v : List.of("/tmp/a b/c", "C:\\dir\\x", " lead", "caf\u00e9/\u4e16", "a=b:c#d")) {
      Properties p = new Properties();
      p.load(new StringReader("k=" + EmbeddedAccumulo.escapeValue(v) + "\n"));
      assertEquals(v, p.getProperty("k"));
    }
    Path store = home.resolve("store");
    Files.createDirectories(store);
    String uri = EmbeddedAccumulo.fileUri(store);
    assertTrue(uri.startsWith("file:///"), uri);
    assertFalse(uri.endsWith("/"), uri);
  }

  /** docs/cli.md shows {@code bin/webindex help} and every command's help verbatim. */
  @Test
  void docsShowTheExactHelp() throws IOException {
    String base = System.getProperty("basedir", System.getProperty("user.dir"));
    Path doc = Path.of(base).toAbsolutePath().getParent().resolve("docs/cli.md");
    String text = Files.readString(doc);
    assertTrue(
        text.contains("```\n" + Main.usage() + "```"),
        "docs/cli.md must show the output of `bin/webindex help` verbatim in a code block");
    for (Command c : Main.commands()) {
      assertTrue(
          text.contains("```\n" + c.usage() + "```"),
          "docs/cli.md must show `bin/webindex help " + c.name() + "` verbatim in a code block");
    }
  }

  /** A command that fails unexpectedly: status 4, its stack trace logged, one line on stderr. */
  @Test
  void unexpectedFailuresExitFour() {
    Command broken =
        new Command() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public String summary() {
            return "fails";
          }

          @Override
          public String usage() {
            return "usage: bin/webindex broken\n";
          }

          @Override
          public int run(List<String> args, Cli ctx) {
            throw new IllegalStateException("a bug");
          }
        };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(List.of("broken"), new Cli(home, out, err), List.of(broken));
    assertEquals(ExitCodes.FAILED, status, "a bug is never the verdict 1");
    assertEquals(0, out.size());
    assertEquals(
        "webindex: unexpected failure of broken: java.lang.IllegalStateException: a bug\n",
        err.toString(StandardCharsets.UTF_8));
  }

  /** The root pom's own version, read as text: where the build takes the version from. */
  private static String pomVersion() throws IOException {
    String pom = Files.readString(Path.of("../pom.xml"));
    String after = pom.substring(pom.indexOf("<artifactId>webindex-parent</artifactId>"));
    return after.substring(after.indexOf("<version>") + 9, after.indexOf("</version>"));
  }

  @Test
  void versionPrintsTheBuildsVersionAndStacks() throws IOException {
    String pom = Files.readString(Path.of("../pom.xml"));
    String expected =
        "webindex "
            + pomVersion()
            + "\nbuilt against Accumulo "
            + property(pom, "accumulo.version")
            + ", Fluo "
            + property(pom, "fluo.version")
            + ", Hadoop "
            + property(pom, "hadoop.version")
            + "\n";
    // the commit, as git itself tells it (this test runs in the checkout the build was made from)
    String head = gitHead();
    for (String word : List.of("--version", "version")) {
      Run r = Run.of(home, word);
      assertEquals(0, r.status(), r.toString());
      assertTrue(r.out().startsWith(expected), r.out());
      String commitLine = r.out().substring(expected.length());
      if (head.isEmpty()) {
        assertEquals("built from commit unknown (not built from a git checkout)\n", commitLine);
      } else {
        assertTrue(commitLine.startsWith("built from commit " + head + " (20"), commitLine);
        assertTrue(commitLine.endsWith(")\n"), commitLine);
      }
      assertEquals("", r.err());
    }
    assertUserError(Run.of(home, "version", "now"), "version takes no arguments");
  }

  /** {@code git rev-parse HEAD} of this checkout, or empty outside one (or without git). */
  private static String gitHead() {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(false).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && out.matches("[0-9a-f]{40}") ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static String property(String pom, String name) {
    int start = pom.indexOf("<" + name + ">") + name.length() + 2;
    return pom.substring(start, pom.indexOf("</" + name + ">"));
  }

  @Test
  void theConfigurationDirectoryIsWhereWebindexPropertiesIsLookedFor() throws IOException {
    Path confDir = Files.createDirectories(home.resolve("etc-webindex"));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    Cli ctx = new Cli(home, confDir, out, err);
    assertEquals(2, Main.run(List.of("query", "top", "--table", "t"), ctx));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("write " + confDir.resolve("webindex.properties")),
        err.toString(StandardCharsets.UTF_8));
    // <home>/conf is not read when another directory is named
    Files.createDirectories(home.resolve("conf"));
    Files.writeString(home.resolve(Cli.CONF_FILE), "webindex.table.prefix=x\n");
    Files.writeString(confDir.resolve(Cli.CONF_NAME), "webindex.table.prefix=y\n");
    err.reset();
    assertEquals(2, Main.run(List.of("query", "top", "--table", "t"), ctx));
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(e.contains("no Accumulo instance configured"), e);
    assertTrue(e.contains(confDir.resolve(Cli.CONF_NAME).toString()), e);
  }

  @Test
  void genericHadoopOptionsReachTheTools() throws IOException {
    Files.createDirectories(home.resolve("conf"));
    Files.writeString(home.resolve(Cli.CONF_FILE), "webindex.table.prefix=x\n");
    // the Tools refuse a password among the Hadoop properties: proof that -D got there
    // (the Tool writes its refusal to the process's stderr, as under `hadoop jar`)
    java.io.PrintStream realErr = System.err;
    java.io.ByteArrayOutputStream toolErr = new java.io.ByteArrayOutputStream();
    Run r;
    try {
      System.setErr(new java.io.PrintStream(toolErr, true, StandardCharsets.UTF_8));
      r = Run.of(home, "recompute", "-D", "webindex.accumulo.password=s3cret", "--run", "r1");
    } finally {
      System.setErr(realErr);
    }
    String said = toolErr.toString(StandardCharsets.UTF_8) + r.err();
    assertEquals(2, r.status(), r + said);
    assertTrue(
        said.contains("webindex.accumulo.password given as a Hadoop property (-D, -conf"), said);
    assertFalse(said.contains("s3cret"), said);
    // and are not taken for the command's own arguments
    assertUserError(
        Run.of(home, "dump", "-Dmapreduce.job.queuename=q", "--table", "t", "--out"),
        "--out needs a value");
    assertUserError(Run.of(home, "recompute", "-D"), "-D needs key=value");
  }

  @Test
  void anOperatorsLogConfigurationKeepsItsLevels() {
    Properties none = new Properties();
    assertFalse(Main.customLogConfiguration(none));
    Properties custom = new Properties();
    custom.setProperty("log4j.configuration", "file:/etc/webindex/log4j.properties");
    assertTrue(Main.customLogConfiguration(custom));
    custom.setProperty("log4j.configuration", " ");
    assertFalse(Main.customLogConfiguration(custom));
  }

  /** A command that throws {@code e}: its exit status and stderr. */
  private Run failing(Throwable e) {
    Command c =
        new Command() {
          @Override
          public String name() {
            return "flaky";
          }

          @Override
          public String summary() {
            return "fails";
          }

          @Override
          public String usage() {
            return "usage: bin/webindex flaky\n";
          }

          @Override
          public int run(List<String> args, Cli ctx) throws Exception {
            if (e instanceof Exception x) {
              throw x;
            }
            throw (Error) e;
          }
        };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(List.of("flaky"), new Cli(home, out, err), List.of(c));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void transientFailuresExitThreeWithOneLine() {
    Run r =
        failing(
            new io.webindex.store.StoreUnavailableException(
                "Accumulo instance 'i' at zk:2181 as u did not answer within 5 s"));
    assertEquals(ExitCodes.TRANSIENT, r.status(), r.toString());
    assertEquals(
        "webindex: Accumulo instance 'i' at zk:2181 as u did not answer within 5 s"
            + " (unavailable for now: run the same again later)\n",
        r.err());
    Run lost =
        failing(
            new StoreException(
                "writing to table 't' failed",
                new java.util.concurrent.TimeoutException("no answer")));
    assertEquals(ExitCodes.TRANSIENT, lost.status(), lost.toString());
    // a refusal stays a user error
    assertUserError(failing(new StoreException("no table 't' in Accumulo")), "no table 't'");
  }

  @Test
  void verboseIsTakenAnywhereOnTheCommandLine() {
    for (List<String> line :
        List.of(
            List.of("-v", "query", "top", "--table", "t", "--limit", "0"),
            List.of("query", "-v", "top", "--table", "t", "--limit", "0"),
            List.of("query", "top", "--table", "t", "--limit", "0", "--verbose"),
            List.of("query", "top", "--table", "t", "-v", "--limit", "0"))) {
      java.util.List<String> args = new java.util.ArrayList<>(line);
      assertTrue(Main.takeVerbose(args), line.toString());
      assertEquals(List.of("query", "top", "--table", "t", "--limit", "0"), args);
      // and the command sees no -v: the error is its own, not "unknown option -v"
      assertUserError(Run.of(home, line.toArray(new String[0])), "between 1");
    }
    java.util.List<String> plain = new java.util.ArrayList<>(List.of("query", "top"));
    assertFalse(Main.takeVerbose(plain));
    assertEquals(List.of("query", "top"), plain);
    java.util.List<String> quoted = new java.util.ArrayList<>(List.of("gen", "--", "-v"));
    assertFalse(Main.takeVerbose(quoted), "after -- it is an argument");
    assertEquals(List.of("gen", "--", "-v"), quoted);
  }
}
