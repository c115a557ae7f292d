package io.webindex.check.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.check.engine.CheckReport;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckReportJsonTest {
  private static final String GOLDEN = "/io/webindex/check/report/check-report.golden.json";

  /** The format is pinned by a hand-checked file, compared exactly. */
  @Test
  void inconsistentReportEqualsGoldenFile() throws Exception {
    assertEquals(golden(), CheckReportJson.toJson(CheckReportFixtures.inconsistent()));
  }

  @Test
  void goldenFileReadsBackToTheReport() throws Exception {
    assertEquals(CheckReportFixtures.inconsistent(), CheckReportJson.fromJson(golden()));
  }

  @Test
  void roundTrip() {
    for (CheckReport r :
        List.of(
            CheckReportFixtures.inconsistent(),
            CheckReportFixtures.consistent(),
            CheckReportFixtures.hostile())) {
      String json = CheckReportJson.toJson(r);
      assertEquals(r, CheckReportJson.fromJson(json), json);
      assertEquals(json, CheckReportJson.toJson(CheckReportJson.fromJson(json)));
    }
  }

  @Test
  void fieldsInOrderWithDerivedValues() throws Exception {
    CheckReport r = CheckReportFixtures.inconsistent();
    JsonNode n = new ObjectMapper().readTree(CheckReportJson.toJson(r));
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    assertEquals(
        List.of(
            "consistent",
            "verdict",
            "tables",
            "runId",
            "snapshot",
            "fluoApplied",
            "mode",
            "started",
            "finished",
            "millis",
            "cellsPerSecond",
            "totals",
            "ranges",
            "invariants",
            "fluoSeed",
            "samples"),
        names);
    assertEquals(false, n.get("consistent").booleanValue());
    assertEquals("INCONSISTENT", n.get("verdict").textValue());
    assertEquals(723_456, n.get("millis").longValue());
    assertEquals(11_234_567, n.get("totals").get("compared").longValue());
    assertEquals(16, n.get("totals").get("differences").longValue());
    assertEquals(3, n.get("totals").get("invariantViolations").longValue());
    // 11,234,567 cells in 723.456 s
    assertEquals(15529.0, n.get("cellsPerSecond").doubleValue());
    assertEquals(9, n.get("ranges").get(1).get("differences").longValue());
    assertEquals(3, n.get("fluoSeed").get("differences").longValue());
    // tables expected before actual, kinds in declaration order
    assertEquals(List.of("expected", "actual"), fieldNames(n.get("invariants")));
    assertEquals(
        List.of("PAGECOUNT_MISMATCH", "TOTAL_MISMATCH"),
        fieldNames(n.get("invariants").get("actual")));
  }

  @Test
  void consistentReport() throws Exception {
    CheckReport r = CheckReportFixtures.consistent();
    String json = CheckReportJson.toJson(r);
    assertTrue(
        json.startsWith("{\n  \"consistent\": true,\n  \"verdict\": \"CONSISTENT\",\n"), json);
    JsonNode n = new ObjectMapper().readTree(json);
    assertTrue(n.get("fluoSeed").isNull());
    assertEquals(0, n.get("samples").size());
    assertEquals(15.2, n.get("cellsPerSecond").doubleValue()); // 38 cells in 2.5 s
    assertTrue(json.contains("\"samples\": []"), json);
  }

  @Test
  void nullAndEmptyValuesOfFindingsStayApart() {
    CheckReport r = CheckReportJson.fromJson(CheckReportJson.toJson(CheckReportFixtures.hostile()));
    assertNull(r.samples().get(0).actual());
    assertEquals("", r.samples().get(1).column());
    assertEquals("", r.samples().get(1).actual());
    assertEquals(CheckReportFixtures.HOSTILE, r.samples().get(0).row());
  }

  @Test
  void zeroMillisDoesNotDivideByZero() {
    CheckReport r = CheckReportFixtures.hostile();
    assertEquals(0, r.millis());
    assertTrue(CheckReportJson.toJson(r).contains("\"cellsPerSecond\": 10000.0,"));
  }

  @Test
  void badInputIsRejectedWithTheField() {
    String json = CheckReportJson.toJson(CheckReportFixtures.inconsistent());
    assertMessage("not JSON", "{");
    assertMessage("not a JSON object", "[]");
    assertMessage("no field runId", json.replace("\"runId\"", "\"runID\""));
    assertMessage(
        "snapshot is no integer", json.replace("\"snapshot\": 41", "\"snapshot\": \"41\""));
    assertMessage("unknown kind NOPE", json.replace("\"TOTAL_MISMATCH\"", "\"NOPE\""));
    assertMessage(
        "started is no ISO-8601 instant",
        json.replace("\"2026-11-21T03:20:00Z\"", "\"2026-11-21 03:20\""));
    assertMessage(
        "ranges[].missing is no integer", json.replace("\"missing\": 3", "\"missing\": 3.5"));
    assertMessage("not JSON", json + "{}");
  }

  @Test
  void emptyCollectionsAndUnknownFluoApplied() {
    CheckReport r =
        new CheckReport(
            "a",
            "b",
            null,
            0,
            -1,
            "scanner",
            Instant.EPOCH,
            Instant.EPOCH.plusMillis(1),
            List.of(),
            Map.of(),
            null,
            List.of());
    String json = CheckReportJson.toJson(r);
    assertTrue(json.contains("\"runId\": null,"), json);
    assertTrue(json.contains("\"ranges\": [],"), json);
    assertTrue(json.contains("\"invariants\": {},"), json);
    assertEquals(r, CheckReportJson.fromJson(json));
  }

  private static void assertMessage(String expected, String json) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CheckReportJson.fromJson(json));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static String golden() throws IOException {
    try (InputStream in = CheckReportJsonTest.class.getResourceAsStream(GOLDEN)) {
      if (in == null) {
        throw new FileNotFoundException(GOLDEN);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The live block of {@code --served}: written only when present, read back, in the summary. */
  @Test
  void theLiveSideRoundTripsAndIsSummarised() throws Exception {
    CheckReport plain = CheckReportFixtures.consistent();
    assertFalse(new ObjectMapper().readTree(CheckReportJson.toJson(plain)).has("live"));
    CheckReport live = plain.withLive(new CheckReport.Live("webindex_r2", 9, 31, 1200, 10, 2, 1));
    JsonNode n = new ObjectMapper().readTree(CheckReportJson.toJson(live));
    assertEquals("webindex_r2", n.path("live").path("app").asText());
    assertEquals(10, n.path("live").path("excludedUpTo").asLong());
    assertEquals(live, CheckReportJson.fromJson(CheckReportJson.toJson(live)));
    String summary = CheckReportConsole.summary(live);
    assertTrue(
        summary.contains(
            "live side    application webindex_r2 applied batch 9 (waited 1.2 s for 31"
                + " notifications in flight to be exported; cells of batches "
                + "8"
                + "\u201310 skipped; 2 invariant violations in cells of those batches not counted"
                + " (in flight); 1 comparison)"),
        summary);
  }
}
