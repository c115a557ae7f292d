package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.frontier.ops.Lease;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.frontier.ops.UrlRecord;
import io.webindex.core.schema.FrontierOpsSchema.QueueKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The operational table's codec against a golden file of readable cells written by hand
 * (ops-queue-golden.tsv), round trips of the metadata encoding, and the row changes of a write.
 */
class FrontierOpsSchemaTest {
  static final QueueKey Q = new QueueKey("my:crawl%1", "a.com:8080");

  static QueueState goldenState() {
    Map<String, List<String>> newMeta = new LinkedHashMap<>();
    newMeta.put("src", List.of("http://b.com/?a=1&b=2", "x,y z"));
    newMeta.put("depth", List.of("1"));
    newMeta.put("tag", List.of());
    TreeMap<String, UrlRecord> records = new TreeMap<>();
    records.put(
        "com.a:8080/done",
        new UrlRecord(
            UrlRecord.State.COMPLETED, 0, 1797760000000L, "http://a.com:8080/done", Map.of()));
    records.put(
        "com.a:8080/new",
        new UrlRecord(
            UrlRecord.State.DISCOVERED, 1797760800000L, null, "http://a.com:8080/new", newMeta));
    records.put(
        "com.a:8080/x",
        new UrlRecord(
            UrlRecord.State.KNOWN,
            1797847200000L,
            null,
            "http://a.com:8080/x?q=1 2",
            Map.of("note", List.of("%-&= "))));
    return new QueueState(
        5,
        1797760800L,
        10L,
        1797760800123L,
        "s1",
        new TreeMap<>(Map.of("com.a:8080/x", new Lease(1797760830123L, "proc-1"))),
        records);
  }

