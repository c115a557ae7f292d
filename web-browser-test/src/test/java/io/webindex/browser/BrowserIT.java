package io.webindex.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real browser (Debian's headless Chromium and chromedriver, nothing downloaded) against {@code
 * bin/webindex demo --serve} running as a child process on the worked example: the top page and its
 * health panel, a domain found through the search box, an inlink followed, the check verdict.
 * Screenshots go to {@code target/screenshots/}.
 */
@Timeout(600)
class BrowserIT {
  private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
  private static final Pattern SERVING = Pattern.compile("^serving (http://\\S+) ");

  private static Process app;
  private static String base;
  private static Path out;
  private static WebDriver browser;
  private static final List<String> appOutput = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      String line =
          "BrowserIT skipped: no Chromium; install it with"
              + " `apt-get install -y chromium chromium-driver`";
      System.out.println(line);
      Assumptions.abort(line);
    }
    Path target = Paths.get("target").toAbsolutePath();
    Path cli = target.getParent().getParent().resolve("cli").resolve("target");
    String classpath =
        cli.resolve("classes")
            + java.io.File.pathSeparator
            + Files.readString(cli.resolve("classpath.txt")).strip();
    out = Files.createDirectories(target.resolve("demo-out"));
    ProcessBuilder pb =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-cp",
                classpath,
                "io.webindex.cli.Main",
                "demo",
                "--serve",
                "--port",
                "0",
                "--out",
                out.toString())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.PIPE);
    app = pb.start();
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                  synchronized (appOutput) {
                    appOutput.add(l);
                  }
                  Matcher m = SERVING.matcher(l);
                  if (m.find()) {
                    url.complete(m.group(1));
                  }
                }
                url.completeExceptionally(new IOException("the demo ended without serving"));
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
            },
            "demo-output");
    reader.setDaemon(true);
    reader.start();
    try {
      base = url.get(400, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("demo --serve did not serve; its output:\n" + output(), e);
    }
    base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;

    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=412,915");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (app != null) {
      app.destroy(); // SIGTERM: the demo stops its server and embedded instance
      if (!app.waitFor(90, TimeUnit.SECONDS)) {
        app.descendants().forEach(ProcessHandle::destroyForcibly);
        app.destroyForcibly();
      }
    }
  }

  @Test
  void topSearchInlinkAndCheckVerdict() throws Exception {
    browser.get(base + "/");
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
                        + out.resolve("check.html")));
    assertEquals(expected.size(), health.size(), health.toString());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(health.get(i).matches(expected.get(i)), health.get(i) + " !~ " + expected.get(i));
    }

    WebElement box = browser.findElement(By.name("q"));
    box.sendKeys("www.c.com");
    box.submit();
    assertEquals(base + "/domain/c.com", browser.getCurrentUrl());
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
    assertEquals(base + "/page?url=http%3A%2F%2Fb.com%2F", browser.getCurrentUrl());
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

  private static void shot(String name) throws IOException {
    Path dir = Files.createDirectories(Paths.get("target", "screenshots"));
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(dir.resolve(name + ".png"), png);
  }

  private static String output() {
    synchronized (appOutput) {
      return String.join("\n", appOutput);
    }
  }
}
