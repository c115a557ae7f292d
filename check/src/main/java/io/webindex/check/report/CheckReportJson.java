package io.webindex.check.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.core.schema.DumpFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code check.json}: the machine-readable form of a {@link CheckReport} (fields in docs/check.md).
 *
 * <p>{@link #toJson} writes the fields always in the same order, two-space indented, one field per
 * line, ending with a newline; {@code invariants} are ordered by table ({@code expected}, {@code
 * actual}, then by name) and kind (declaration order). The derived fields ({@code consistent},
 * {@code verdict}, {@code millis}, {@code cellsPerSecond}, {@code totals} and each {@code
 * differences}) are for readers of the file; {@link #fromJson} ignores them and rebuilds the report
 * from the others, so that {@code fromJson(toJson(r)).equals(r)}.
 */
public final class CheckReportJson {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private CheckReportJson() {}

  public static String toJson(CheckReport r) {
    StringWriter w = new StringWriter(4096 + 512 * r.samples().size());
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.setPrettyPrinter(printer());
      g.writeStartObject();
      g.writeBooleanField("consistent", r.consistent());
      g.writeStringField("verdict", ReportFormat.verdict(r));
      g.writeObjectFieldStart("tables");
      g.writeStringField("expected", r.expectedTable());
      g.writeStringField("actual", r.actualTable());
      g.writeEndObject();
      g.writeStringField("runId", r.runId());
      g.writeNumberField("snapshot", r.snapshot());
      g.writeNumberField("fluoApplied", r.fluoApplied());
      g.writeStringField("mode", r.mode());
      g.writeStringField("started", r.started().toString());
      g.writeStringField("finished", r.finished().toString());
      g.writeNumberField("millis", r.millis());
      g.writeNumberField("cellsPerSecond", ReportFormat.cellsPerSecond(r));
      g.writeObjectFieldStart("totals");
      g.writeNumberField("compared", r.compared());
      g.writeNumberField("differences", r.differences());
      g.writeNumberField("invariantViolations", r.invariantViolations());
      g.writeEndObject();
      g.writeArrayFieldStart("ranges");
      for (RangeTotals t : r.ranges()) {
        g.writeStartObject();
        g.writeStringField("range", t.range());
        g.writeNumberField("compared", t.compared());
        g.writeNumberField("missing", t.missing());
        g.writeNumberField("extra", t.extra());
        g.writeNumberField("different", t.different());
        g.writeNumberField("skipped", t.skipped());
        g.writeNumberField("differences", t.differences());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("invariants");
      for (String table : ReportFormat.invariantTables(r)) {
        g.writeObjectFieldStart(table);
        Map<Kind, Long> byKind = new EnumMap<>(Kind.class);
        byKind.putAll(r.invariants().get(table));
        for (Map.Entry<Kind, Long> e : byKind.entrySet()) {
          g.writeNumberField(e.getKey().name(), e.getValue());
        }
        g.writeEndObject();
      }
      g.writeEndObject();
      CheckReport.SeedComparison s = r.fluoSeed();
      if (s == null) {
        g.writeNullField("fluoSeed");
      } else {
        g.writeObjectFieldStart("fluoSeed");
        g.writeStringField("seedDir", s.seedDir());
        g.writeNumberField("compared", s.compared());
        g.writeNumberField("missing", s.missing());
        g.writeNumberField("extra", s.extra());
        g.writeNumberField("different", s.different());
        g.writeNumberField("skipped", s.skipped());
        g.writeNumberField("differences", s.differences());
        g.writeEndObject();
      }
      CheckReport.Live l = r.live();
      if (l != null) {
        g.writeObjectFieldStart("live");
        g.writeStringField("app", l.app());
        g.writeNumberField("applied", l.applied());
        g.writeNumberField("pendingAtStart", l.pendingAtStart());
        g.writeNumberField("waitedMillis", l.waitedMillis());
        g.writeNumberField("excludedUpTo", l.excludedUpTo());
        g.writeNumberField("inFlightViolations", l.inFlightViolations());
        g.writeNumberField("attempts", l.attempts());
        g.writeEndObject();
      }
      g.writeArrayFieldStart("samples");
      for (Finding f : r.samples()) {
        g.writeStartObject();
        g.writeStringField("kind", f.kind().name());
        g.writeStringField("table", f.table());
        g.writeStringField("range", f.range());
        // rows and columns as the dump prints them (counts decoded); the stored form beside
        // them when it differs
        String row = DumpFormat.readableRow(f.row());
        String column = DumpFormat.readableColumn(f.column());
        g.writeStringField("row", row);
        if (!row.equals(f.row())) {
          g.writeStringField("rowEncoded", f.row());
        }
        g.writeStringField("column", column);
        if (!column.equals(f.column())) {
          g.writeStringField("columnEncoded", f.column());
        }
        g.writeStringField("expected", f.expected());
        g.writeStringField("actual", f.actual());
        g.writeStringField("detail", f.detail());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.append('\n').toString();
  }

  /**
   * Reads what {@link #toJson} wrote.
   *
   * @throws IllegalArgumentException if the text is not JSON or a field is missing or of the wrong
   *     type
   */
  public static CheckReport fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("check report: not JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("check report: not a JSON object");
    }
    JsonNode tables = object(root, "tables", "");
    List<RangeTotals> ranges = new ArrayList<>();
    for (JsonNode n : array(root, "ranges")) {
      ranges.add(
          new RangeTotals(
              string(n, "range", "ranges[]"),
              number(n, "compared", "ranges[]"),
              number(n, "missing", "ranges[]"),
              number(n, "extra", "ranges[]"),
              number(n, "different", "ranges[]"),
              number(n, "skipped", "ranges[]")));
    }
    Map<String, Map<Kind, Long>> invariants = new HashMap<>();
    JsonNode inv = object(root, "invariants", "");
    for (Iterator<Map.Entry<String, JsonNode>> it = inv.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> table = it.next();
      String where = "invariants." + table.getKey();
      if (!table.getValue().isObject()) {
        throw new IllegalArgumentException("check report: " + where + " is not an object");
      }
      Map<Kind, Long> byKind = new EnumMap<>(Kind.class);
      for (Iterator<String> kinds = table.getValue().fieldNames(); kinds.hasNext(); ) {
        String kind = kinds.next();
        byKind.put(kind(kind, where), number(table.getValue(), kind, where));
      }
      invariants.put(table.getKey(), byKind);
    }
    CheckReport.SeedComparison seed = null;
    JsonNode s = root.get("fluoSeed");
    if (s == null) {
      throw new IllegalArgumentException("check report: no field fluoSeed");
    }
    if (!s.isNull()) {
      s = object(root, "fluoSeed", "");
      seed =
          new CheckReport.SeedComparison(
              string(s, "seedDir", "fluoSeed"),
              number(s, "compared", "fluoSeed"),
              number(s, "missing", "fluoSeed"),
              number(s, "extra", "fluoSeed"),
              number(s, "different", "fluoSeed"),
              number(s, "skipped", "fluoSeed"));
    }
    CheckReport.Live live = null;
    JsonNode l = root.get("live");
    if (l != null && !l.isNull()) {
      l = object(root, "live", "");
      live =
          new CheckReport.Live(
              string(l, "app", "live"),
              number(l, "applied", "live"),
              number(l, "pendingAtStart", "live"),
              number(l, "waitedMillis", "live"),
              number(l, "excludedUpTo", "live"),
              number(l, "inFlightViolations", "live"),
              (int) number(l, "attempts", "live"));
    }
    List<Finding> samples = new ArrayList<>();
    for (JsonNode f : array(root, "samples")) {
      samples.add(
          new Finding(
              kind(string(f, "kind", "samples[]"), "samples[]"),
              string(f, "table", "samples[]"),
              string(f, "range", "samples[]"),
              f.has("rowEncoded")
                  ? string(f, "rowEncoded", "samples[]")
                  : string(f, "row", "samples[]"),
              f.has("columnEncoded")
                  ? string(f, "columnEncoded", "samples[]")
                  : string(f, "column", "samples[]"),
              string(f, "expected", "samples[]"),
              string(f, "actual", "samples[]"),
              string(f, "detail", "samples[]")));
    }
    return new CheckReport(
        string(tables, "expected", "tables"),
        string(tables, "actual", "tables"),
        string(root, "runId", ""),
        number(root, "snapshot", ""),
        number(root, "fluoApplied", ""),
        string(root, "mode", ""),
        instant(root, "started"),
        instant(root, "finished"),
        ranges,
        invariants,
        seed,
        samples,
        live);
  }

  private static DefaultPrettyPrinter printer() {
    Separators separators =
        Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator("");
    DefaultPrettyPrinter p = new DefaultPrettyPrinter(separators);
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    p.indentObjectsWith(indenter);
    p.indentArraysWith(indenter);
    return p;
  }

  private static JsonNode field(JsonNode node, String name, String where) {
    JsonNode v = node.get(name);
    if (v == null) {
      throw new IllegalArgumentException("check report: no field " + path(where, name));
    }
    return v;
  }

  private static String path(String where, String name) {
    return where.isEmpty() ? name : where + "." + name;
  }

  /** A string field; JSON {@code null} is {@code null}. */
  private static String string(JsonNode node, String name, String where) {
    JsonNode v = field(node, name, where);
    if (v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("check report: " + path(where, name) + " is no string");
    }
    return v.textValue();
  }

  private static long number(JsonNode node, String name, String where) {
    JsonNode v = field(node, name, where);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("check report: " + path(where, name) + " is no integer");
    }
    return v.longValue();
  }

  private static JsonNode object(JsonNode node, String name, String where) {
    JsonNode v = field(node, name, where);
    if (!v.isObject()) {
      throw new IllegalArgumentException("check report: " + path(where, name) + " is no object");
    }
    return v;
  }

  private static JsonNode array(JsonNode node, String name) {
    JsonNode v = field(node, name, "");
    if (!v.isArray()) {
      throw new IllegalArgumentException("check report: " + name + " is no array");
    }
    for (JsonNode e : v) {
      if (!e.isObject()) {
        throw new IllegalArgumentException("check report: an element of " + name + " is no object");
      }
    }
    return v;
  }

  private static Instant instant(JsonNode node, String name) {
    String s = string(node, name, "");
    if (s == null) {
      throw new IllegalArgumentException("check report: " + name + " is null");
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("check report: " + name + " is no ISO-8601 instant: " + s);
    }
  }

  private static Kind kind(String name, String where) {
    if (name == null) {
      throw new IllegalArgumentException("check report: " + where + " kind is null");
    }
    try {
      return Kind.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("check report: " + where + " unknown kind " + name);
    }
  }
}
