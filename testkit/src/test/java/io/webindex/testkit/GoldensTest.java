package io.webindex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.read.JsonLinesReader;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.DumpFormat;
import io.webindex.testkit.oracle.Oracle;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every hand-checked golden, through core's reader and pure index functions ({@code ReferenceIndex}
 * over {@code IndexCells}) and through the independent oracle: both give exactly the golden dump.
 * The engines meet the same goldens in {@code IncrementalIT#goldensThroughRecomputeAndFluo}.
 */
class GoldensTest {
  static List<String> goldens() {
    return Goldens.NAMES;
  }

  static List<Page> read(long batch, String file, byte[] content) throws IOException {
    List<Page> pages = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    new JsonLinesReader(file, batch, ReadLimits.DEFAULT, new ReadStats())
        .read(
            new ByteArrayInputStream(content),
            new PageSink() {
              @Override
              public void page(Page page) {
                pages.add(page);
              }

              @Override
              public void reject(Reject reject) {
                rejects.add(reject);
              }
            });
    assertEquals(List.of(), rejects, "a golden's input is all valid");
    return pages;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void coreReferenceIndexGivesTheGolden(String golden) throws IOException {
    ReferenceIndex ref = new ReferenceIndex();
    for (Map.Entry<Long, byte[]> b : Goldens.batches(golden).entrySet()) {
      ref.applyAll(read(b.getKey(), golden + ".jsonl", b.getValue()));
    }
    assertEquals(Goldens.expected(golden), DumpFormat.lines(ref.cells()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void coreConvergesWhateverTheBatchOrder(String golden) throws IOException {
    ReferenceIndex ref = new ReferenceIndex();
    List<Map.Entry<Long, byte[]>> batches = new ArrayList<>(Goldens.batches(golden).entrySet());
    for (int i = batches.size() - 1; i >= 0; i--) {
      ref.applyAll(read(batches.get(i).getKey(), golden + ".jsonl", batches.get(i).getValue()));
    }
    assertEquals(Goldens.expected(golden), DumpFormat.lines(ref.cells()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void oracleGivesTheGolden(String golden) throws IOException {
    Oracle oracle = new Oracle();
    for (Map.Entry<Long, byte[]> b : Goldens.batches(golden).entrySet()) {
      oracle.addFile(b.getKey(), golden + ".jsonl", b.getValue());
    }
    assertEquals(Goldens.expected(golden), oracle.dump());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void oracleConvergesWhateverTheBatchOrder(String golden) throws IOException {
    Oracle oracle = new Oracle();
    List<Map.Entry<Long, byte[]>> batches = new ArrayList<>(Goldens.batches(golden).entrySet());
    for (int i = batches.size() - 1; i >= 0; i--) {
      oracle.addFile(batches.get(i).getKey(), golden + ".jsonl", batches.get(i).getValue());
    }
    assertEquals(Goldens.expected(golden), oracle.dump());
  }

  @Test
  void theVersionsGoldenHoldsStaleArrivals() throws IOException {
    Oracle oracle = new Oracle();
    for (Map.Entry<Long, byte[]> b : Goldens.batches("versions").entrySet()) {
      oracle.addFile(b.getKey(), "versions.jsonl", b.getValue());
    }
    // v.com/stale at Jan 3 (batch 1) and its deletion at Jan 4 (batch 2) arrive after Jan 5
    assertEquals(2, oracle.staleArrivals());
    assertEquals(10, oracle.versionsRead());
  }
}
