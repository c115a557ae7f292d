package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.RawCell;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.BulkImport;
import io.webindex.store.StoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.client.rfile.RFileSource;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consistency check of {@link ScannerCheck}, reading both tables' files (RFiles) in this
 * process instead of through the tablet servers.
 *
 * <p>Each table is cloned (after a flush, so the clone holds everything written before the check)
 * and the clone is taken offline: its set of files is then fixed, and the garbage collector keeps
 * them while the clone refers to them, whatever the source table does meanwhile. The clone's
 * tablets and their files come from the metadata table (which every Accumulo 1.x user may read);
 * each tablet is read on its own, bounded to its row range (tablets can share a file, and a file
 * can hold keys outside a tablet's range), in tablet order: deletes, visibility with no
 * authorizations and the table's scan iterators apply as the tablet server applies them, through
 * {@link RFileCells} for a table whose only scan iterator is Accumulo's versioning one, else
 * through Accumulo's public RFile scanner with its full stack. The clones are deleted at the end,
 * also when the check fails. {@link #runWithCompanions} clones the two query tables' history and
 * frontier tables as well (all of them at once) and compares those from their files too, once the
 * query tables are compared ({@link CompanionChecks}).
 *
 * <p>What cannot be done this way throws {@link Unavailable} before any cell is compared: no
 * permission to clone or flush a table or to read its files, or a file whose cells get their
 * timestamps from the tablet server (bulk-imported with the import time set).
 */
public final class FileCheck {
  private static final Logger log = LoggerFactory.getLogger(FileCheck.class);

  /** The metadata table of Accumulo 1.x, and its columns a tablet's files and range are in. */
  static final String METADATA_TABLE = "accumulo.metadata";

  static final Text FILE_FAMILY = new Text("file");
  static final Text TABLET_FAMILY = new Text("~tab");
  static final Text PREV_ROW_QUALIFIER = new Text("~pr");

  private static final SecureRandom RANDOM = new SecureRandom();

  private FileCheck() {}

  /**
   * The tables' files cannot be read in this process (a permission, or a file the tablet server
   * reads differently): the scanner check can still compare the tables.
   */
  public static final class Unavailable extends StoreException {
    private static final long serialVersionUID = 1L;

    Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Compares {@code expected} with {@code actual} as {@link ScannerCheck#run(Connector, String,
   * String, Exclusions, CheckAccumulator, CheckListener)} does, reading their files through {@code
   * hadoop}'s file systems.
   *
   * @throws Unavailable before any cell is compared, when the files cannot be read here
   * @throws StoreException for a table that does not exist, or Accumulo failing
   */
  public static void run(
      Connector conn,
      Configuration hadoop,
      String expected,
      String actual,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener) {
    run(conn, hadoop, expected, actual, null, skip, acc, listener);
  }

  /**
   * As {@link #run(Connector, Configuration, String, String, Exclusions, CheckAccumulator,
   * CheckListener)}, and then the two query tables' history and frontier tables from their files
   * too ({@link CompanionChecks}; {@code configured} is the history rule of a history table that
   * records none). All the tables are cloned at once, before anything is compared.
   */
  public static void runWithCompanions(
      Connector conn,
      Configuration hadoop,
      String expected,
      String actual,
      HistorySettings configured,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener) {
    run(conn, hadoop, expected, actual, Objects.requireNonNull(configured), skip, acc, listener);
  }

  private static void run(
      Connector conn,
      Configuration hadoop,
      String expected,
      String actual,
      HistorySettings companions,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener) {
    List<String> tables = new ArrayList<>(List.of(expected, actual));
    if (companions != null) {
      for (String q : List.of(expected, actual)) {
        for (String c : List.of(HistorySchema.historyTable(q), FrontierSchema.frontierTable(q))) {
          if (conn.tableOperations().exists(c)) {
            tables.add(c);
          }
        }
      }
    }
    Map<String, String> clones = new LinkedHashMap<>();
    tables.forEach(t -> clones.put(t, cloneName(t)));
    try {
      Map<String, TableFiles> files = snapshots(conn, hadoop, clones);
      // the companions while the query tables' URI facts are joined: with the actual table's
      // invariants taken from the expected table's when the two hold the same cells, one join
      // leaves a core free
      CheckAccumulator companionFindings = acc.part();
      Runnable alongside =
          companions == null
              ? () -> {}
              : () -> {
                long t = System.nanoTime();
                CompanionChecks.run(
                    conn, reader(files), expected, actual, companions, skip, companionFindings);
                log.info(
                    "check: the history and frontier tables' files compared in {} ms",
                    (System.nanoTime() - t) / 1_000_000);
              };
      long t = System.nanoTime();
      ScannerCheck.run(
          ScannerCheck.fixed(files.get(expected)::open),
          ScannerCheck.fixed(files.get(actual)::open),
          skip,
          acc,
          listener,
          alongside);
      log.info(
          "check: both tables' files compared{} in {} ms",
          companions == null ? "" : " (and their companions')",
          (System.nanoTime() - t) / 1_000_000);
      acc.merge(companionFindings); // after the query tables', as if compared after them
    } finally {
      dropAll(conn, clones.values());
    }
  }

  /** Deletes the clones that exist, all at once (each deletion waits on the master). */
  private static void dropAll(Connector conn, Collection<String> clones) {
    List<CompletableFuture<Void>> drops = new ArrayList<>();
    for (String c : clones) {
      drops.add(CompletableFuture.runAsync(() -> drop(conn, c), FileCheck::daemon));
    }
    for (CompletableFuture<Void> d : drops) {
      d.join(); // drop logs its failures and throws none
    }
  }

  /** Reads the tables of {@code files} (only those) from their files. */
  private static TableScans.Reader reader(Map<String, TableFiles> files) {
    return new TableScans.Reader() {
      @Override
      public boolean exists(String table) {
        return files.containsKey(table);
      }

      @Override
      public TableScans.Entries open(String table) {
        return files.get(table).entries();
      }
    };
  }

  /**
   * The files of every table of {@code clones} (table to clone name), the tables cloned at the same
   * time (most of a clone's time is the master's and the tablet server's); every clone has been
   * made or has failed before this returns or throws (the first failure), so that the caller can
   * delete them.
   */
  private static Map<String, TableFiles> snapshots(
      Connector conn, Configuration hadoop, Map<String, String> clones) {
    Map<String, CompletableFuture<TableFiles>> running = new LinkedHashMap<>();
    clones.forEach(
        (table, clone) ->
            running.put(
                table,
                CompletableFuture.supplyAsync(
                    () -> snapshot(conn, hadoop, table, clone), FileCheck::daemon)));
    Map<String, TableFiles> files = new LinkedHashMap<>();
    RuntimeException failure = null;
    for (Map.Entry<String, CompletableFuture<TableFiles>> r : running.entrySet()) {
      try {
        files.put(r.getKey(), r.getValue().join());
      } catch (CompletionException x) {
        if (failure == null) {
          failure = cause(x);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return files;
  }

  /** What a task of this package's threads threw, as the thread would have thrown it. */
  static RuntimeException cause(CompletionException x) {
    return x.getCause() instanceof RuntimeException re
        ? re
        : new IllegalStateException(x.getCause());
  }

  /** A fresh name for a clone of {@code table} (in its namespace): letters, digits, '_'. */
  static String cloneName(String table) {
    return table
        + "_chk_"
        + System.currentTimeMillis()
        + "_"
        + Long.toHexString(RANDOM.nextInt() & 0xffffffffL | 0x100000000L).substring(1);
  }

  /** Runs a task in a daemon thread of its own. */
  private static void daemon(Runnable r) {
    Thread t = new Thread(r, "webindex-check-clone");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Clones {@code table} as {@code clone} (which the caller deletes, whatever happens), takes the
   * clone offline and reads its tablets and files.
   */
  static TableFiles snapshot(Connector conn, Configuration hadoop, String table, String clone) {
    if (!conn.tableOperations().exists(table)) {
      throw new StoreException("no table " + table);
    }
    long t0 = System.nanoTime();
    try {
      conn.tableOperations().clone(table, clone, true, Map.of(), Set.of());
      long t1 = System.nanoTime();
      // by the name of a table created a moment ago (BulkImport.onFreshTable)
      BulkImport.onFreshTable(() -> conn.tableOperations().offline(clone, true));
      long t2 = System.nanoTime();
      String id = conn.tableOperations().tableIdMap().get(clone);
      if (id == null) {
        throw new StoreException("the clone " + clone + " of " + table + " has disappeared");
      }
      Map<String, String> props = new TreeMap<>();
      for (Map.Entry<String, String> p : conn.tableOperations().getProperties(clone)) {
        props.put(p.getKey(), p.getValue());
      }
      List<Tablet> tablets =
          tablets(conn, table, id, new DefaultVolume(conn, hadoop), hadoop, clone);
      TableFiles files = new TableFiles(table, tablets, props, hadoop);
      files.probe();
      log.info(
          "check: {} cloned as {} in {} ms, offline in {} ms, {} tablets with {} file entries read"
              + " in {} ms",
          table,
          clone,
          (t1 - t0) / 1_000_000,
          (t2 - t1) / 1_000_000,
          tablets.size(),
          tablets.stream().mapToInt(t -> t.files().size()).sum(),
          (System.nanoTime() - t2) / 1_000_000);
      return files;
    } catch (AccumuloSecurityException e) {
      throw new Unavailable(
          "no permission to clone, flush or take offline a clone of "
              + table
              + " ("
              + e.getSecurityErrorCode()
              + ")",
          e);
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    } catch (TableExistsException e) {
      throw new StoreException(
          "a table named " + clone + " exists already: run the check again", e);
    } catch (AccumuloException e) {
      throw new StoreException("cannot clone " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Deletes a clone, if it exists; a failure (also an unexpected one) is logged with the command to
   * delete it.
   */
  private static void drop(Connector conn, String clone) {
    try {
      if (conn.tableOperations().exists(clone)) {
        conn.tableOperations().delete(clone);
      }
    } catch (AccumuloException
        | AccumuloSecurityException
        | TableNotFoundException
        | RuntimeException e) {
      log.warn(
          "could not delete the check's clone {} ({}): delete it with the Accumulo shell's"
              + " 'deletetable -f {}'",
          clone,
          e.toString(),
          clone);
    }
  }

  /** One tablet of a clone: its row range and its files. */
  record Tablet(Range range, List<DataFile> files) {}

  /** A file of a tablet, and its length. */
  record DataFile(Path path, long length) {}

  /**
   * The tablets of table {@code id} (the offline clone {@code clone} of {@code table}) in row
   * order, read from the metadata table: rows {@code <id>;<end row>} and, last, {@code <id><}; the
   * previous tablet's end row in {@code ~tab:~pr}, the files in family {@code file}.
   */
  static List<Tablet> tablets(
      Connector conn,
      String table,
      String id,
      Supplier<String> defaultVolume,
      Configuration hadoop,
      String clone)
      throws TableNotFoundException {
    Scanner s = conn.createScanner(METADATA_TABLE, Authorizations.EMPTY);
    List<Tablet> tablets = new ArrayList<>();
    try {
      s.setRange(new Range(new Text(id + ";"), true, new Text(id + "<"), true));
      s.fetchColumnFamily(FILE_FAMILY);
      s.fetchColumn(TABLET_FAMILY, PREV_ROW_QUALIFIER);
      Text row = null;
      byte[] prev = null;
      boolean prevSeen = false;
      List<DataFile> files = new ArrayList<>();
      byte[] lastEnd = null;
      for (Map.Entry<Key, Value> e : s) {
        Key k = e.getKey();
        if (row != null && !row.equals(k.getRow())) {
          lastEnd = addTablet(tablets, table, row, id, prevSeen, prev, lastEnd, files);
          files = new ArrayList<>();
          prevSeen = false;
          prev = null;
        }
        row = k.getRow();
        if (k.getColumnFamily().equals(FILE_FAMILY)) {
          String entry = k.getColumnQualifier().toString();
          checkNoTimeSet(table, entry, e.getValue().toString());
          files.add(file(resolve(entry, id, defaultVolume), hadoop, table));
        } else {
          prevSeen = true;
          prev = prevEndRow(e.getValue().get());
        }
      }
      if (row == null) {
        throw new StoreException("the metadata table has no tablets of " + clone);
      }
      lastEnd = addTablet(tablets, table, row, id, prevSeen, prev, lastEnd, files);
      if (lastEnd != null) {
        throw new StoreException(
            "the metadata of " + clone + " (a clone of " + table + ") has no last tablet");
      }
      return tablets;
    } catch (RuntimeException e) {
      if (securityCause(e) != null) {
        throw new Unavailable(
            "no permission to read the metadata table (" + securityCause(e).getMessage() + ")", e);
      }
      throw e;
    } finally {
      s.close();
    }
  }

  private static AccumuloSecurityException securityCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof AccumuloSecurityException ase) {
        return ase;
      }
    }
    return null;
  }

  /**
   * Adds the tablet of metadata row {@code row}, checking that it starts where the previous one
   * ended; returns its end row (null for the last tablet).
   */
  private static byte[] addTablet(
      List<Tablet> tablets,
      String table,
      Text row,
      String id,
      boolean prevSeen,
      byte[] prev,
      byte[] lastEnd,
      List<DataFile> files) {
    byte[] r = Arrays.copyOf(row.getBytes(), row.getLength());
    int p = id.length();
    byte[] end = r[p] == ';' ? Arrays.copyOfRange(r, p + 1, r.length) : null;
    if (!prevSeen
        || !Arrays.equals(prev, lastEnd)
        || (tablets.isEmpty() != (prev == null))
        || (end == null && r.length != p + 1)) {
      throw new StoreException(
          "the tablets of "
              + table
              + "'s clone do not cover its rows in the metadata table (at row "
              + new String(r, StandardCharsets.UTF_8)
              + "): run the check again, or with --mode scanner");
    }
    Range range =
        new Range(
            prev == null ? null : new Text(prev), false, end == null ? null : new Text(end), true);
    tablets.add(new Tablet(range, List.copyOf(files)));
    return end;
  }

  /** The previous tablet's end row as {@code ~tab:~pr} holds it: 0 (none), or 1 and the row. */
  static byte[] prevEndRow(byte[] v) {
    if (v.length == 0 || (v[0] != 0 && v[0] != 1) || (v[0] == 0 && v.length != 1)) {
      throw new StoreException("a tablet's previous end row has an unknown form in the metadata");
    }
    return v[0] == 0 ? null : Arrays.copyOfRange(v, 1, v.length);
  }

  /**
   * A file entry's value is {@code size,entries} or {@code size,entries,time}; a time (not
   * negative) means the tablet server gives every cell of the file that timestamp (a bulk import
   * with the import time set), which a reader of the file cannot see: such a table is read through
   * the tablet server.
   */
  static void checkNoTimeSet(String table, String file, String value) {
    String[] parts = value.split(",");
    if (parts.length > 2 && Long.parseLong(parts[2].trim()) >= 0) {
      throw new Unavailable(
          "the file "
              + file
              + " of "
              + table
              + " was bulk imported with its cells' time set by the tablet server",
          null);
    }
  }

  /**
   * A file entry of the metadata table as a path: an absolute URI as it is; a relative one (tables
   * from Accumulo before 1.6) under the default volume's {@code tables} directory, as Accumulo
   * resolves it: {@code ../<table id>/<dir>/<file>} to {@code /<table id>/<dir>/<file>}, {@code
   * /<dir>/<file>} to {@code /<id>/<dir>/<file>}.
   */
  static Path resolve(String entry, String id, Supplier<String> defaultVolume) {
    if (entry.contains(":")) {
      return new Path(entry);
    }
    String rel;
    if (entry.startsWith("../")) {
      rel = entry.substring(2);
    } else if (entry.startsWith("/")) {
      rel = "/" + id + entry;
    } else {
      throw new StoreException("a file entry of an unknown form in the metadata table: " + entry);
    }
    String base = defaultVolume.get();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return new Path(base + "/tables" + rel);
  }

  /**
   * The default volume ({@code instance.dfs.uri} or the default file system, and {@code
   * instance.dfs.dir}) from the instance's configuration, read once, when a relative file entry
   * needs it.
   */
  private static final class DefaultVolume implements Supplier<String> {
    private final Connector conn;
    private final Configuration hadoop;
    private String volume;

    DefaultVolume(Connector conn, Configuration hadoop) {
      this.conn = conn;
      this.hadoop = hadoop;
    }

    @Override
    public String get() {
      if (volume == null) {
        Map<String, String> site;
        try {
          site = conn.instanceOperations().getSystemConfiguration();
        } catch (AccumuloSecurityException e) {
          throw new Unavailable(
              "no permission to read the instance's volumes, which relative file entries need", e);
        } catch (AccumuloException e) {
          throw new StoreException("cannot read the instance's configuration: " + e, e);
        }
        String uri = site.getOrDefault("instance.dfs.uri", "");
        if (uri.isEmpty()) {
          uri = FileSystem.getDefaultUri(hadoop).toString();
        }
        String dir = site.getOrDefault("instance.dfs.dir", "/accumulo");
        volume = uri.replaceAll("/+$", "") + (dir.startsWith("/") ? dir : "/" + dir);
      }
      return volume;
    }
  }

  /** A file this process can read, and its length. */
  private static DataFile file(Path path, Configuration hadoop, String table) {
    try {
      FileSystem fs = path.getFileSystem(hadoop);
      FileStatus st = fs.getFileStatus(path);
      fs.access(path, FsAction.READ);
      return new DataFile(path, st.getLen());
    } catch (AccessControlException e) {
      throw new Unavailable(
          "no permission to read the file " + path + " of " + table + ": " + e.getMessage(), e);
    } catch (FileNotFoundException e) {
      throw new StoreException(
          "the file " + path + " of " + table + "'s clone does not exist: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the file " + path + " of " + table, e);
    }
  }

  /** A table's scan iterator of Accumulo's versioning iterator, as Accumulo creates it. */
  private static final String VERSIONING =
      "20,org.apache.accumulo.core.iterators.user.VersioningIterator";

  /**
   * How many versions of each cell a scan of the table returns when its only scan iterator is
   * Accumulo's versioning one as Accumulo creates it (priority 20, named {@code vers}; every new
   * table has it with one version, the history tables with the versions they keep), or 0 when the
   * table has any other scan iterator or none.
   */
  static int versionsKept(Map<String, String> props) {
    Map<String, String> scan = new TreeMap<>();
    props.forEach(
        (k, v) -> {
          if (k.startsWith("table.iterator.scan.")) {
            scan.put(k, v);
          }
        });
    String max = scan.get("table.iterator.scan.vers.opt.maxVersions");
    if (scan.size() != 2
        || !VERSIONING.equals(scan.get("table.iterator.scan.vers"))
        || max == null) {
      return 0;
    }
    try {
      int n = Integer.parseInt(max); // as the versioning iterator reads it
      return n > 0 ? n : 0;
    } catch (NumberFormatException e) {
      return 0; // the tablet server would refuse it: its full stack says how
    }
  }

  /**
   * A clone's tablets and its table properties (the scan iterators): opens its cells.
   *
   * <p>For a table whose only scan iterator is Accumulo's versioning one ({@link #versionsKept}),
   * the files are read with Accumulo's RFile reader itself and the delete markers, the labelled
   * cells and the versions are applied by {@link RFileCells}, which gives what a scan gives; any
   * other scan iterator gets the tablet server's full stack through Accumulo's public RFile
   * scanner.
   */
  static final class TableFiles {
    final String table;
    final List<Tablet> tablets;
    private final Map<String, String> props;
    private final Configuration hadoop;
    private final int versions; // kept per cell, 0 when read through the public scanner
    private final Configuration reading; // RFileCells's

    TableFiles(
        String table, List<Tablet> tablets, Map<String, String> props, Configuration hadoop) {
      this.table = table;
      this.tablets = tablets;
      this.props = props;
      this.hadoop = hadoop;
      this.versions = versionsKept(props);
      this.reading = RFileCells.readingConf(hadoop);
    }

    /**
     * Opens the first tablet with files and reads its first cell: the table's iterators load and
     * its files open here, or the check falls back before comparing anything.
     */
    void probe() {
      for (Tablet t : tablets) {
        if (!t.files().isEmpty()) {
          try {
            if (versions > 0) {
              try (RFileCells c = cells(t)) {
                c.hasNext();
              }
            } else {
              try (Scanner s = scanner(t)) {
                s.iterator().hasNext();
              }
            }
          } catch (UncheckedIOException e) {
            if (e.getCause() instanceof AccessControlException) {
              throw new Unavailable("no permission to read the files of " + table, e);
            }
            throw e;
          } catch (RuntimeException e) {
            throw new Unavailable(
                "cannot read the files of " + table + " with its scan iterators: " + e, e);
          }
          return;
        }
      }
    }

    /** A scanner over one tablet's files, bounded to its range, with the table's iterators. */
    Scanner scanner(Tablet t) {
      RFileSource[] sources = new RFileSource[t.files().size()];
      try {
        for (int i = 0; i < sources.length; i++) {
          DataFile f = t.files().get(i);
          FSDataInputStream in = f.path().getFileSystem(hadoop).open(f.path());
          sources[i] = new RFileSource(in, f.length());
        }
      } catch (IOException e) {
        closeAll(sources);
        throw new UncheckedIOException("cannot open the files of " + table, e);
      }
      try {
        RFile.ScannerOptions opts =
            RFile.newScanner()
                .from(sources)
                .withTableProperties(props)
                .withAuthorizations(Authorizations.EMPTY)
                .withBounds(t.range());
        return opts.build();
      } catch (RuntimeException e) {
        closeAll(sources);
        throw e;
      }
    }

    /**
     * The cells of one tablet as a scan gives them, from its files ({@link RFileCells}): for a
     * table whose only scan iterator is Accumulo's versioning one.
     */
    RFileCells cells(Tablet t) {
      List<FSDataInputStream> in = new ArrayList<>(t.files().size());
      List<Long> lengths = new ArrayList<>(t.files().size());
      try {
        for (DataFile f : t.files()) {
          in.add(f.path().getFileSystem(hadoop).open(f.path()));
          lengths.add(f.length());
        }
      } catch (IOException e) {
        in.forEach(TableFiles::closeQuietly);
        throw new UncheckedIOException("cannot open the files of " + table, e);
      }
      return new RFileCells(in, lengths, t.range(), reading, versions);
    }

    private static void closeQuietly(InputStream in) {
      try {
        in.close();
      } catch (IOException e) {
        log.debug("closing a file: {}", e.toString());
      }
    }

    private static void closeAll(RFileSource[] sources) {
      for (RFileSource s : sources) {
        if (s != null) {
          closeQuietly(s.getInputStream());
        }
      }
    }

    /** The table's cells in key order: its tablets one after the other. */
    ScannerCheck.Cells open() {
      TableScans.Entries entries = entries();
      return new ScannerCheck.Cells() {
        @Override
        public boolean hasNext() {
          return entries.hasNext();
        }

        @Override
        public RawCell next() {
          return ScannerCheck.raw(entries.next());
        }

        @Override
        public void close() {
          entries.close();
        }
      };
    }

    /**
     * The table's entries in key order, as a scan of the table returns them: its tablets one after
     * the other.
     */
    TableScans.Entries entries() {
      return new TableScans.Entries() {
        private int next; // the next tablet to open
        private AutoCloseable open; // the open tablet's scanner or reader
        private Iterator<Map.Entry<Key, Value>> it = java.util.Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          while (!it.hasNext()) {
            close();
            while (next < tablets.size() && tablets.get(next).files().isEmpty()) {
              next++;
            }
            if (next == tablets.size()) {
              return false;
            }
            Tablet t = tablets.get(next++);
            if (versions > 0) {
              RFileCells cells = cells(t);
              open = cells;
              it = cells;
            } else {
              Scanner s = scanner(t);
              open = s;
              it = s.iterator();
            }
          }
          return true;
        }

        @Override
        public Map.Entry<Key, Value> next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return it.next();
        }

        @Override
        public void close() {
          if (open != null) {
            try {
              open.close();
            } catch (Exception e) {
              log.debug("closing a tablet's files: {}", e.toString());
            }
            open = null;
          }
          it = java.util.Collections.emptyIterator();
        }
      };
    }
  }
}
