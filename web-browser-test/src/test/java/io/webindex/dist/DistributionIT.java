package io.webindex.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.testkit.HangGuard;
import io.webindex.testkit.SystemdUnits;
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
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The binary distribution as an operator uses it: {@code webindex-<version>-bin.tar.gz} unpacked
 * into an empty directory and run from there alone, from a working directory outside the source
 * tree, with a PATH that has no Maven and an environment that names nothing of the build: {@code
 * bin/webindex --version}, then {@code demo --serve} on the shipped sample, its page and JSON API
 * fetched over HTTP and compared with the worked example's hand-checked answers, the served pages
 * driven by a real browser (Debian's headless Chromium and chromedriver, nothing downloaded: the
 * top page and its health panel, a domain found through the search box, an inlink followed, the
 * check verdict; screenshots in {@code target/screenshots/}), then stopped with SIGTERM as a
 * service manager stops it. One demo serves every step: the tests run in their order.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DistributionIT {
  private static final String VERSION = System.getProperty("webindex.version");
  private static final Path TARBALL = Path.of(System.getProperty("webindex.tarball"));
  private static final Path REPO = Path.of(System.getProperty("webindex.repo", ".."));

  private static final Pattern SERVING = Pattern.compile("^serving (http://\\S+) ");
  private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");

  @TempDir static Path tmp;

  private static Path demoOut;
  private static Process demo;
  private static Thread reader;
  private static final List<String> stdout = new ArrayList<>();
  private static String base;
  private static WebDriver browser;

  /**
   * Unpacks the tarball, checks its layout and {@code --version}, and starts {@code demo --serve}
   * from it; every test below works on that one demo.
   */
  @BeforeAll
  static void unpackAndServe() throws Exception {
    Path home = unpack();
    assertLayout(home);
    Path cwd = Files.createDirectories(tmp.resolve("operator"));
    Map<String, String> env = operatorEnvironment();

    // --version: the version of the build, and the stacks of the root pom
    Finished version = finished(home, cwd, env, "--version");
    String out = version.out();
    String stacks =
        "webindex "
            + VERSION
            + "\nbuilt against Accumulo "
            + System.getProperty("accumulo.version")
            + ", Fluo "
            + System.getProperty("fluo.version")
            + ", Hadoop "
            + System.getProperty("hadoop.version")
            + "\n";
    assertTrue(out.startsWith(stacks), out);
    // and the commit the tarball was built from: this checkout's
    String head = gitHead();
    String commit = out.substring(stacks.length());
    if (head.isEmpty()) {
      assertEquals("built from commit unknown (not built from a git checkout)\n", commit);
    } else {
      assertTrue(commit.startsWith("built from commit " + head + " (20"), commit);
      assertTrue(commit.endsWith(")\n"), commit);
    }
    assertEquals("", version.err(), "nothing built, nothing warned");

    // the URLFrontier service's command, from the tarball's class path
    String help = finished(home, cwd, env, "frontier-serve", "--help").out();
    assertTrue(help.startsWith("usage: bin/webindex frontier-serve [--port N]"), help);

    // the collector: the parallel one for the batch commands, the JDK's choice for the others, and
    // one named in WEBINDEX_JAVA_OPTS wins
    for (List<String> batch :
        List.of(List.of("recompute", "--help"), List.of("-v", "check", "--help"))) {
      String flags = jvmFlags(home, cwd, env, "", batch);
      assertTrue(flags.contains("-XX:+UseParallelGC"), batch + ": " + flags);
    }
    for (List<String> other :
        List.of(List.of("serve", "--help"), List.of("bench", "load", "--help"))) {
      String flags = jvmFlags(home, cwd, env, "", other);
      assertFalse(flags.contains("-XX:+UseParallelGC"), other + ": " + flags);
    }
    String own = jvmFlags(home, cwd, env, "-XX:+UseSerialGC", List.of("recompute", "--help"));
    assertTrue(own.contains("-XX:+UseSerialGC") && !own.contains("UseParallelGC"), own);

    // the demo on the shipped sample, then served
    demoOut = cwd.resolve("demo-out");
    // without the crawl loop: the pages below show the sample's own crawls whatever the date
    demo = start(home, cwd, env, "demo", "--crawl", "0", "--serve", "--port", "0");
    CompletableFuture<String> url = new CompletableFuture<>();
    reader = readLines(demo, stdout, url);
    try {
      // alone the demo serves in about 40 s; beside other modules' clusters it took over 150 s
      base = url.get(HangGuard.SLOW_SUITE.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(
          "demo --serve did not serve in "
              + HangGuard.SLOW_SUITE.toSeconds()
              + " s:\n"
              + said()
              + "\n"
              + demoStderr(),
          e);
    }
  }

  @AfterAll
  static void stopWhatIsLeft() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (demo != null && demo.isAlive()) {
      demo.destroy();
      if (!demo.waitFor(90, TimeUnit.SECONDS)) {
        demo.descendants().forEach(ProcessHandle::destroyForcibly);
        demo.destroyForcibly();
      }
    }
  }

  @Test
  @Order(1)
  void theDemoSaysConsistentAndWritesTheWorkedExample() throws Exception {
    String said = said();
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
    // the frontier's first URL due: c.com/, never crawled, referenced by 3 pages
    assertTrue(said.contains("4. Which URLs would a crawler fetch next?"), said);
    assertTrue(said.contains("   now               urc 3   http://c.com/\n"), said);
    String golden =
        Files.readString(
            REPO.resolve("core/src/test/resources/io/webindex/core/worked-example.tsv"));
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
  }

  @Test
  @Order(2)
  void itsJsonApiAndPageAnswerOverHttp() throws Exception {
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
        List.of("http://a.com/page1 C from A", "http://b.com/ C from B", "http://d.com/ C from D"),
        from);
    String page = get(http, base);
    assertTrue(page.contains("http://c.com/"), page);
    assertTrue(page.contains("<html"), page);
  }

  /**
   * A real browser on the served pages: the top page and its health panel, a domain through the
   * search box, an inlink followed, the check verdict and its report. Skipped, with one line that
   * says how to install it, where there is no Chromium.
   */
  @Test
  @Order(3)
  void aBrowserFindsTopSearchInlinkAndCheckVerdict() throws Exception {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      String line =
          "the browser test skipped: no Chromium; install it with"
              + " `apt-get install -y chromium chromium-driver`";
      System.out.println(line);
      Assumptions.abort(line);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=412,915");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    String root = base.substring(0, base.length() - 1);

    browser.get(root + "/");
    shot("1-top");
    List<WebElement> rows = browser.findElements(By.cssSelector("table.ranked tbody tr"));
    assertEquals(5, rows.size(), browser.getPageSource());
    assertEquals("3 http://c.com/", rows.get(0).getText().replaceAll("\\s+", " ").strip());

    // the health panel: the demo serves its live table (run base), has stopped its Fluo
    // application and recorded its check (run batch)
    List<String> health = new ArrayList<>();
    for (WebElement tr : browser.findElements(By.cssSelector("section.health tr"))) {
      health.add(
          tr.getAttribute("class")
              + "|"
              + tr.findElement(By.tagName("th")).getText()
              + "|"
              + tr.findElement(By.tagName("td")).getText());
    }
    String ago = " \\(\\d+ (s|min \\d+ s) ago\\)";
    String time = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC";
    List<String> expected =
        List.of(
            "\\|served table\\|webindex_base \\(run base\\) since " + time + ago,
            Pattern.quote("|previous table|none"),
            Pattern.quote("|applied batch|unknown (Fluo application webindex)"),
            Pattern.quote("|newest batch|0"),
            Pattern.quote("warn|Fluo lag|unknown"),
            Pattern.quote(
                "bad|Fluo probe|no oracle of the Fluo application webindex runs: it gives no"
                    + " snapshot"),
            Pattern.quote("bad|served app|webindex: no oracle, 0 workers"),
            Pattern.quote("|cut-over target|none"),
            "ok\\|last check\\|CONSISTENT at "
                + time
                + ago
                + Pattern.quote(
                    ": run batch, table webindex_base, applied batch 0, 0 differences, 0 invariant"
                        + " violations; report "
                        + demoOut.resolve("check.html")));
    assertEquals(expected.size(), health.size(), health.toString());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(health.get(i).matches(expected.get(i)), health.get(i) + " !~ " + expected.get(i));
    }

    WebElement box = browser.findElement(By.name("q"));
    box.sendKeys("www.c.com");
    box.submit();
    // submit() sends the form from a script and does not wait for the page it leads to
    new WebDriverWait(browser, Duration.ofSeconds(30))
        .until(ExpectedConditions.urlToBe(root + "/domain/c.com"));
    assertEquals("2", browser.findElement(By.id("pagecount")).getText());
    shot("2-domain");

    browser.findElement(By.linkText("http://c.com/")).click();
    assertEquals("3", browser.findElement(By.id("incount")).getText());
    List<String> inlinks = new ArrayList<>();
    for (WebElement tr : browser.findElements(By.cssSelector("#inlinks tbody tr"))) {
      inlinks.add(tr.getText().replaceAll("\\s+", " ").strip());
    }
    assertEquals(
        List.of("http://a.com/page1 C from A", "http://b.com/ C from B", "http://d.com/ C from D"),
        inlinks);
    shot("3-page");
    browser
        .findElement(By.cssSelector("#inlinks"))
        .findElement(By.linkText("http://b.com/"))
        .click();
    assertEquals(root + "/page?url=http%3A%2F%2Fb.com%2F", browser.getCurrentUrl());
    assertEquals("1", browser.findElement(By.id("incount")).getText());
    // its crawl history: the sample's one crawl of b.com (2026-11-20 10:01 UTC), so the default
    // interval (30 days) and the next fetch 30 days later; its urc series, the served run's point
    assertEquals("1", browser.findElement(By.id("crawls")).getText());
    assertEquals("2592000 s", browser.findElement(By.id("interval")).getAttribute("title"));
    assertEquals(
        "2026-12-20T10:01:00.000Z",
        browser.findElement(By.id("next-fetch")).getAttribute("datetime"));
    List<WebElement> crawls = browser.findElements(By.cssSelector("#timeline li"));
    assertEquals(1, crawls.size(), browser.getPageSource());
    assertEquals("crawl first", crawls.get(0).getAttribute("class"));
    assertEquals(
        "2026-11-20T10:01:00.000Z",
        crawls.get(0).findElement(By.tagName("time")).getAttribute("datetime"));
    assertEquals("ok", crawls.get(0).findElement(By.className("status")).getText());
    assertEquals(
        "referenced by 1 page at the latest of 1 run (lowest 1, highest 1)",
        browser.findElement(By.id("urc-caption")).getText());
    shot("4-inlink-followed");

    browser.findElement(By.linkText("Checks")).click();
    assertEquals("CONSISTENT", browser.findElement(By.cssSelector(".check .verdict")).getText());
    shot("5-checks");
    browser.findElement(By.linkText("the report")).click();
    assertTrue(browser.getPageSource().contains("CONSISTENT"), browser.getPageSource());
    shot("6-check-report");
  }

  @Test
  @Order(4)
  void sigtermStopsTheServedDemoCleanly() throws Exception {
    demo.destroy(); // SIGTERM, as systemd stops a service
    assertTrue(demo.waitFor(90, TimeUnit.SECONDS), "demo --serve did not stop on SIGTERM");
    reader.join(10_000);
    assertEquals(143, demo.exitValue(), "the exit status of SIGTERM\n" + demoStderr());
    String e = demoStderr();
    assertFalse(e.contains("building webindex"), e);
    // nothing but the demo's own lines: the ERROR of Curator's cache as the embedded Fluo worker
    // stops is dropped by the shipped log configuration (FluoShutdownRaceFilter)
    assertFalse(e.contains("Exception"), e);
    assertFalse(e.contains("ERROR"), e);
  }

  private static String said() {
    synchronized (stdout) {
      return String.join("\n", stdout);
    }
  }

  private static void shot(String name) throws IOException {
    Path dir = Files.createDirectories(Paths.get("target", "screenshots"));
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(dir.resolve(name + ".png"), png);
  }

  private static Path unpack() throws Exception {
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
    SystemdUnits units = SystemdUnits.read(home.resolve("systemd"));
    assertEquals(
        java.util.Set.of(
            "webindex-oracle.service",
            "webindex-worker@.service",
            "webindex-loader.service",
            "webindex-web.service",
            "webindex-frontier.service"),
        units.byFile().keySet());
    for (String unit : units.byFile().keySet()) {
      String exec = units.one(unit, "Service.ExecStart").split("\\s+")[0];
      assertTrue(exec.startsWith(SystemdUnits.INSTALL_ROOT + "/"), unit + ": " + exec);
      Path inDist = home.resolve(exec.substring(SystemdUnits.INSTALL_ROOT.length() + 1));
      assertTrue(Files.isExecutable(inDist), unit + ": " + inDist);
    }
  }

  /**
   * An operator's environment: a JDK, a HOME of its own, and a PATH with everything of the system's
   * but Maven; nothing that names the source tree.
   */
  private static Map<String, String> operatorEnvironment() throws IOException {
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

  /**
   * The flags of the JVM that {@code bin/webindex args} starts with {@code javaOpts} in
   * WEBINDEX_JAVA_OPTS (its first line of output, -XX:+PrintCommandLineFlags).
   */
  private static String jvmFlags(
      Path home, Path cwd, Map<String, String> env, String javaOpts, List<String> args)
      throws Exception {
    Map<String, String> withOpts = new java.util.HashMap<>(env);
    withOpts.put("WEBINDEX_JAVA_OPTS", "-Xmx256m -XX:+PrintCommandLineFlags " + javaOpts);
    return finished(home, cwd, withOpts, args.toArray(String[]::new))
        .out()
        .lines()
        .findFirst()
        .orElse("");
  }

  /** What a short command of the tarball printed; it ended within a minute, with status 0. */
  private record Finished(String out, String err) {}

  private static Finished finished(Path home, Path cwd, Map<String, String> env, String... args)
      throws Exception {
    Process p = start(home, cwd, env, args);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), List.of(args).toString());
    assertEquals(0, p.exitValue(), List.of(args) + ": " + out + err);
    return new Finished(out, err);
  }

  private static Process start(Path home, Path cwd, Map<String, String> env, String... args)
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

  private static String demoStderr() throws IOException {
    Path file = tmp.resolve("demo.err");
    return Files.exists(file) ? Files.readString(file) : "";
  }

  /** This checkout's commit ({@code git rev-parse HEAD}), or "" outside a git checkout. */
  private static String gitHead() throws InterruptedException {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "HEAD").start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && out.matches("[0-9a-f]{40}") ? out : "";
    } catch (IOException e) {
      return "";
    }
  }
}
