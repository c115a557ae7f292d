package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCell;
import io.webindex.store.Cells;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

/**
 * The files mode (the tables' files read from offline clones) against the scanner mode, its clones
 * and its fallback, and the history and frontier tables compared beside the query table.
 */
class CheckTablesIT extends CheckITBase {
  /**
   * The files mode reads what the tablet server serves: on a Fluo-maintained table whose three
   * tablets share one file (written and flushed in one tablet, then split), with overwritten
   * versions and deletes in a second flushed file per tablet and in memory (the clone's flush
   * writes them), it gives exactly the scanner mode's findings, and those match what this test
   * computes from the cells it wrote. The clones are gone afterwards.
   */
  @Test
  void theFilesModeFindsWhatTheScannerModeFinds() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord older = referenceRun("older", 1);
    java.util.TreeMap<Key, Value> want = cellsOf(truth.table());
    java.util.TreeMap<Key, Value> start = cellsOf(older.table());
    String live = cfg.runTable("live");
    connector().tableOperations().create(live);
    // no major compaction may merge the files this test lays out
    connector().tableOperations().setProperty(live, "table.compaction.major.ratio", "1000");
    // what the live table holds at the end, cell by cell (row family:qualifier -> value)
    java.util.TreeMap<String, String> holds = new java.util.TreeMap<>();
    BatchWriter bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (Map.Entry<Key, Value> e : start.entrySet()) {
      Key k = e.getKey();
      Mutation m = new Mutation(k.getRow());
      m.put(k.getColumnFamily(), k.getColumnQualifier(), 1000L, e.getValue());
      bw.addMutation(m);
      holds.put(cellKey(k), e.getValue().toString());
    }
    bw.close();
    connector().tableOperations().flush(live, null, null, true);
    List<Key> keys = new ArrayList<>(start.keySet());
    SortedSet<Text> splits = new TreeSet<>();
    splits.add(keys.get(keys.size() / 3).getRow());
    splits.add(keys.get(2 * keys.size() / 3).getRow());
    connector().tableOperations().addSplits(live, splits);

    // toward the truth, every second change: puts (new cells and new versions) and deletes;
    // first a wrong version of each changed cell, then the right one (or the delete)
    java.util.TreeMap<String, String> truthCells = new java.util.TreeMap<>();
    want.forEach((k, v) -> truthCells.put(cellKey(k), v.toString()));
    java.util.TreeMap<String, Key> keyOf = new java.util.TreeMap<>();
    want.keySet().forEach(k -> keyOf.put(cellKey(k), k));
    start.keySet().forEach(k -> keyOf.put(cellKey(k), k));
    List<String> changed = new ArrayList<>();
    for (String ck : keyOf.keySet()) {
      if (!java.util.Objects.equals(truthCells.get(ck), holds.get(ck))) {
        changed.add(ck);
      }
    }
    assertTrue(changed.size() > 20, "batch 2 changes cells: " + changed.size());
    List<Mutation> later = new ArrayList<>();
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (int i = 0; i < changed.size(); i += 2) {
      String ck = changed.get(i);
      Key k = keyOf.get(ck);
      Mutation wrong = new Mutation(k.getRow());
      wrong.put(
          k.getColumnFamily(),
          k.getColumnQualifier(),
          2000L,
          new Value("wrong".getBytes(StandardCharsets.UTF_8)));
      bw.addMutation(wrong);
      Mutation right = new Mutation(k.getRow());
      if (truthCells.containsKey(ck)) {
        right.put(
            k.getColumnFamily(),
            k.getColumnQualifier(),
            3000L,
            new Value(truthCells.get(ck).getBytes(StandardCharsets.UTF_8)));
        holds.put(ck, truthCells.get(ck));
      } else {
        right.putDelete(k.getColumnFamily(), k.getColumnQualifier(), 3000L);
        holds.remove(ck);
      }
      later.add(right);
    }
    bw.close();
    connector().tableOperations().flush(live, null, null, true); // the wrong versions: in files
    // cells the files check reads without the delete iterator (the table's only scan iterator is
    // the default latest-version one): a cell deleted then put again (in a flushed file and in
    // memory), one put and deleted at the same time (the delete wins), and a labelled cell (never
    // visible without authorizations)
    List<String> unchanged =
        holds.keySet().stream().filter(ck -> !changed.contains(ck)).limit(3).toList();
    assertEquals(3, unchanged.size());
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    Key again = keyOf.get(unchanged.get(0));
    Mutation del = new Mutation(again.getRow());
    del.putDelete(again.getColumnFamily(), again.getColumnQualifier(), 4000L);
    bw.addMutation(del);
    Key tie = keyOf.get(unchanged.get(1));
    Mutation tied = new Mutation(tie.getRow());
    tied.put(
        tie.getColumnFamily(),
        tie.getColumnQualifier(),
        4000L,
        new Value("tie".getBytes(StandardCharsets.UTF_8)));
    tied.putDelete(tie.getColumnFamily(), tie.getColumnQualifier(), 4000L);
    bw.addMutation(tied);
    holds.remove(unchanged.get(1));
    Mutation labelled = new Mutation(keyOf.get(unchanged.get(2)).getRow());
    labelled.put(
        new Text("page"),
        new Text("secret"),
        new org.apache.accumulo.core.security.ColumnVisibility("admin"),
        4000L,
        new Value("hidden".getBytes(StandardCharsets.UTF_8)));
    bw.addMutation(labelled);
    bw.close();
    connector().tableOperations().flush(live, null, null, true);
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (Mutation m : later) {
      bw.addMutation(m); // the right versions and the deletes: in memory until the clone's flush
    }
    Mutation putAgain = new Mutation(again.getRow());
    putAgain.put(
        again.getColumnFamily(),
        again.getColumnQualifier(),
        5000L,
        new Value(holds.get(unchanged.get(0)).getBytes(StandardCharsets.UTF_8)));
    bw.addMutation(putAgain);
    bw.close();

