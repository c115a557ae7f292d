package io.webindex.fluo.check;

import io.webindex.check.engine.CheckReport;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.FluoSchema;
import io.webindex.fluo.FluoSession;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.RunRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.accumulo.util.ColumnConstants;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Compares the Fluo table's own state ({@code p:}, {@code um:}, {@code dm:} and the resume point)
 * with a batch run's Fluo seed: the seed RFiles' committed data entries against a snapshot of the
 * application. Equal when Fluo applied exactly the run's batches. Holds both sides in memory: for
 * tables of embedded size (the demo, tests).
 */
public final class SeedCheck {
  private SeedCheck() {}

  /**
   * The Fluo table of the application that maintains the served table against the run's seed; only
   * meaningful when the application applied exactly the run's batches. With {@code embedded} the
   * application's oracle and workers run in this process; otherwise its oracle must run elsewhere.
   */
  public static CheckReport.SeedComparison ofServedApp(
      WebindexConfig cfg,
      Connector conn,
      Configuration conf,
      RunRecord run,
      long applied,
      boolean embedded)
      throws Exception {
    if (applied != run.snapshot()) {
      throw new IllegalArgumentException(
          "--fluo compares the Fluo table with run "
              + run.runId()
              + "'s seed, which needs the application to have applied"
              + " exactly the run's batches (snapshot "
              + run.snapshot()
              + ", applied "
              + applied
              + ")");
    }
    // the application that maintains the served table; embedded, it first finishes its pending
    // notifications (the session waits for its observers)
    String app = WebindexApp.currentApp(cfg, conn);
    try (FluoSession fluo =
        embedded ? FluoSession.embedded(cfg, app, 1) : FluoSession.running(cfg, app)) {
      fluo.awaitIdle();
      return compare(fluo.client(), run.seedDir(), conf);
    }
  }

  public static CheckReport.SeedComparison compare(
      FluoClient client, String seedDir, Configuration hadoop) throws IOException {
    Map<String, String> seed = readSeed(seedDir, hadoop);
    Map<String, String> fluo = new HashMap<>();
    try (Snapshot s = client.newSnapshot()) {
      for (RowColumnValue rcv : s.scanner().build()) {
        String row = rcv.getsRow();
        if (isState(row)) {
          fluo.put(
              row + " " + rcv.getColumn().getsFamily() + ":" + rcv.getColumn().getsQualifier(),
              rcv.getsValue());
        }
      }
    }
    Set<String> all = new HashSet<>(seed.keySet());
    all.addAll(fluo.keySet());
    long missing = 0;
    long extra = 0;
    long different = 0;
    for (String k : all) {
      String a = seed.get(k);
      String b = fluo.get(k);
      if (b == null) {
        missing++;
      } else if (a == null) {
        extra++;
      } else if (!a.equals(b)) {
        different++;
      }
    }
    return new CheckReport.SeedComparison(seedDir, all.size(), missing, extra, different, 0);
  }

  static boolean isState(String row) {
    return FluoSchema.isStateRow(row);
  }

  /**
   * The committed data entries of a seed (Fluo's format keeps them under the data timestamp
   * prefix).
   */
  static Map<String, String> readSeed(String seedDir, Configuration hadoop) throws IOException {
    Path dir = new Path(seedDir);
    FileSystem fs = dir.getFileSystem(hadoop);
    List<String> files = new ArrayList<>();
    if (fs.exists(dir)) {
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.getPath().getName().endsWith(".rf")) {
          files.add(st.getPath().toString());
        }
      }
    }
    Map<String, String> out = new HashMap<>();
    if (files.isEmpty()) {
      return out;
    }
    Scanner s = RFile.newScanner().from(files.toArray(new String[0])).withFileSystem(fs).build();
    try {
      for (Map.Entry<Key, Value> e : s) {
        Key k = e.getKey();
        if ((k.getTimestamp() & ColumnConstants.PREFIX_MASK) == ColumnConstants.DATA_PREFIX) {
          String row = k.getRow().toString();
          if (isState(row)) {
            out.put(
                row + " " + k.getColumnFamily() + ":" + k.getColumnQualifier(),
                e.getValue().toString());
          }
        }
      }
    } finally {
      s.close();
    }
    return out;
  }
}
