package io.webindex.cli.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.cli.BuildInfo;
import io.webindex.core.Version;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bench's history: one JSON line per run appended to {@code history.jsonl} (when, the commit,
 * the command, the machine, the input, the failure if a stage failed, the guards' verdicts and the
 * figures of {@link BenchFigures}), and read back for {@link HistoryPlot}.
 */
final class BenchHistory {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The longest failure message a line keeps (the first line of it). */
  static final int MAX_MESSAGE = 300;

  private BenchHistory() {}

  /**
   * A stage that failed with an error, not a verdict: the bench stopped there.
   *
   * @param stage the stage (or step) that was running
   * @param message what failed
   */
  record Failure(String stage, String message) {}

  /**
   * One run as the plot reads it back.
   *
   * @param when when it started (ISO-8601)
   * @param commit the short commit it was built from, or {@code unknown}
   * @param command the command line
   * @param machine cores, CPU
   * @param pages the input's pages
   * @param domains the input's domains
   * @param failed whether the bench failed (a stage's error or a guard)
   * @param failure the stage's error, or null
   * @param failedGuards the guards that failed
   * @param figures the figures measured
   */
  record Run(
      String when,
      String commit,
      String command,
      String machine,
      long pages,
      long domains,
      boolean failed,
      Failure failure,
      List<String> failedGuards,
      Map<String, Double> figures) {

    /** The input size, as one line per input size is drawn. */
    String input() {
      return String.format(java.util.Locale.ROOT, "%,d pages, %,d domains", pages, domains);
    }
  }

  /** The line a run appends: built from its {@code bench.json} document. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> entry(
      Map<String, Object> report, boolean failed, Failure failure, BuildInfo build) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("when", report.get("started"));
    e.put("finished", report.get("finished"));
    e.put("commit", build.commit());
    e.put("shortCommit", build.shortCommit());
    e.put("version", Version.current().webindex());
    e.put("command", report.get("command"));
    Map<String, Object> machine = new LinkedHashMap<>();
    Map<String, Object> m =
        report.get("machine") instanceof Map
            ? (Map<String, Object>) report.get("machine")
            : Map.of();
    for (String k : List.of("cores", "cpu", "memoryBytes", "java")) {
      if (m.containsKey(k)) {
        machine.put(k, m.get(k));
      }
    }
    e.put("machine", machine);
    Map<String, Object> input = new LinkedHashMap<>();
    Map<String, Object> in =
        report.get("input") instanceof Map ? (Map<String, Object>) report.get("input") : Map.of();
    for (String k : List.of("pages", "domains", "seed", "links", "bytes")) {
      if (in.containsKey(k)) {
        input.put(k, in.get(k));
      }
    }
    e.put("input", input);
    e.put("failed", failed);
    if (failure != null) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("stage", failure.stage());
      f.put("message", firstLine(failure.message()));
      e.put("failure", f);
    }
    Map<String, String> guards = BenchFigures.guards(report);
    e.put("guards", guards);
    e.put("failedGuards", BenchFigures.failedGuards(guards));
    e.put("figures", BenchFigures.of(report));
    return e;
  }

  /**
   * Appends one line to {@code history} (created with its directory if missing); a last line left
   * without its line end (a run cut off while writing) is ended first, so the new one stands alone.
   */
  static void append(Path history, Map<String, Object> entry) throws IOException {
    Path dir = history.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    String line = JSON.writeValueAsString(entry) + "\n";
    if (Files.size(createIfMissing(history)) > 0 && !endsWithNewline(history)) {
      line = "\n" + line;
    }
    Files.writeString(history, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  private static Path createIfMissing(Path p) throws IOException {
    if (!Files.exists(p)) {
      Files.createFile(p);
    }
    return p;
  }

  private static boolean endsWithNewline(Path p) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
      f.seek(f.length() - 1);
      return f.read() == '\n';
    }
  }

  /**
   * The runs of {@code history} in the order they were appended; a line that is not a run (not
   * JSON, or without its time or figures) is skipped with a warning on {@code err}. Blank lines are
   * skipped silently.
   */
  static List<Run> read(Path history, PrintWriter err) throws IOException {
    List<Run> runs = new ArrayList<>();
    if (!Files.exists(history)) {
      return runs;
    }
    String text = new String(Files.readAllBytes(history), StandardCharsets.UTF_8);
    int n = 0;
    for (String line : text.split("\n", -1)) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      try {
        runs.add(run(JSON.readTree(line)));
      } catch (JsonProcessingException | IllegalArgumentException e) {
        String why =
            e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        err.println(
            "bench: "
                + history.getFileName()
                + " line "
                + n
                + " is not a bench run, skipped ("
                + firstLine(why)
                + ")");
      }
    }
    return runs;
  }

  private static Run run(JsonNode j) {
    if (!j.isObject() || !j.path("when").isTextual() || !j.path("figures").isObject()) {
      throw new IllegalArgumentException("no 'when' or no 'figures'");
    }
    Map<String, Double> figures = new LinkedHashMap<>();
    j.path("figures")
        .fields()
        .forEachRemaining(
            f -> {
              if (f.getValue().isNumber()) {
                figures.put(f.getKey(), f.getValue().asDouble());
              }
            });
    List<String> guards = new ArrayList<>();
    j.path("failedGuards").forEach(g -> guards.add(g.asText()));
    JsonNode f = j.path("failure");
    Failure failure =
        f.isObject() ? new Failure(f.path("stage").asText(), f.path("message").asText()) : null;
    JsonNode m = j.path("machine");
    String machine = m.path("cores").asText("?") + " cores, " + m.path("cpu").asText("CPU unknown");
    String commit = j.path("shortCommit").asText(j.path("commit").asText(BuildInfo.UNKNOWN));
    return new Run(
        j.path("when").asText(),
        commit,
        j.path("command").asText(""),
        machine,
        j.path("input").path("pages").asLong(),
        j.path("input").path("domains").asLong(),
        j.path("failed").asBoolean(false),
        failure,
        guards,
        figures);
  }

  static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    String l = s.strip().lines().findFirst().orElse("");
    return l.length() > MAX_MESSAGE ? l.substring(0, MAX_MESSAGE) + "…" : l;
  }
}
