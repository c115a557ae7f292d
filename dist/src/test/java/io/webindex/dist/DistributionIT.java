package io.webindex.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.testkit.oracle.Oracle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary distribution as an operator uses it: {@code webindex-<version>-bin.tar.gz} unpacked
 * into an empty directory and run from there alone, from a working directory outside the source
 * tree, with a PATH that has no Maven and an environment that names nothing of the build: {@code
 * bin/webindex --version}, then {@code demo --serve} on the shipped sample, its page and JSON API
 * fetched over HTTP and compared with the worked example's hand-checked answers, then stopped with
 * SIGTERM as a service manager stops it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DistributionIT {
  private static final String VERSION = System.getProperty("webindex.version");
  private static final Path TARBALL = Path.of(System.getProperty("webindex.tarball"));
  private static final Path REPO = Path.of(System.getProperty("webindex.repo", ".."));
  private static final Pattern SERVING = Pattern.compile("^serving (http://\\S+) ");

  @TempDir Path tmp;

  @Test
  void unpackedTarballShowsItsVersionRunsTheDemoAndServesIt() throws Exception {
    Path home = unpack();
    assertLayout(home);
    Path cwd = Files.createDirectories(tmp.resolve("operator"));
    Map<String, String> env = operatorEnvironment();

    // --version: the version of the build, and the stacks of the root pom
    Process version = start(home, cwd, env, "--version");
    String out = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(version.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(version.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, version.exitValue(), err);
    assertEquals(
        "webindex "
            + VERSION
            + "\nbuilt against Accumulo "
            + System.getProperty("accumulo.version")
            + ", Fluo "
            + System.getProperty("fluo.version")
            + ", Hadoop "
            + System.getProperty("hadoop.version")
            + "\n",
        out);
    assertEquals("", err, "nothing built, nothing warned");

    // the URLFrontier service's command, from the tarball's class path
    Process frontierHelp = start(home, cwd, env, "frontier-serve", "--help");
    String help = new String(frontierHelp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(frontierHelp.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, frontierHelp.exitValue(), help);
    assertTrue(help.startsWith("usage: bin/webindex frontier-serve [--port N]"), help);

    // the demo on the shipped sample, then served
    Path demoOut = cwd.resolve("demo-out");
    Process demo = start(home, cwd, env, "demo", "--serve", "--port", "0");
    List<String> stdout = new ArrayList<>();
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread reader = readLines(demo, stdout, url);
    Path demoErr = tmp.resolve("demo.err");
    try {
      String base;
      try {
        base = url.get(150, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError(
            "demo --serve did not serve:\n" + String.join("\n", stdout) + "\n" + stderr(demoErr),
            e);
      }
      String said = String.join("\n", stdout);
      // 27 query-table cells (the worked example), 11 of its history table (crawls, schedules
      // and the run's urc points) and 5 of its frontier table (one per crawled or linked-to URI)
      assertTrue(
          said.contains(
              "verdict: CONSISTENT (43 cells compared, 0 differences, 0 invariant violations"),
          said);
      // the three answers it printed, and both tables' dumps: the hand-checked worked example
      // and the independent oracle's table of the sample the distribution ships
      assertTrue(
          said.contains(
              "        3  http://c.com/\n        1  http://b.com/\n        1  http://c.com/page1\n"),
          said);
      assertTrue(said.contains("In the domain c.com (2 pages)"), said);
      String golden =
          Files.readString(
              REPO.resolve("cli/src/test/resources/io/webindex/cli/worked-example.tsv"));
      assertEquals(golden, Files.readString(demoOut.resolve("batch.tsv")), "batch.tsv in the cwd");
      assertEquals(golden, Files.readString(demoOut.resolve("incremental.tsv")));
      Oracle oracle = new Oracle();
      oracle.addFile(
          0,
          "pages-00000.jsonl",
          Files.readAllBytes(
              REPO.resolve("cli/src/main/resources/io/webindex/cli/demo/pages-00000.jsonl")));
      assertEquals(oracle.dump(), Files.readAllLines(demoOut.resolve("batch.tsv")), "vs oracle");
      assertEquals(oracle.dump(), Files.readAllLines(demoOut.resolve("incremental.tsv")));
      assertTrue(Files.readString(demoOut.resolve("check.json")).contains("\"consistent\": true"));
      assertTrue(Files.readString(demoOut.resolve("check.html")).contains("CONSISTENT"));

      HttpClient http = HttpClient.newHttpClient();
      // the worked example (hand-checked): c.com/ is referenced by 3 pages, b.com/ and
      // c.com/page1 by 1 each, ties in URI-key order
      JsonNode top = new ObjectMapper().readTree(get(http, base + "api/v1/top?limit=3"));
      List<String> rows = new ArrayList<>();
      for (JsonNode u : top.get("uris")) {
        rows.add(u.get("urc").asLong() + " " + u.get("url").asText());
      }
      assertEquals(List.of("3 http://c.com/", "1 http://b.com/", "1 http://c.com/page1"), rows);
      JsonNode inlinks = new ObjectMapper().readTree(get(http, base + "api/v1/inlinks?url=c.com"));
      assertEquals(3, inlinks.get("incount").asLong(), inlinks.toString());
      List<String> from = new ArrayList<>();
      for (JsonNode l : inlinks.get("inlinks")) {
        from.add(l.get("url").asText() + " " + l.get("anchor").asText());
      }
      assertEquals(
          List.of(
              "http://a.com/page1 C from A", "http://b.com/ C from B", "http://d.com/ C from D"),
          from);
      String page = get(http, base);
      assertTrue(page.contains("http://c.com/"), page);
      assertTrue(page.contains("<html"), page);
    } finally {
      demo.destroy(); // SIGTERM, as systemd stops a service
    }
    assertTrue(demo.waitFor(90, TimeUnit.SECONDS), "demo --serve did not stop on SIGTERM");
    reader.join(10_000);
    assertEquals(143, demo.exitValue(), "the exit status of SIGTERM\n" + stderr(demoErr));
    String e = stderr(demoErr);
    assertFalse(e.contains("building webindex"), e);
    // Fluo 1.2's worker may log its partition manager's last task, refused by its closed
    // scheduler, while the embedded Fluo stops: its shutdown, not an error of the demo
    String withoutFluoShutdownRace =
        e.lines()
            .filter(
                l ->
                    !(l.contains("RejectedExecutionException")
                        && l.contains("org.apache.fluo.core.worker.finder.hash.PartitionManager")))
            .filter(l -> !l.strip().startsWith("at "))
            .collect(java.util.stream.Collectors.joining("\n"));
    assertFalse(withoutFluoShutdownRace.contains("Exception"), e);
  }

  private Path unpack() throws Exception {
    assertTrue(Files.isRegularFile(TARBALL), "built by the package phase: " + TARBALL);
    Path install = Files.createDirectories(tmp.resolve("install"));
    Process tar =
        new ProcessBuilder("tar", "xzf", TARBALL.toString(), "-C", install.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(tar.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, tar.exitValue(), said);
    try (Stream<Path> top = Files.list(install)) {
      assertEquals(
          List.of("webindex-" + VERSION),
          top.map(p -> p.getFileName().toString()).toList(),
          "one top directory");
    }
    return install.resolve("webindex-" + VERSION);
  }

  private static void assertLayout(Path home) throws IOException {
    assertTrue(Files.isExecutable(home.resolve("bin/webindex")));
    assertTrue(Files.isRegularFile(home.resolve("lib/webindex-cli-" + VERSION + ".jar")));
    assertTrue(Files.isRegularFile(home.resolve("lib/webindex-core-" + VERSION + ".jar")));
    try (Stream<Path> jobs = Files.list(home.resolve("jobs"))) {
      assertEquals(
          List.of(
              "webindex-fluo-jobs-" + VERSION + "-job.jar",
              "webindex-mr-jobs-" + VERSION + "-job.jar"),
          jobs.map(p -> p.getFileName().toString()).sorted().toList());
    }
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      assertFalse(
          lib.anyMatch(p -> p.getFileName().toString().endsWith("-job.jar")),
          "no job jar on the command line's class path");
    }
    // the URLFrontier service with its gRPC relocated inside webindex-frontier-grpc: no gRPC,
    // protobuf 3 or Guava 33 of their own beside Fluo's Guava 20 and Accumulo's protobuf 2.5.0
    assertTrue(Files.isRegularFile(home.resolve("lib/webindex-frontier-" + VERSION + ".jar")));
    assertTrue(Files.isRegularFile(home.resolve("lib/webindex-frontier-grpc-" + VERSION + ".jar")));
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      List<String> leaked =
          lib.map(p -> p.getFileName().toString())
              .filter(
                  n ->
                      n.startsWith("grpc-")
                          || n.startsWith("urlfrontier-")
                          || n.startsWith("protobuf-java-3")
                          || n.matches("guava-(2[1-9]|[3-9][0-9]).*"))
              .toList();
      assertEquals(List.of(), leaked);
    }
    for (String f :
        List.of(
            "conf/webindex.properties.example",
            "conf/log4j.properties.example",
            "conf/webindex.env.example",
            "oozie/workflow.xml",
            "oozie/coordinator.xml",
            "docs/operations.md",
            "README.md")) {
      assertTrue(Files.isRegularFile(home.resolve(f)), f);
    }
    assertFalse(Files.exists(home.resolve("conf/webindex.properties")), "no operator's config");
    assertFalse(Files.exists(home.resolve("pom.xml")), "no sources");
    // every unit's ExecStart names a file of the distribution once installed in /opt/webindex
    Units units = Units.read(home.resolve("systemd"));
    assertEquals(4, units.byFile().size(), units.byFile().keySet().toString());
    for (String unit : units.byFile().keySet()) {
      String exec = units.one(unit, "Service.ExecStart").split("\\s+")[0];
      assertTrue(exec.startsWith(Units.INSTALL_ROOT + "/"), unit + ": " + exec);
      Path inDist = home.resolve(exec.substring(Units.INSTALL_ROOT.length() + 1));
      assertTrue(Files.isExecutable(inDist), unit + ": " + inDist);
    }
  }

  /**
   * An operator's environment: a JDK, a HOME of its own, and a PATH with everything of the system's
   * but Maven; nothing that names the source tree.
   */
  private Map<String, String> operatorEnvironment() throws IOException {
    Path bin = Files.createDirectories(tmp.resolve("path"));
    for (String dir : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
      Path d = Path.of(dir);
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (Stream<Path> tools = Files.list(d)) {
        for (Path t : tools.toList()) {
          String name = t.getFileName().toString();
          if (!name.startsWith("mvn") && !Files.exists(bin.resolve(name))) {
            Files.createSymbolicLink(bin.resolve(name), t);
          }
        }
      }
    }
    Path userHome = Files.createDirectories(tmp.resolve("home"));
    return Map.of(
        "PATH", bin.toString(),
        "HOME", userHome.toString(),
        "JAVA_HOME", System.getProperty("java.home"),
        "TMPDIR", Files.createDirectories(tmp.resolve("tmp")).toString(),
        "LANG", "C.UTF-8");
  }

  private Process start(Path home, Path cwd, Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/webindex").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    if (args[0].equals("demo")) {
      pb.redirectError(tmp.resolve("demo.err").toFile());
    }
    return pb.start();
  }

  private static Thread readLines(Process p, List<String> lines, CompletableFuture<String> url) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(l);
                  }
                  Matcher m = SERVING.matcher(l);
                  if (m.find()) {
                    String u = m.group(1);
                    url.complete(u.endsWith("/") ? u : u + "/");
                  }
                }
                url.completeExceptionally(new IOException("the demo ended without serving"));
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
            },
            "demo-stdout");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static String get(HttpClient http, String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).GET().build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertEquals(200, r.statusCode(), url + ": " + r.body());
    return r.body();
  }

  private static String stderr(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