    // the setup is what this test claims: three tablets, one file shared by all, more files
    Map<String, List<String>> files = filesByTablet(live);
    assertEquals(3, files.size(), files.toString());
    assertEquals(
        "{table.iterator.scan.vers=20,org.apache.accumulo.core.iterators.user.VersioningIterator,"
            + " table.iterator.scan.vers.opt.maxVersions=1}",
        scanIterators(live).toString(),
        "the table's scan iterators are Accumulo's default");
    Map<String, Long> tabletsPerFile = new java.util.TreeMap<>();
    files.values().forEach(fs -> fs.forEach(f -> tabletsPerFile.merge(f, 1L, Long::sum)));
    assertEquals(1, tabletsPerFile.values().stream().filter(n -> n == 3).count(), files.toString());
    assertTrue(tabletsPerFile.size() > 1, files.toString());
    assertEquals(List.of(), checkClones());

    // what the check must find, from the cells this test wrote
    long missing = truthCells.keySet().stream().filter(k -> !holds.containsKey(k)).count();
    long extra = holds.keySet().stream().filter(k -> !truthCells.containsKey(k)).count();
    long different =
        truthCells.entrySet().stream()
            .filter(e -> holds.containsKey(e.getKey()))
            .filter(e -> !holds.get(e.getKey()).equals(e.getValue()))
            .count();
    assertTrue(missing > 0 && extra > 0 && different > 0, missing + " " + extra + " " + different);

