package io.webindex.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The check reports under the checks directory ({@code --checks}): the report in the directory
 * itself (id {@code report}) and one per subdirectory, each a {@code check.json} with perhaps a
 * {@code check.html}. Lists their summaries and serves the two files, nothing else.
 */
final class ReportFiles {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHECK_JSON = "check.json";
  private static final String CHECK_HTML = "check.html";
  private static final String TOP_CHECK_ID = "report";

  private final Path checksDir;

  /**
   * @param checksDir the checks directory, or null for none
   */
  ReportFiles(Path checksDir) {
    this.checksDir = checksDir;
  }

  /** The checks directory as shown, or null. */
  String directory() {
    return checksDir == null ? null : checksDir.toString();
  }

  /**
   * The summaries of the reports, newest first; without {@code detail} an unreadable report says so
   * without the reason (which names a server path).
   */
  List<Map<String, Object>> list(boolean detail) {
    List<Map<String, Object>> out = list();
    if (!detail) {
      out.forEach(m -> m.computeIfPresent("error", (k, v) -> "cannot read " + CHECK_JSON));
    }
    return out;
  }

  /** The summaries of the reports, newest first. */
  List<Map<String, Object>> list() {
    List<Map<String, Object>> out = new ArrayList<>();
    if (checksDir == null || !Files.isDirectory(checksDir)) {
      return out;
    }
    addCheck(out, TOP_CHECK_ID, checksDir);
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(checksDir, Files::isDirectory)) {
      for (Path d : dirs) {
        String id = d.getFileName().toString();
        if (isCheckId(id) && !id.equals(TOP_CHECK_ID)) {
          addCheck(out, id, d);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(
        Comparator.comparing((Map<String, Object> m) -> String.valueOf(m.get("finished")))
            .reversed());
    return out;
  }

  private static boolean isCheckId(String id) {
    return id.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");
  }

  private static void addCheck(List<Map<String, Object>> out, String id, Path dir) {
    Path file = dir.resolve(CHECK_JSON);
    if (!Files.isRegularFile(file)) {
      return;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    try {
      summary(m, JSON.readTree(file.toFile()));
    } catch (IOException e) {
      m.put("verdict", "UNREADABLE");
      m.put("consistent", false);
      m.put("finished", "");
      m.put("error", "cannot read " + CHECK_JSON + ": " + e.getMessage());
    }
    m.put("json", "/checks/" + id + "/" + CHECK_JSON);
    m.put(
        "html",
        Files.isRegularFile(dir.resolve(CHECK_HTML)) ? "/checks/" + id + "/" + CHECK_HTML : null);
    out.add(m);
  }

  private static void summary(Map<String, Object> m, JsonNode n) {
    m.put("verdict", n.path("verdict").asText(""));
    m.put("consistent", n.path("consistent").asBoolean(false));
    m.put("runId", n.path("runId").asText(""));
    m.put("snapshot", n.path("snapshot").asLong());
    m.put("expectedTable", n.path("tables").path("expected").asText(""));
    m.put("actualTable", n.path("tables").path("actual").asText(""));
    m.put("finished", n.path("finished").asText(""));
    m.put("compared", n.path("totals").path("compared").asLong());
    m.put("differences", n.path("totals").path("differences").asLong());
    m.put("invariantViolations", n.path("totals").path("invariantViolations").asLong());
  }

  /**
   * {@code /checks/{id}/{file}}: a report's {@code check.json} or {@code check.html}.
   *
   * @throws NotFound for any other file, or one outside the checks directory
   */
  void send(HttpServerExchange ex) throws IOException {
    String id = Params.path(ex, "id");
    String file = Params.path(ex, "file");
    if (checksDir == null
        || id == null
        || !isCheckId(id)
        || !(CHECK_JSON.equals(file) || CHECK_HTML.equals(file))) {
      throw new NotFound("no such report");
    }
    Path dir = id.equals(TOP_CHECK_ID) ? checksDir : checksDir.resolve(id);
    Path f = dir.resolve(file);
    if (!f.normalize().startsWith(checksDir.normalize()) || !Files.isRegularFile(f)) {
      throw new NotFound("no such report");
    }
    byte[] bytes = Files.readAllBytes(f);
    ex.getResponseHeaders()
        .put(
            Headers.CONTENT_TYPE,
            file.equals(CHECK_JSON) ? Responses.JSON_TYPE : Responses.HTML_TYPE);
    if (file.equals(CHECK_HTML)) {
      // the report is a self-contained page with its own inline style
      ex.getResponseHeaders()
          .put(
              Responses.CONTENT_SECURITY_POLICY,
              "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    }
    ex.getResponseSender().send(ByteBuffer.wrap(bytes));
  }
}