  static List<Cell> golden() throws IOException {
    try (InputStream in =
        FrontierOpsSchemaTest.class.getResourceAsStream(
            "/io/webindex/core/frontier/ops-queue-golden.tsv")) {
      List<Cell> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", 3);
        int colon = f[1].indexOf(':');
        out.add(new Cell(f[0], f[1].substring(0, colon), f[1].substring(colon + 1), f[2]));
      }
      return out;
    }
  }

  @Test
  void queueCellsEqualTheGoldenFile() throws IOException {
    assertEquals(golden(), FrontierOpsSchema.cells(Q, goldenState()));
    assertEquals(goldenState(), FrontierOpsSchema.decode(golden()));
    assertEquals("webindex_frontier_ops", FrontierOpsSchema.opsTable("webindex"));
  }

  @Test
  void rowsNameTheCrawlAndTheQueue() {
    assertEquals("q:my%3Acrawl%251:a.com:8080", FrontierOpsSchema.queueRow(Q));
    assertEquals(Q, FrontierOpsSchema.queueOfRow("q:my%3Acrawl%251:a.com:8080"));
    assertEquals("q:DEFAULT:", FrontierOpsSchema.crawlPrefix("DEFAULT"));
    assertThrows(IllegalArgumentException.class, () -> FrontierOpsSchema.queueOfRow("q:DEFAULT"));
    assertThrows(IllegalArgumentException.class, () -> FrontierOpsSchema.decodeCrawl("a%3"));
    assertThrows(IllegalArgumentException.class, () -> FrontierOpsSchema.encodeCrawl(""));
  }

  @Test
  void serviceRow() {
    assertEquals(new Cell("s:", "cfg", "active", "false"), FrontierOpsSchema.activeCell(false));
    assertEquals(new Cell("s:", "cfg", "delay", "3"), FrontierOpsSchema.defaultDelayCell(3));
    assertEquals(
        new FrontierOpsSchema.ServiceState(false, 3),
        FrontierOpsSchema.decodeService(
            List.of(
                new Cell("s:", "cfg", "active", "false"), new Cell("s:", "cfg", "delay", "3"))));
    assertEquals(
        FrontierOpsSchema.ServiceState.DEFAULT, FrontierOpsSchema.decodeService(List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> FrontierOpsSchema.decodeService(List.of(new Cell("s:", "cfg", "active", "yes"))));
  }

  @Test
  void metadataRoundTrips() {
    assertEquals("-", FrontierOpsSchema.encodeMetadata(Map.of()));
    assertEquals(Map.of(), FrontierOpsSchema.decodeMetadata("-"));
    assertEquals(
        Map.of("-", List.of("")),
        FrontierOpsSchema.decodeMetadata("%2D="),
        "a key '-', one empty value");
    assertEquals("%2D=", FrontierOpsSchema.encodeMetadata(Map.of("-", List.of(""))));
    assertEquals("k=,", FrontierOpsSchema.encodeMetadata(Map.of("k", List.of("", ""))));
    assertEquals("&", FrontierOpsSchema.encodeMetadata(Map.of("", List.of())));
    assertEquals(Map.of("", List.of()), FrontierOpsSchema.decodeMetadata("&"));
    assertEquals("&k", FrontierOpsSchema.encodeMetadata(Map.of("", List.of(), "k", List.of())));
    Random rnd = new Random(24);
    String alphabet = "ab-%&=, \n\té中";
    for (int i = 0; i < 500; i++) {
      Map<String, List<String>> m = new TreeMap<>();
      int keys = rnd.nextInt(4);
      for (int k = 0; k < keys; k++) {
        List<String> values = new ArrayList<>();
        int n = rnd.nextInt(3);
        for (int v = 0; v < n; v++) {
          values.add(word(rnd, alphabet));
        }
        m.put(word(rnd, alphabet), values);
      }
      String enc = FrontierOpsSchema.encodeMetadata(m);
      assertTrue(!enc.contains(" ") && !enc.contains("\n") && !enc.isEmpty(), enc);
      assertEquals(m, FrontierOpsSchema.decodeMetadata(enc), enc);
    }
  }

  private static String word(Random rnd, String alphabet) {
    StringBuilder sb = new StringBuilder();
    int n = rnd.nextInt(5);
    for (int i = 0; i < n; i++) {
      sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @Test
  void damagedCellsAreRefusedNamingTheCell() {
    for (String bad : List.of("k=%2", "k=%41", "k=a b", "-x", "", "k&k", "k=%zz", "&&")) {
      assertThrows(
          IllegalArgumentException.class, () -> FrontierOpsSchema.decodeMetadata(bad), bad);
    }
    String row = FrontierOpsSchema.queueRow(Q);
    for (Cell c :
        List.of(
            new Cell(row, "url", "k", "known 5 - -"),
            new Cell(row, "url", "k", "seen 5 - - http://a/"),
            new Cell(row, "lease", "k", "5"),
            new Cell(row, "cfg", "colour", "red"),
            new Cell(row, "cfg", "limit", "0"),
            new Cell(row, "other", "k", "v"))) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FrontierOpsSchema.decode(List.of(c)));
      assertTrue(e.getMessage().contains(row) || e.getMessage().contains("limit"), e.getMessage());
    }
  }

  @Test
  void aWriteChangesOnlyWhatChanged() throws IOException {
    QueueState before = goldenState();
    TreeMap<String, Lease> leases = new TreeMap<>();
    leases.put("com.a:8080/y", new Lease(7, "p"));
    TreeMap<String, UrlRecord> records = new TreeMap<>(before.records());
    records.remove("com.a:8080/done");
    QueueState after =
        before.withLeases(leases).withRecords(records).withLastHandOut(null).withStamp("s2");
    String row = FrontierOpsSchema.queueRow(Q);
    List<CellChange> expected =
        List.of(
            CellChange.put(new Cell(row, "cfg", "stamp", "s2")),
            CellChange.put(new Cell(row, "lease", "com.a:8080/y", "7 p")),
            CellChange.delete(row, "cfg", "last"),
            CellChange.delete(row, "lease", "com.a:8080/x"),
            CellChange.delete(row, "url", "com.a:8080/done"));
    assertEquals(
        new HashSet<>(expected), new HashSet<>(FrontierOpsSchema.changes(Q, before, after)));
    assertEquals(expected.size(), FrontierOpsSchema.changes(Q, before, after).size());
    assertEquals(List.of(), FrontierOpsSchema.changes(Q, before, before));
    assertEquals(
        golden().size(),
        FrontierOpsSchema.changes(Q, QueueState.EMPTY, before).size(),
        Arrays.toString(golden().toArray()));
  }
}