    CheckReport scanner = check(truth, live, 2, CheckRunner.Mode.SCANNER);
    CheckReport files1 = check(truth, live, 2, CheckRunner.Mode.FILES);
    // auto on a run this small compares through the tablet servers; at the size where the files
    // pay (filesFrom lowered to 0 here) it reads them
    CheckReport auto = check(truth, live, 2, CheckRunner.Mode.AUTO);
    CheckReport autoFiles =
        new CheckRunner(cfg, connector(), new Configuration())
            .filesFrom(0)
            .run(truth, live, 2, CheckRunner.Mode.AUTO);
    for (CheckReport r : List.of(scanner, files1, auto, autoFiles)) {
      assertEquals(
          List.of(truthCells.size() + extra, missing, extra, different),
          List.of(
              r.compared(),
              r.ranges().stream().mapToLong(RangeTotals::missing).sum(),
              r.ranges().stream().mapToLong(RangeTotals::extra).sum(),
              r.ranges().stream().mapToLong(RangeTotals::different).sum()),
          r.mode());
    }
    assertEquals(
        List.of("scanner", "files", "scanner", "files"),
        List.of(scanner.mode(), files1.mode(), auto.mode(), autoFiles.mode()));
    assertEquals(findings(scanner), findings(files1));
    assertEquals(findings(scanner), findings(auto));
    assertEquals(findings(scanner), findings(autoFiles));
    assertFalse(scanner.invariants().getOrDefault("actual", Map.of()).isEmpty());
    assertEquals(List.of(), checkClones(), "the clones are deleted");
    assertEquals(
        0,
        cellsOf(live).values().stream().filter(v -> v.toString().equals("wrong")).count(),
        "no wrong version is served");
  }

  /**
   * A files check that fails while it compares (its listener throws) or before (a scan iterator
   * class the check cannot load) leaves no clone behind; the second is not read through the tablet
   * server instead, since the user asked for the files mode.
   */
  @Test
  void theClonesAreDeletedWhenTheFilesCheckFails() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord live = referenceRun("live", 2);
    IllegalStateException stop =
        assertThrows(
            IllegalStateException.class,
            () ->
                io.webindex.check.scan.FileCheck.run(
                    connector(),
                    new Configuration(),
                    truth.table(),
                    live.table(),
                    io.webindex.check.engine.Exclusions.NONE,
                    new io.webindex.check.engine.CheckAccumulator(20),
                    new io.webindex.check.engine.CheckListener() {
                      long n;

                      @Override
                      public void compared(String range, boolean skipped) {
                        if (++n == 500) {
                          throw new IllegalStateException("stop at cell 500");
                        }
                      }

                      @Override
                      public void difference(Kind kind, Cell expected, Cell actual) {}

                      @Override
                      public void violation(String table, Finding finding) {}
                    }));
    assertEquals("stop at cell 500", stop.getMessage());
    assertEquals(List.of(), checkClones());

    connector()
        .tableOperations()
        .setProperty(
            live.table(), "table.iterator.scan.nosuch", "30,io.webindex.check.NoSuchIterator");
    StoreException failed =
        assertThrows(
            StoreException.class, () -> check(truth, live.table(), 2, CheckRunner.Mode.FILES));
    assertTrue(failed.getMessage().contains("scan iterators"), failed.getMessage());
    assertTrue(failed.getMessage().contains("--mode scanner"), failed.getMessage());
    assertEquals(List.of(), checkClones());
  }

  /**
   * A user who may read both tables but not clone them: auto compares through the tablet servers
   * (the same findings), files refuses with a message that names the missing permission.
   */
  @Test
  void withoutPermissionToCloneAutoFallsBackToTheScanner() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord behind = referenceRun("behind", 1);
    String user = "reader" + System.nanoTime();
    String password = "reader-secret-" + System.nanoTime();
    connector()
        .securityOperations()
        .createLocalUser(
            user, new org.apache.accumulo.core.client.security.tokens.PasswordToken(password));
    for (String t : List.of(truth.table(), behind.table())) {
      connector()
          .securityOperations()
          .grantTablePermission(user, t, org.apache.accumulo.core.security.TablePermission.READ);
    }
    org.apache.accumulo.core.client.Connector reader =
        connector()
            .getInstance()
            .getConnector(
                user, new org.apache.accumulo.core.client.security.tokens.PasswordToken(password));
    // auto as at the size where it reads the files (the run is small)
    CheckRunner runner = new CheckRunner(cfg, reader, new Configuration()).filesFrom(0);
    CheckReport auto = runner.run(truth, behind.table(), 2, CheckRunner.Mode.AUTO);
    CheckReport scanner = check(truth, behind.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals("scanner", auto.mode());
    assertFalse(scanner.consistent());
    assertEquals(findings(scanner), findings(auto));
    StoreException refused =
        assertThrows(
            StoreException.class,
            () -> runner.run(truth, behind.table(), 2, CheckRunner.Mode.FILES));
    assertTrue(refused.getMessage().contains("no permission to clone"), refused.getMessage());
    assertTrue(refused.getMessage().contains("PERMISSION_DENIED"), refused.getMessage());
    assertEquals(List.of(), checkClones());
  }

  /** Waits until a property change of the history table of {@code queryTable} is visible. */
  private void awaitIncRate(String queryTable, double rate) throws InterruptedException {
    long until = System.nanoTime() + 30_000_000_000L;
    while (HistoryTables.settings(connector(), queryTable).orElseThrow().schedule().incRate()
        != rate) {
      assertTrue(System.nanoTime() < until, "the property change is not visible");
      Thread.sleep(100);
    }
  }

  /**
   * Writes the history table of {@code queryTable} as a recompute would: every URI's crawls and
   * schedule from the versions of batches {@code <= snapshot}, and a urc point of every seen URI at
   * each of {@code urcRuns} (the started instants of the runs whose series it holds).
   */
  void writeHistory(String queryTable, long snapshot, List<Long> urcRuns) throws Exception {
    Map<String, List<Page>> versions = new java.util.TreeMap<>();
    ReferenceIndex ref = new ReferenceIndex();
    RawPageStore raw = new RawPageStore(cfg.storeRoot(), new Configuration());
    for (RawPageStore.Batch b : raw.batches()) {
      if (b.seq() <= snapshot) {
        raw.read(
            b,
            ReadLimits.DEFAULT,
            new ReadStats(),
            new PageSink() {
              @Override
              public void page(Page page) {
                versions.computeIfAbsent(page.key(), k -> new ArrayList<>()).add(page);
                ref.apply(page);
              }

              @Override
              public void reject(Reject reject) {}
            });
      }
    }
    List<TimedCell> cells = new ArrayList<>();
    versions.forEach(
        (key, pages) -> {
          List<HistoryEntry> h = Histories.of(pages);
          cells.addAll(HistoryCells.of(key, h, cfg.schedule(), cfg.historyVersions()));
        });
    for (Map.Entry<String, UriState> u : ref.uriStates().entrySet()) {
      if (u.getValue().seen()) {
        for (long started : urcRuns) {
          cells.add(HistorySchema.urcCell(u.getKey(), started, u.getValue().urc()));
        }
      }
    }
    HistoryTables.createFresh(connector(), queryTable, cfg.historySettings());
    try (BatchWriter bw =
        connector()
            .createBatchWriter(HistorySchema.historyTable(queryTable), new BatchWriterConfig())) {
      for (TimedCell c : cells) {
        bw.addMutation(Cells.toMutation(c.cell(), c.timestamp()));
      }
    }
  }

  /**
   * The history tables: equal ones are CONSISTENT (every crawl version, schedule and urc point
   * compared; the later run's own urc point is not held against the Fluo-maintained table, which
   * has the series of the run it was seeded from); an added crawl version, a rewritten schedule and
   * an added urc point in the live history table are each reported as a difference, with the
   * invariant violations they cause (last crawl, crawls seen, the schedule rule), and change the
   * verdict.
   */
  @Test
  void theHistoryTablesAreComparedCellForCellAndTheirInvariantsChecked() throws Exception {
    RunRecord truth = referenceRun("h2", 2);
    RunRecord live = referenceRun("h1", 2);
    long earlier = truth.started().toEpochMilli() - 86_400_000L;
    writeHistory(truth.table(), 2, List.of(earlier, truth.started().toEpochMilli()));
    writeHistory(live.table(), 2, List.of(earlier));

    CheckReport equal = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals(findings(equal), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    RangeTotals history =
        equal.ranges().stream().filter(t -> t.range().equals("history")).findFirst().orElseThrow();
    assertTrue(equal.consistent(), "equal history tables: " + findings(equal));
    assertTrue(history.compared() > 500, "history cells compared: " + history.compared());

    // each table records the rule it is kept by, and one kept by another rule is named as such
    assertEquals(
        Optional.of(cfg.historySettings()), HistoryTables.settings(connector(), live.table()));
    String incRate = "table.custom." + HistorySettings.INC_RATE;
    connector()
        .tableOperations()
        .setProperty(HistorySchema.historyTable(live.table()), incRate, "0.5");
    awaitIncRate(live.table(), 0.5);
    CheckReport otherRule = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(otherRule.consistent());
    assertEquals(
        findings(otherRule), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(
        List.of("(settings) settings:webindex.schedule.inc.rate 0.4 0.5"),
        otherRule.samples().stream()
            .filter(f -> f.kind() == Kind.DIFFERENT)
            .map(f -> f.row() + " " + f.column() + " " + f.expected() + " " + f.actual())
            .toList());
    connector()
        .tableOperations()
        .setProperty(HistorySchema.historyTable(live.table()), incRate, "0.4");
    awaitIncRate(live.table(), 0.4);

    // three rows of the live history table with a few crawls each
    List<String> rows = new ArrayList<>();
    try (Scanner sc =
        connector().createScanner(HistorySchema.historyTable(live.table()), Authorizations.EMPTY)) {
      sc.fetchColumnFamily(new Text(HistorySchema.FAM_SCHED));
      for (Map.Entry<Key, Value> e : sc) {
        if (HistorySchema.decodeSchedule(e.getValue().toString()).crawls() >= 2
            && rows.size() < 3) {
          rows.add(e.getKey().getRow().toString());
        }
      }
    }
    assertEquals(3, rows.size(), "rows with several crawls");
    String liveHistory = HistorySchema.historyTable(live.table());
    long future = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();
    Mutation crawl = new Mutation(rows.get(0));
    crawl.put(HistorySchema.FAM_CRAWL, "", future, "ok sha1:AAAA 1");
    String sched;
    try (Scanner sc = connector().createScanner(liveHistory, Authorizations.EMPTY)) {
      sc.setRange(Range.exact(rows.get(1), HistorySchema.FAM_SCHED));
      sched = sc.iterator().next().getValue().toString();
    }
    io.webindex.core.history.Schedule s = HistorySchema.decodeSchedule(sched);
    String altered =
        HistorySchema.encodeSchedule(
            new io.webindex.core.history.Schedule(
                s.firstCrawlMillis(),
                s.lastCrawlMillis(),
                s.crawls(),
                s.changes(),
                s.intervalSeconds(),
                s.nextFetchMillis() + 1000,
                s.lastModifiedMillis()));
    Mutation schedule = new Mutation(rows.get(1));
    schedule.put(HistorySchema.FAM_SCHED, "", 5L, altered);
    Mutation urc = new Mutation(rows.get(2));
    urc.put(HistorySchema.FAM_URC, "", earlier + 1, "7");
    mutate(liveHistory, crawl, schedule, urc);

    CheckReport r = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(r.consistent());
    // the files mode reads the history tables from their clones' files: the same findings
    assertEquals(findings(r), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(List.of(), checkClones(), "the clones are deleted");
    assertEquals(2, diff(r, "history", Kind.EXTRA), "the crawl version and the urc point");
    assertEquals(1, diff(r, "history", Kind.DIFFERENT), "the schedule");
    assertEquals(0, diff(r, "history", Kind.MISSING));
    assertEquals(1, violations(r, "actual", Kind.HISTORY_LAST_MISMATCH));
    assertEquals(1, violations(r, "actual", Kind.HISTORY_CRAWLS_MISMATCH));
    assertEquals(1, violations(r, "actual", Kind.SCHEDULE_MISMATCH));
    assertEquals(0, violations(r, "expected", Kind.SCHEDULE_MISMATCH));
    List<Finding> extra = r.samples().stream().filter(f -> f.kind() == Kind.EXTRA).toList();
    assertTrue(
        extra.stream()
            .anyMatch(
                f ->
                    f.row().equals(rows.get(0))
                        && f.column().equals("crawl:@2100-01-01T00:00:00.000Z")
                        && f.actual().equals("ok sha1:AAAA 1")),
        "the crawl version: " + extra);
    assertTrue(
        extra.stream()
            .anyMatch(
                f ->
                    f.row().equals(rows.get(2))
                        && f.column().equals("urc:@" + HistorySchema.iso(earlier + 1))
                        && f.actual().equals("7")),
        "the urc point: " + extra);
    Finding different = sample(r, Kind.DIFFERENT);
    assertEquals(rows.get(1), different.row());
    assertEquals(sched, different.expected());
    assertEquals(altered, different.actual());
    Finding rule = sample(r, Kind.SCHEDULE_MISMATCH);
    assertEquals(rows.get(1), rule.row());
    assertTrue(
        rule.detail().startsWith("next should be " + HistorySchema.iso(s.nextFetchMillis())),
        rule.detail());
  }

  /**
   * The frontier tables: equal ones are CONSISTENT; a due time changed (one cell moves: missing and
   * extra), a URL rewritten (different) and a URI twice in its queue (extra, and the duplicate an
   * invariant violation of the live table) are reported by the scanner mode and, reading the
   * clones' files, by the files mode alike.
   */
  @Test
  void theFrontierTablesAreComparedInBothModes() throws Exception {
    RunRecord truth = referenceRun("f2", 2);
    RunRecord live = referenceRun("f1", 2);
    List<FrontierEntry> entries = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String host = "h" + (i % 7) + ".com";
      entries.add(
          new FrontierEntry("com.h" + (i % 7) + "/p" + i, host, 1_000_000L * (i % 11), i % 5));
    }
    writeFrontier(truth.table(), entries);
    writeFrontier(live.table(), entries);

    CheckReport equal = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertTrue(equal.consistent(), "equal frontier tables: " + findings(equal));
    assertEquals(
        300,
        equal.ranges().stream()
            .filter(t -> t.range().equals("frontier"))
            .findFirst()
            .orElseThrow()
            .compared(),
        "frontier cells compared");
    assertEquals(findings(equal), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));

    String table = FrontierSchema.frontierTable(live.table());
    FrontierEntry moved = entries.get(10);
    FrontierEntry renamed = entries.get(20);
    Cell renamedCell = FrontierSchema.cell(renamed);
    Mutation move = new Mutation(FrontierSchema.queueRow(moved.queue()));
    move.putDelete(FrontierSchema.FAM_DUE, FrontierSchema.column(moved).qualifier());
    Cell later =
        FrontierSchema.cell(
            new FrontierEntry(
                moved.uriKey(), moved.queue(), moved.dueMillis() + 60_000L, moved.urc()));
    move.put(later.family(), later.qualifier(), later.value());
    Mutation rename = new Mutation(renamedCell.row());
    rename.put(renamedCell.family(), renamedCell.qualifier(), "http://elsewhere.example/");
    mutate(table, move, rename);

    CheckReport r = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(r.consistent());
    assertEquals(1, diff(r, "frontier", Kind.MISSING), "the entry's old due time");
    assertEquals(1, diff(r, "frontier", Kind.EXTRA), "its new due time");
    assertEquals(1, diff(r, "frontier", Kind.DIFFERENT), "the rewritten URL");
    assertEquals(0, violations(r, "actual", Kind.FRONTIER_DUPLICATE));
    assertEquals(findings(r), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));

    // the old due time back as well: the URI twice in its queue
    Cell old = FrontierSchema.cell(moved);
    Mutation twice = new Mutation(old.row());
    twice.put(old.family(), old.qualifier(), old.value());
    mutate(table, twice);
    CheckReport dup = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals(0, diff(dup, "frontier", Kind.MISSING));
    assertEquals(1, diff(dup, "frontier", Kind.EXTRA));
    assertEquals(1, violations(dup, "actual", Kind.FRONTIER_DUPLICATE));
    assertEquals(findings(dup), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(List.of(), checkClones(), "the clones are deleted");
  }

  /** Creates the frontier table of {@code queryTable} holding {@code entries}. */
  private void writeFrontier(String queryTable, List<FrontierEntry> entries) throws Exception {
    FrontierTables.createFresh(connector(), queryTable);
    Cells.write(
        connector(),
        FrontierSchema.frontierTable(queryTable),
        entries.stream().map(FrontierSchema::cell).toList());
  }
}
