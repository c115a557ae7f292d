package io.webindex.store.frontier;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.Iterators;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.Uninterruptibles;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.ops.FrontierSettings;
import io.webindex.core.frontier.ops.IndexFacts;
import io.webindex.core.frontier.ops.Lease;
import io.webindex.core.frontier.ops.QueueHead;
import io.webindex.core.frontier.ops.QueueOps;
import io.webindex.core.frontier.ops.QueuePriority;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.frontier.ops.UrlRecord;
import io.webindex.core.frontier.service.FrontierUnavailableException;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.core.schema.FrontierOpsSchema.QueueKey;
import io.webindex.core.schema.FrontierOpsSchema.ServiceState;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.store.BulkImport;
import io.webindex.store.Cells;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchScanner;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.ConditionalWriter;
import org.apache.accumulo.core.client.ConditionalWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.IteratorSetting;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Condition;
import org.apache.accumulo.core.data.ConditionalMutation;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.iterators.FirstEntryInRowIterator;
import org.apache.accumulo.core.security.Authorizations;

/**
 * The crawl frontier's operations ({@link UrlFrontier}) over Accumulo (docs/frontier.md): the
 * {@code DEFAULT} crawl is the derived frontier of the served run ({@code <run>_frontier}),
 * followed across cut-overs, plus what clients put back; other crawls hold what clients put into
 * them. All operational state (leases, delays, blocks, limits, the active flag, the records) lives
 * in the index's operational table ({@link FrontierOpsSchema}), one row per queue, each change one
 * conditional mutation conditioned on the row's change stamp: any number of processes share it, and
 * nothing is lost on restart.
 *
 * <p>The only memory of a process: the served run and the head of each of its frontier's queues,
 * re-read every {@code webindex.frontier.refresh} seconds (and by {@link #refresh}).
 */
public final class AccumuloUrlFrontier implements UrlFrontier {
  /** Conditional writes of one queue tried before the queue is skipped (or a put answers FAIL). */
  static final int CAS_ATTEMPTS = 8;

  /** The protocol's default page size of listings. */
  static final int DEFAULT_PAGE = 100;

  private final Connector conn;
  private final WebindexConfig cfg;
  private final FrontierSettings settings;
  private final String opsTable;
  private final String owner;
  private final LongSupplier clock;
  private final RunRegistry runs;
  private final ConditionalWriter writer;
  private final AtomicLong stamps = new AtomicLong();
  private final Comparator<QueueHead> queueOrder;
  private final Cache<String, IndexFacts> factsCache;
  private volatile ServedView served;

  /** Visits the queues of one call, and stores the queues of one put, side by side. */
  private final ExecutorService pool =
      Executors.newFixedThreadPool(
          QUEUES_AT_ONCE,
          new ThreadFactoryBuilder().setDaemon(true).setNameFormat("frontier-queues-%d").build());

  /**
   * The served run's frontier as last read: its query table (null: none), its queues' heads, the
   * page counts of the heads' domains (when the priority uses them) and when they were read,
   * whether the run has a history table (read with the rest, not per facts lookup), and the heads
   * as queues of {@code DEFAULT} in the priority's order with their domains' page counts (sorted
   * once per read, not per call).
   */
  private record ServedView(
      String queryTable,
      SortedMap<String, FrontierEntry> heads,
      long readAt,
      Map<String, Long> domainPages,
      long domainsReadAt,
      boolean hasHistory,
      List<QueueHead> ordered) {
    boolean hasFrontier() {
      return queryTable != null;
    }
  }

  private AccumuloUrlFrontier(
      Connector conn, WebindexConfig cfg, String owner, LongSupplier clock) {
    this.conn = Objects.requireNonNull(conn, "conn");
    this.cfg = Objects.requireNonNull(cfg, "cfg");
    this.settings = cfg.frontier();
    this.queueOrder = QueuePriority.order(settings.priority());
    this.factsCache =
        CacheBuilder.newBuilder()
            .maximumSize(FACTS_CACHED)
            .expireAfterWrite(settings.refreshSeconds(), TimeUnit.SECONDS)
            .build();
    this.opsTable = FrontierOpsSchema.opsTable(cfg.tablePrefix());
    this.owner = Objects.requireNonNull(owner, "owner");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.runs = new RunRegistry(conn, cfg.metaTable());
    new Lease(0, owner); // checks the owner is one word
    createIfMissing();
    try {
      this.writer = conn.createConditionalWriter(opsTable, new ConditionalWriterConfig());
    } catch (TableNotFoundException e) {
      throw new FrontierUnavailableException("no table " + opsTable, e);
    }
  }

  /**
   * The frontier of the index {@code cfg} names, as process {@code owner} (one word, unique among
   * the frontier processes: it names the leases this one takes), with the time of {@code clock}
   * (epoch ms). Creates the operational table when it is missing.
   */
  public static AccumuloUrlFrontier open(
      Connector conn, WebindexConfig cfg, String owner, LongSupplier clock) {
    return new AccumuloUrlFrontier(conn, cfg, owner, clock);
  }

  /** {@link #open} with {@link #processOwner()} and the system clock. */
  public static AccumuloUrlFrontier open(Connector conn, WebindexConfig cfg) {
    return open(conn, cfg, processOwner(), System::currentTimeMillis);
  }

  /** A name of this process: host, process id and a random part. */
  public static String processOwner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "localhost";
    }
    return (host
            + '-'
            + ManagementFactory.getRuntimeMXBean().getPid()
            + '-'
            + UUID.randomUUID().toString().substring(0, 8))
        .replaceAll("\\s", "_");
  }

  /** The operational table. */
  public String opsTable() {
    return opsTable;
  }

  /** This process's name in the leases it takes. */
  public String owner() {
    return owner;
  }

  private void createIfMissing() {
    try {
      BulkImport.createIfMissing(conn, opsTable, Map.of());
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new FrontierUnavailableException(
          "cannot create the frontier's table " + opsTable + ": " + e.getMessage(), e);
    } catch (StoreException e) {
      throw new FrontierUnavailableException(e.getMessage(), e);
    }
  }

  // ------------------------------------------------------------------ the served frontier

  /** Re-reads the served run, its queues' heads and what the index says of each URI, now. */
  public void refresh() {
    factsCache.invalidateAll();
    served = readServed();
  }

  private ServedView served() {
    ServedView v = served;
    if (v == null || clock.getAsLong() - v.readAt() >= settings.refreshSeconds() * 1000L) {
      synchronized (this) {
        v = served;
        if (v == null || clock.getAsLong() - v.readAt() >= settings.refreshSeconds() * 1000L) {
          v = readServed();
          served = v;
        }
      }
    }
    return v;
  }

  private ServedView readServed() {
    long now = clock.getAsLong();
    Optional<String> table = Optional.empty();
    if (conn.tableOperations().exists(cfg.metaTable())) {
      table = ServedState.read(runs, cfg).table();
    }
    if (table.isEmpty()
        || !conn.tableOperations().exists(FrontierSchema.frontierTable(table.get()))) {
      return new ServedView(null, new TreeMap<>(), now, Map.of(), now, false, List.of());
    }
    SortedMap<String, FrontierEntry> heads = new TreeMap<>();
    try (Scanner s = scanner(FrontierSchema.frontierTable(table.get()))) {
      s.addScanIterator(new IteratorSetting(50, "first", FirstEntryInRowIterator.class));
      for (Map.Entry<Key, Value> e : s) {
        try {
          FrontierEntry h = FrontierSchema.decode(Cells.fromEntry(e.getKey(), e.getValue()));
          heads.put(h.queue(), h);
        } catch (IllegalArgumentException bad) {
          // a cell that does not decode is no queue's head (the check reports it)
        }
      }
    }
    boolean history = conn.tableOperations().exists(HistorySchema.historyTable(table.get()));
    if (!settings.priority().contains(QueuePriority.DOMAIN)) {
      return new ServedView(
          table.get(), heads, now, Map.of(), now, history, ordered(heads, Map.of(), Map.of()));
    }
    // the domains' page counts change slowly: read afresh with a new served table or once a
    // minute, else only for domains not seen yet
    ServedView before = served;
    boolean fresh =
        before == null
            || !table.get().equals(before.queryTable())
            || now - before.domainsReadAt() >= DOMAINS_REFRESH_MILLIS;
    Map<String, Long> pages = fresh ? new HashMap<>() : new HashMap<>(before.domainPages());
    Set<String> missing = new TreeSet<>();
    Map<String, String> domains = new HashMap<>();
    for (FrontierEntry h : heads.values()) {
      String domain = Domains.ofKey(h.uriKey());
      domains.put(h.queue(), domain);
      if (!pages.containsKey(domain)) {
        missing.add(domain);
      }
    }
    if (!missing.isEmpty()) {
      pages.putAll(domainPages(table.get(), missing));
    }
    return new ServedView(
        table.get(),
        heads,
        now,
        Map.copyOf(pages),
        fresh ? now : before.domainsReadAt(),
        history,
        ordered(heads, domains, pages));
  }

  /** The heads as queues of {@code DEFAULT}, with their domains' pages, in the priority's order. */
  private List<QueueHead> ordered(
      SortedMap<String, FrontierEntry> heads,
      Map<String, String> domains,
      Map<String, Long> pages) {
    List<QueueHead> out = new ArrayList<>(heads.size());
    for (FrontierEntry h : heads.values()) {
      long n = pages.isEmpty() ? 0 : pages.getOrDefault(domains.get(h.queue()), 0L);
      out.add(new QueueHead(DEFAULT_CRAWL, h.queue(), h, n));
    }
    out.sort(queueOrder);
    return List.copyOf(out);
  }

  private static final long DOMAINS_REFRESH_MILLIS = 60_000;

  /** URIs whose index facts are kept (about 100 bytes each). */
  private static final int FACTS_CACHED = 200_000;

  /** The pages the query table counts in each of {@code domains} (0 when it has no row). */
  private Map<String, Long> domainPages(String queryTable, Set<String> domains) {
    Map<String, Long> out = new HashMap<>();
    List<Range> ranges = new ArrayList<>();
    for (String d : domains) {
      out.put(d, 0L);
      ranges.add(
          Range.exact(
              QuerySchema.domainRow(d), QuerySchema.FAM_DOMAIN, QuerySchema.QUAL_PAGECOUNT));
    }
    try (BatchScanner b = batchScanner(queryTable)) {
      b.setRanges(ranges);
      for (Map.Entry<Key, Value> e : b) {
        if (QuerySchema.parseRow(e.getKey().getRow().toString())
            instanceof QuerySchema.Row.Domain d) {
          try {
            out.put(d.domain(), Long.parseLong(e.getValue().toString()));
          } catch (NumberFormatException bad) {
            // a damaged count ranks as unknown (the check reports it)
          }
        }
      }
    }
    return out;
  }

  /**
   * The standing of a queue's domain in {@code v} (0: unknown or not used): a {@code DEFAULT} queue
   * is a host, so its domain is that of its derived head when it has one.
   */
  private static long domainPages(ServedView v, String queue, FrontierEntry head) {
    if (v.domainPages().isEmpty()) {
      return 0;
    }
    FrontierEntry derived = v.heads().get(queue);
    return v.domainPages()
        .getOrDefault(Domains.ofKey(derived != null ? derived.uriKey() : head.uriKey()), 0L);
  }

  /** The derived entries of a queue, in order, while {@code keep} says so. */
  private List<QueueOps.Derived> derived(
      ServedView v, String queue, java.util.function.Predicate<List<QueueOps.Derived>> more) {
    List<QueueOps.Derived> out = new ArrayList<>();
    if (!v.hasFrontier()) {
      return out;
    }
    try (Scanner s = scanner(FrontierSchema.frontierTable(v.queryTable()))) {
      s.setRange(Range.exact(FrontierSchema.queueRow(queue)));
      for (Map.Entry<Key, Value> e : s) {
        if (!more.test(out)) {
          break;
        }
        Cell c = Cells.fromEntry(e.getKey(), e.getValue());
        try {
          out.add(new QueueOps.Derived(FrontierSchema.decode(c), c.value()));
        } catch (IllegalArgumentException bad) {
          // skipped, as every reader of the frontier table skips it
        }
      }
    }
    return out;
  }

  /** What the served index says of {@code keys} (a key it does not know is absent). */
  private Map<String, IndexFacts> facts(ServedView v, Collection<String> keys) {
    Map<String, IndexFacts> out = new HashMap<>();
    if (!v.hasFrontier() || keys.isEmpty()) {
      return out;
    }
    // what the index says of a URI changes only when a batch is loaded or a run served: known for
    // the refresh interval, like the queues' heads
    List<String> missing = new ArrayList<>();
    for (String k : keys) {
      IndexFacts f = factsCache.getIfPresent(v.queryTable() + '\n' + k);
      if (f != null) {
        out.put(k, f);
      } else {
        missing.add(k);
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    keys = missing;
    Set<String> known = new TreeSet<>();
    List<Range> pages = new ArrayList<>();
    for (String k : keys) {
      pages.add(
          Range.exact(QuerySchema.pageRow(k), QuerySchema.FAM_PAGE, QuerySchema.QUAL_INCOUNT));
    }
    try (BatchScanner b = batchScanner(v.queryTable())) {
      b.setRanges(pages);
      for (Map.Entry<Key, Value> e : b) {
        if (QuerySchema.parseRow(e.getKey().getRow().toString())
            instanceof QuerySchema.Row.Page p) {
          known.add(p.uri());
        }
      }
    }
    Map<String, Long> newest = new HashMap<>();
    String history = HistorySchema.historyTable(v.queryTable());
    if (v.hasHistory()) {
      List<Range> rows = new ArrayList<>();
      for (String k : keys) {
        rows.add(Range.exact(HistorySchema.row(k), HistorySchema.FAM_CRAWL));
      }
      try (BatchScanner b = batchScanner(history)) {
        b.setRanges(rows);
        for (Map.Entry<Key, Value> e : b) {
          newest.merge(e.getKey().getRow().toString(), e.getKey().getTimestamp(), Math::max);
        }
      }
    }
    for (String k : keys) {
      IndexFacts f = new IndexFacts(known.contains(k), newest.get(k));
      out.put(k, f);
      factsCache.put(v.queryTable() + '\n' + k, f);
    }
    return out;
  }

  // ------------------------------------------------------------------ the operational table

  private ServiceState service() {
    try (Scanner s = scanner(opsTable)) {
      return OpsRows.service(s);
    }
  }

  private void writeService(Cell c) {
    try (BatchWriter w = conn.createBatchWriter(opsTable, new BatchWriterConfig())) {
      w.addMutation(Cells.toMutation(c));
    } catch (TableNotFoundException | MutationsRejectedException e) {
      throw new FrontierUnavailableException("cannot write to " + opsTable, e);
    }
  }

  private QueueState readQueue(QueueKey q) {
    List<Cell> cells = new ArrayList<>();
    try (Scanner s = scanner(opsTable)) {
      s.setRange(Range.exact(FrontierOpsSchema.queueRow(q)));
      s.enableIsolation();
      for (Map.Entry<Key, Value> e : s) {
        cells.add(Cells.fromEntry(e.getKey(), e.getValue()));
      }
    }
    return FrontierOpsSchema.decode(cells);
  }

  /** Every queue row of {@code crawl} (null: of every crawl), with its state. */
  private SortedMap<QueueKey, QueueState> readCrawl(String crawl, String family) {
    try (Scanner s = scanner(opsTable)) {
      return OpsRows.crawl(s, crawl, family);
    }
  }

  private String newStamp() {
    return Long.toString(clock.getAsLong(), 36) + '.' + owner + '.' + stamps.incrementAndGet();
  }

  /**
   * Writes {@code after} over {@code before} if the row still has {@code before}'s stamp.
   *
   * @return false when another write came first
   */
  private boolean write(QueueKey q, QueueState before, QueueState after) {
    List<CellChange> changes = FrontierOpsSchema.changes(q, before, after);
    if (changes.isEmpty()) {
      return true;
    }
    Cell.Column stamp = FrontierOpsSchema.stampColumn(q);
    Condition cond = new Condition(stamp.family(), stamp.qualifier());
    if (before.stamp() != null) {
      cond.setValue(before.stamp());
    }
    ConditionalMutation m = new ConditionalMutation(FrontierOpsSchema.queueRow(q), cond);
    for (CellChange c : changes) {
      if (c instanceof CellChange.Put p) {
        m.put(
            p.cell().family(),
            p.cell().qualifier(),
            new Value(p.cell().value().getBytes(StandardCharsets.UTF_8)));
      } else {
        m.putDelete(c.column().family(), c.column().qualifier());
      }
    }
    ConditionalWriter.Result r = writer.write(m);
    try {
      switch (r.getStatus()) {
        case ACCEPTED:
          return true;
        case REJECTED:
          return false;
        case UNKNOWN:
          return Objects.equals(readQueue(q).stamp(), after.stamp());
        default:
          throw new FrontierUnavailableException(
              "the frontier's table refused a write: " + r.getStatus(), null);
      }
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new FrontierUnavailableException(
          "cannot write to " + opsTable + ": " + e.getMessage(), e);
    }
  }

  /** A queue's state as read, as next written, its valid records and what the index says. */
  private record Read(QueueState raw, QueueState state, Map<String, IndexFacts> facts) {}

  private Read read(QueueKey q, ServedView v, Collection<String> alsoKeys, long now) {
    QueueState raw = readQueue(q);
    boolean indexed = q.crawl().equals(DEFAULT_CRAWL);
    Map<String, IndexFacts> facts = Map.of();
    if (indexed) {
      Set<String> keys = new TreeSet<>(raw.records().keySet());
      keys.addAll(alsoKeys);
      facts = facts(v, keys);
    }
    return new Read(raw, QueueOps.normalised(raw, indexed, facts, now), facts);
  }

  /** Read, change with {@code f}, write; retried while other writes come first. */
  private void update(QueueKey q, UnaryOperator<QueueState> f) {
    ServedView v = q.crawl().equals(DEFAULT_CRAWL) ? served() : null;
    for (int i = 0; i < CAS_ATTEMPTS * 4; i++) {
      Read r = read(q, v, List.of(), clock.getAsLong());
      if (write(q, r.raw(), f.apply(r.state()).withStamp(newStamp()))) {
        return;
      }
    }
    throw new FrontierUnavailableException(
        "queue " + q.queue() + " of crawl " + q.crawl() + " changed too often to be written", null);
  }

  // ------------------------------------------------------------------ GetURLs

  private void getUrlsUnguarded(GetParams params, Consumer<UrlInfo> out) {
    long now = clock.getAsLong();
    ServiceState svc = service();
    if (!svc.active()) {
      return;
    }
    ServedView v = served();
    // no crawl named: every crawl, i.e. DEFAULT when a served run has a frontier, and every crawl
    // with records (one scan of the records of all crawls; a crawl without any has no URL due)
    String crawl = params.crawl() == null ? null : UrlFrontier.normaliseCrawl(params.crawl());
    // the queues with a record due (few): their first record, or their derived head when it comes
    // first
    boolean indexToo = crawl == null || crawl.equals(DEFAULT_CRAWL);
    Map<QueueKey, QueueHead> recorded = new LinkedHashMap<>();
    readCrawl(crawl, FrontierOpsSchema.FAM_URL)
        .forEach(
            (q, s) -> {
              if (!params.queue().isEmpty() && !params.queue().equals(q.queue())) {
                return;
              }
              boolean indexed = q.crawl().equals(DEFAULT_CRAWL);
              for (QueueOps.Waiting w : QueueOps.waiting(q.queue(), List.of(), s.records())) {
                if (w.entry().dueMillis() <= now) {
                  offer(
                      recorded,
                      new QueueHead(
                          q.crawl(),
                          q.queue(),
                          w.entry(),
                          indexed ? domainPages(v, q.queue(), w.entry()) : 0));
                  FrontierEntry h = indexToo && indexed ? v.heads().get(q.queue()) : null;
                  if (h != null && h.dueMillis() <= now) {
                    offer(
                        recorded,
                        new QueueHead(DEFAULT_CRAWL, q.queue(), h, domainPages(v, q.queue(), h)));
                  }
                }
                break;
              }
            });
    List<QueueHead> first = new ArrayList<>(recorded.values());
    first.sort(queueOrder);
    // the other queues of DEFAULT: the served heads due, already in order
    Iterator<QueueHead> rest =
        !indexToo
            ? Collections.emptyIterator()
            : v.ordered().stream()
                .filter(
                    h ->
                        h.head().dueMillis() <= now
                            && (params.queue().isEmpty() || params.queue().equals(h.queue()))
                            && !recorded.containsKey(new QueueKey(DEFAULT_CRAWL, h.queue())))
                .iterator();
    Iterator<QueueHead> order = merged(first.iterator(), rest, queueOrder);
    long leaseMillis =
        (params.leaseSeconds() == 0 ? DEFAULT_LEASE_SECONDS : params.leaseSeconds()) * 1000L;
    // the queues are visited side by side, a window at a time: never more at once than may still
    // hand out (max_queues), so no queue is claimed beyond the limit; what they hand out is sent in
    // the queues' order
    int given = 0;
    while (order.hasNext() && (params.maxQueues() == 0 || given < params.maxQueues())) {
      int window =
          params.maxQueues() == 0
              ? QUEUES_AT_ONCE
              : Math.min(params.maxQueues() - given, QUEUES_AT_ONCE);
      List<QueueHead> visit = new ArrayList<>(window);
      while (visit.size() < window && order.hasNext()) {
        visit.add(order.next());
      }
      List<Outcome<List<QueueOps.Waiting>>> got =
          fanOut(
              visit,
              h ->
                  serveQueue(
                      new QueueKey(h.crawl(), h.queue()),
                      v,
                      svc,
                      params.maxUrlsPerQueue(),
                      leaseMillis,
                      now));
      RuntimeException failure = null;
      for (int i = 0; i < visit.size(); i++) {
        Outcome<List<QueueOps.Waiting>> o = got.get(i);
        if (o.failure() != null) {
          failure = failure == null ? o.failure() : failure;
          continue;
        }
        if (!o.value().isEmpty()) {
          given++;
          QueueHead h = visit.get(i);
          for (QueueOps.Waiting w : o.value()) {
            out.accept(new UrlInfo(w.url(), h.queue(), h.crawl(), w.metadata()));
          }
        }
      }
      // the URLs the other queues of the window handed out are sent first: they are leased
      if (failure != null) {
        throw failure;
      }
    }
  }

  /** The elements of two iterators, each in {@code order}, in that order. */
  private static <T> Iterator<T> merged(Iterator<T> a, Iterator<T> b, Comparator<? super T> order) {
    return Iterators.mergeSorted(List.of(a, b), order);
  }

  /** Queues of one GetURLs call visited at once (and threads of the pool that visits them). */
  static final int QUEUES_AT_ONCE = 8;

  /** What one task of {@link #fanOut} gave: its value, or its failure. */
  private record Outcome<T>(T value, RuntimeException failure) {}

  /**
   * {@code f} of each of {@code xs}, side by side on the pool (the first in the calling thread),
   * waiting for all of them: their outcomes in order.
   */
  private <X, T> List<Outcome<T>> fanOut(List<X> xs, Function<X, T> f) {
    List<Future<T>> futures = new ArrayList<>(xs.size());
    for (int i = 1; i < xs.size(); i++) {
      X x = xs.get(i);
      futures.add(pool.submit(() -> f.apply(x)));
    }
    List<Outcome<T>> out = new ArrayList<>(xs.size());
    if (!xs.isEmpty()) {
      try {
        out.add(new Outcome<>(f.apply(xs.get(0)), null));
      } catch (RuntimeException e) {
        out.add(new Outcome<>(null, e));
      }
    }
    for (Future<T> fu : futures) {
      try {
        out.add(new Outcome<>(Uninterruptibles.getUninterruptibly(fu), null));
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof Error err) {
          throw err;
        }
        out.add(
            new Outcome<>(
                null,
                c instanceof RuntimeException r
                    ? r
                    : new FrontierUnavailableException(
                        "the frontier's store failed: " + c.getMessage(), c)));
      }
    }
    return out;
  }

  /** Keeps the first of a queue's heads ({@link FrontierEntry#QUEUE_ORDER}). */
  private static void offer(Map<QueueKey, QueueHead> heads, QueueHead h) {
    heads.merge(
        new QueueKey(h.crawl(), h.queue()),
        h,
        (a, b) -> FrontierEntry.QUEUE_ORDER.compare(a.head(), b.head()) <= 0 ? a : b);
  }

  private List<QueueOps.Waiting> serveQueue(
      QueueKey q, ServedView v, ServiceState svc, int max, long leaseMillis, long now) {
    boolean indexed = q.crawl().equals(DEFAULT_CRAWL);
    for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      Read r = read(q, v, List.of(), now);
      QueueState s = r.state();
      int delay = QueueOps.delaySeconds(s, svc.defaultDelaySeconds(), settings);
      if (QueueOps.eligibility(s, true, delay, QueueOps.completed(s.records()), now)
          != QueueOps.Eligibility.ELIGIBLE) {
        return List.of();
      }
      // the entries read so far that are neither leased nor recorded, counted as they come
      int[] counted = {0};
      int[] free = {0};
      List<QueueOps.Derived> derived =
          indexed
              ? derived(
                  v,
                  q.queue(),
                  got -> {
                    if (got.isEmpty()) {
                      return true;
                    }
                    QueueOps.Derived last = got.get(got.size() - 1);
                    if (last.entry().dueMillis() > now) {
                      return false;
                    }
                    if (max == 0) {
                      return true;
                    }
                    for (; counted[0] < got.size(); counted[0]++) {
                      String k = got.get(counted[0]).entry().uriKey();
                      if (!s.leases().containsKey(k) && !s.records().containsKey(k)) {
                        free[0]++;
                      }
                    }
                    return free[0] < max;
                  })
              : List.of();
      List<QueueOps.Waiting> waiting = QueueOps.waiting(q.queue(), derived, s.records());
      Optional<QueueOps.Claim> claim =
          QueueOps.claim(s, waiting, max, now, leaseMillis, owner, newStamp());
      if (claim.isEmpty()) {
        return List.of();
      }
      if (write(q, r.raw(), claim.get().next())) {
        return claim.get().urls();
      }
    }
    return List.of();
  }

  // ------------------------------------------------------------------ PutURLs

  /** An item of a put with its parsed URL and its queue. */
  private record Parsed(PutItem item, WebUrl url, QueueKey queue) {}

  /** The item parsed and placed in its queue, or null when its URL does not parse. */
  private static Parsed parse(PutItem item) {
    UrlInfo info = item.info();
    WebUrl url;
    try {
      url = WebUrl.parse(info.url());
    } catch (InvalidUrlException e) {
      return null;
    }
    String crawl = UrlFrontier.normaliseCrawl(info.crawl());
    boolean indexed = crawl.equals(DEFAULT_CRAWL);
    String queue = indexed || info.queue().isEmpty() ? url.host() : info.queue();
    return new Parsed(item, url, new QueueKey(crawl, queue));
  }

  private Ack putUnguarded(PutItem item) {
    Parsed p = parse(item);
    return p == null ? Ack.SKIPPED : putQueue(p.queue(), List.of(p)).get(0);
  }

  /**
   * The items of one queue: one read of the queue's row (and of what the index says of their URIs),
   * every item applied in order ({@link QueueOps#putAll}), one conditional write; read and applied
   * again when another write came first. All {@code FAIL} after {@link #CAS_ATTEMPTS}.
   */
  private List<Ack> putQueue(QueueKey q, List<Parsed> items) {
    boolean indexed = q.crawl().equals(DEFAULT_CRAWL);
    ServedView v = indexed ? served() : null;
    List<String> keys = new ArrayList<>();
    items.forEach(p -> keys.add(p.url().key()));
    for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      long now = clock.getAsLong();
      Read r = read(q, v, keys, now);
      List<QueueOps.PutRequest> requests = new ArrayList<>(items.size());
      for (Parsed p : items) {
        String key = p.url().key();
        UrlInfo info = p.item().info();
        IndexFacts f = r.facts().getOrDefault(key, IndexFacts.UNKNOWN);
        Long basis = indexed ? f.newestCrawlMillis() : null;
        UrlRecord record;
        if (p.item().discovered()) {
          record =
              new UrlRecord(
                  UrlRecord.State.DISCOVERED, now, null, p.url().toString(), info.metadata());
        } else if (p.item().refetchableFromSeconds() == 0) {
          record =
              new UrlRecord(
                  UrlRecord.State.COMPLETED, 0, basis, p.url().toString(), info.metadata());
        } else {
          record =
              new UrlRecord(
                  UrlRecord.State.KNOWN,
                  p.item().refetchableFromSeconds() * 1000,
                  basis,
                  p.url().toString(),
                  info.metadata());
        }
        requests.add(new QueueOps.PutRequest(key, record, indexed && f.known()));
      }
      QueueOps.BatchOutcome o = QueueOps.putAll(r.state(), requests, newStamp());
      if (o.next() == null || write(q, r.raw(), o.next())) {
        return o.acks();
      }
    }
    return Collections.nCopies(items.size(), Ack.FAIL);
  }

  /**
   * The items grouped by queue, the queues stored side by side on the pool ({@link #putQueue}
   * each); a queue whose store fails answers {@code FAIL} for its items, an unparsable URL {@code
   * SKIPPED}.
   */
  private List<Ack> putAllUnguarded(List<PutItem> items) {
    Ack[] acks = new Ack[items.size()];
    Map<QueueKey, List<Integer>> byQueue = new LinkedHashMap<>();
    List<Parsed> parsed = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      Parsed p = parse(items.get(i));
      parsed.add(p);
      if (p == null) {
        acks[i] = Ack.SKIPPED;
      } else {
        byQueue.computeIfAbsent(p.queue(), k -> new ArrayList<>()).add(i);
      }
    }
    List<Map.Entry<QueueKey, List<Integer>>> groups = new ArrayList<>(byQueue.entrySet());
    List<Outcome<List<Ack>>> done =
        fanOut(
            groups,
            g -> {
              List<Parsed> of = new ArrayList<>(g.getValue().size());
              g.getValue().forEach(i -> of.add(parsed.get(i)));
              return guard(() -> putQueue(g.getKey(), of));
            });
    for (int g = 0; g < groups.size(); g++) {
      List<Integer> at = groups.get(g).getValue();
      Outcome<List<Ack>> o = done.get(g);
      for (int j = 0; j < at.size(); j++) {
        acks[at.get(j)] = o.failure() == null ? o.value().get(j) : Ack.FAIL;
      }
    }
    return List.of(acks);
  }

  // ------------------------------------------------------------------ settings

  private void blockQueueUntilUnguarded(String crawl, String queue, long untilEpochSeconds) {
    if (untilEpochSeconds < 0) {
      throw new IllegalArgumentException("a negative block time " + untilEpochSeconds);
    }
    update(
        key(crawl, queue),
        s -> s.withBlockedUntil(untilEpochSeconds == 0 ? null : untilEpochSeconds));
  }

  private void setActiveUnguarded(boolean active) {
    writeService(FrontierOpsSchema.activeCell(active));
  }

  private boolean activeUnguarded() {
    return service().active();
  }

  private void setDelayUnguarded(String crawl, String queue, int seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("a negative delay " + seconds);
    }
    if (queue == null || queue.isEmpty()) {
      writeService(FrontierOpsSchema.defaultDelayCell(seconds));
    } else {
      update(key(crawl, queue), s -> s.withDelay(seconds));
    }
  }

  private void setCrawlLimitUnguarded(String crawl, String queue, long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("a negative crawl limit " + limit);
    }
    update(key(crawl, queue), s -> s.withLimit(limit == 0 ? null : limit));
  }

  private static QueueKey key(String crawl, String queue) {
    if (queue == null || queue.isEmpty()) {
      throw new IllegalArgumentException("no queue key");
    }
    return new QueueKey(UrlFrontier.normaliseCrawl(crawl), queue);
  }

  // ------------------------------------------------------------------ views

  /** One queue as the listings and statistics see it. */
  private record View(
      QueueKey key,
      QueueState state,
      List<QueueOps.Waiting> waiting,
      SortedMap<String, UrlRecord> completed) {}

  /**
   * Every queue of {@code crawl} ({@code queue} empty) or one, with its URLs. For {@code DEFAULT}
   * this reads the whole served frontier table (or the queue's row) and the crawl's rows of the
   * operational table.
   */
  private void forEachQueue(String crawl, String queue, Consumer<View> out) {
    long now = clock.getAsLong();
    boolean indexed = crawl.equals(DEFAULT_CRAWL);
    SortedMap<QueueKey, QueueState> ops;
    if (queue.isEmpty()) {
      ops = readCrawl(crawl, null);
    } else {
      ops =
          new TreeMap<>(
              java.util.Comparator.comparing(QueueKey::crawl).thenComparing(QueueKey::queue));
      QueueKey k = new QueueKey(crawl, queue);
      ops.put(k, readQueue(k));
    }
    ServedView v = indexed ? served() : null;
    Map<String, IndexFacts> facts = Map.of();
    if (indexed) {
      List<String> keys = new ArrayList<>();
      ops.values().forEach(s -> keys.addAll(s.records().keySet()));
      facts = facts(v, keys);
    }
    SortedMap<String, List<QueueOps.Derived>> derived = new TreeMap<>();
    if (indexed && v.hasFrontier()) {
      try (Scanner s = scanner(FrontierSchema.frontierTable(v.queryTable()))) {
        s.setRange(
            queue.isEmpty()
                ? Range.prefix(FrontierSchema.QUEUE_PREFIX)
                : Range.exact(FrontierSchema.queueRow(queue)));
        for (Map.Entry<Key, Value> e : s) {
          Cell c = Cells.fromEntry(e.getKey(), e.getValue());
          try {
            FrontierEntry fe = FrontierSchema.decode(c);
            derived
                .computeIfAbsent(fe.queue(), x -> new ArrayList<>())
                .add(new QueueOps.Derived(fe, c.value()));
          } catch (IllegalArgumentException bad) {
            // skipped
          }
        }
      }
    }
    SortedMap<String, QueueState> byQueue = new TreeMap<>();
    ops.forEach((k, s) -> byQueue.put(k.queue(), s));
    Set<String> names = new TreeSet<>(byQueue.keySet());
    names.addAll(derived.keySet());
    for (String name : names) {
      QueueState raw = byQueue.getOrDefault(name, QueueState.EMPTY);
      QueueState s = QueueOps.normalised(raw, indexed, facts, now);
      SortedMap<String, UrlRecord> completed = new TreeMap<>();
      s.records()
          .forEach(
              (k, r) -> {
                if (r.state() == UrlRecord.State.COMPLETED) {
                  completed.put(k, r);
                }
              });
      List<QueueOps.Waiting> waiting =
          QueueOps.waiting(name, derived.getOrDefault(name, List.of()), s.records());
      out.accept(new View(new QueueKey(crawl, name), s, waiting, completed));
    }
  }

  private boolean blocked(QueueState s, long now) {
    return s.blockedUntilSeconds() != null && s.blockedUntilSeconds() * 1000 > now;
  }

  private List<String> listQueuesUnguarded(
      String crawl, long start, long size, boolean includeInactive) {
    String c = UrlFrontier.normaliseCrawl(crawl);
    long now = clock.getAsLong();
    SortedMap<QueueKey, QueueState> ops = readCrawl(c, null);
    SortedMap<String, Boolean> names = new TreeMap<>();
    if (c.equals(DEFAULT_CRAWL)) {
      served().heads().keySet().forEach(q -> names.put(q, true));
    }
    ops.forEach(
        (k, s) -> {
          boolean waiting =
              names.getOrDefault(k.queue(), false)
                  || s.records().values().stream()
                      .anyMatch(r -> r.state() != UrlRecord.State.COMPLETED);
          names.put(k.queue(), waiting && !blocked(s, now));
        });
    long page = size == 0 ? DEFAULT_PAGE : size;
    return names.entrySet().stream()
        .filter(e -> includeInactive || e.getValue())
        .map(Map.Entry::getKey)
        .skip(start)
        .limit(page)
        .toList();
  }

  private Stats statsUnguarded(String crawl, String queue) {
    String c = UrlFrontier.normaliseCrawl(crawl);
    long now = clock.getAsLong();
    ServiceState svc = service();
    long[] t = new long[5]; // size, in process, completed, active queues, queues
    forEachQueue(
        c,
        queue == null ? "" : queue,
        view -> {
          QueueState s = view.state();
          long live = s.leases().values().stream().filter(l -> l.liveAt(now)).count();
          t[0] += view.waiting().size();
          t[1] += live;
          t[2] += view.completed().size();
          int delay = QueueOps.delaySeconds(s, svc.defaultDelaySeconds(), settings);
          QueueOps.Eligibility e =
              QueueOps.eligibility(s, svc.active(), delay, view.completed().size(), now);
          if (!view.waiting().isEmpty()
              && e != QueueOps.Eligibility.BLOCKED
              && e != QueueOps.Eligibility.LIMIT) {
            t[3]++;
          }
          if (!view.waiting().isEmpty() || !view.completed().isEmpty() || !s.isEmpty()) {
            t[4]++;
          }
        });
    Map<String, Long> counts = new TreeMap<>();
    counts.put("completed", t[2]);
    counts.put("active_queues", t[3]);
    return new Stats(t[0], t[1], counts, t[4], c);
  }

  private Optional<UrlStatus> urlStatusUnguarded(String crawl, String url, String queue) {
    String c = UrlFrontier.normaliseCrawl(crawl);
    WebUrl u;
    try {
      u = WebUrl.parse(url);
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("not a URL: " + url);
    }
    String key = u.key();
    String q = c.equals(DEFAULT_CRAWL) || queue == null || queue.isEmpty() ? u.host() : queue;
    List<UrlStatus> found = new ArrayList<>();
    forEachQueue(
        c,
        q,
        view -> {
          for (QueueOps.Waiting w : view.waiting()) {
            if (w.entry().uriKey().equals(key)) {
              found.add(status(view.key(), w));
            }
          }
          UrlRecord done = view.completed().get(key);
          if (done != null) {
            found.add(new UrlStatus(new UrlInfo(done.url(), q, c, done.metadata()), 0));
          }
        });
    return found.stream().findFirst();
  }

  private static UrlStatus status(QueueKey q, QueueOps.Waiting w) {
    return UrlStatus.waiting(
        new UrlInfo(w.url(), q.queue(), q.crawl(), w.metadata()), w.entry().dueMillis());
  }

  private void select(UrlSelection sel, Consumer<UrlStatus> out) {
    String c = UrlFrontier.normaliseCrawl(sel.crawl());
    String filter =
        sel.filter() == null
            ? null
            : sel.ignoreCase() ? sel.filter().toLowerCase(Locale.ROOT) : sel.filter();
    java.util.function.Predicate<String> matches =
        u -> filter == null || (sel.ignoreCase() ? u.toLowerCase(Locale.ROOT) : u).contains(filter);
    forEachQueue(
        c,
        sel.queue(),
        view -> {
          for (QueueOps.Waiting w : view.waiting()) {
            if (matches.test(w.url())) {
              out.accept(status(view.key(), w));
            }
          }
          view.completed()
              .values()
              .forEach(
                  r -> {
                    if (matches.test(r.url())) {
                      out.accept(
                          new UrlStatus(
                              new UrlInfo(r.url(), view.key().queue(), c, r.metadata()), 0));
                    }
                  });
        });
  }

  private void listUrlsUnguarded(UrlSelection selection, Consumer<UrlStatus> out) {
    long page = selection.size() == 0 ? DEFAULT_PAGE : selection.size();
    long[] seen = new long[1];
    select(
        selection,
        s -> {
          long i = seen[0]++;
          if (i >= selection.start() && i < selection.start() + page) {
            out.accept(s);
          }
        });
  }

  private long countUrlsUnguarded(UrlSelection selection) {
    long[] n = new long[1];
    select(selection, s -> n[0]++);
    return n[0];
  }

  private List<String> listCrawlsUnguarded() {
    Set<String> crawls = new TreeSet<>();
    if (served().hasFrontier()) {
      crawls.add(DEFAULT_CRAWL);
    }
    try (Scanner s = scanner(opsTable)) {
      s.setRange(Range.prefix(FrontierOpsSchema.QUEUE_PREFIX));
      s.addScanIterator(new IteratorSetting(50, "first", FirstEntryInRowIterator.class));
      for (Map.Entry<Key, Value> e : s) {
        crawls.add(FrontierOpsSchema.queueOfRow(e.getKey().getRow().toString()).crawl());
      }
    }
    return List.copyOf(crawls);
  }

  // ------------------------------------------------------------------ deletions

  private long deleteQueueUnguarded(String crawl, String queue) {
    QueueKey q = key(crawl, queue);
    refuseDefault(q.crawl());
    for (int attempt = 0; attempt < CAS_ATTEMPTS * 4; attempt++) {
      QueueState raw = readQueue(q);
      if (raw.stamp() == null && raw.isEmpty()) {
        return 0;
      }
      if (write(q, raw, QueueState.EMPTY)) {
        return raw.records().size();
      }
    }
    throw new FrontierUnavailableException(
        "queue " + q.queue() + " of crawl " + q.crawl() + " changed too often to be deleted", null);
  }

  private long deleteCrawlUnguarded(String crawl) {
    String c = UrlFrontier.normaliseCrawl(crawl);
    refuseDefault(c);
    long n = 0;
    for (QueueKey q : readCrawl(c, FrontierOpsSchema.FAM_CFG).keySet()) {
      n += deleteQueue(c, q.queue());
    }
    return n;
  }

  private static void refuseDefault(String crawl) {
    if (crawl.equals(DEFAULT_CRAWL)) {
      throw new UnsupportedOperationException(
          "the DEFAULT crawl's queues are derived from the index and cannot be deleted:"
              + " block a queue (BlockQueueUntil) or set its crawl limit instead");
    }
  }

  @Override
  public void close() {
    pool.shutdown();
    writer.close();
  }

  // ------------------------------------------------------------------ the operations

  @Override
  public void getUrls(GetParams params, Consumer<UrlInfo> out) {
    guard(
        () -> {
          getUrlsUnguarded(params, out);
          return null;
        });
  }

  @Override
  public Ack put(PutItem item) {
    return guard(() -> putUnguarded(item));
  }

  @Override
  public List<Ack> putAll(List<PutItem> items) {
    return putAllUnguarded(items);
  }

  @Override
  public void blockQueueUntil(String crawl, String queue, long untilEpochSeconds) {
    guard(
        () -> {
          blockQueueUntilUnguarded(crawl, queue, untilEpochSeconds);
          return null;
        });
  }

  @Override
  public void setActive(boolean active) {
    guard(
        () -> {
          setActiveUnguarded(active);
          return null;
        });
  }

  @Override
  public boolean active() {
    return guard(() -> activeUnguarded());
  }

  @Override
  public void setDelay(String crawl, String queue, int seconds) {
    guard(
        () -> {
          setDelayUnguarded(crawl, queue, seconds);
          return null;
        });
  }

  @Override
  public void setCrawlLimit(String crawl, String queue, long limit) {
    guard(
        () -> {
          setCrawlLimitUnguarded(crawl, queue, limit);
          return null;
        });
  }

  @Override
  public List<String> listQueues(String crawl, long start, long size, boolean includeInactive) {
    return guard(() -> listQueuesUnguarded(crawl, start, size, includeInactive));
  }

  @Override
  public Stats stats(String crawl, String queue) {
    return guard(() -> statsUnguarded(crawl, queue));
  }

  @Override
  public Optional<UrlStatus> urlStatus(String crawl, String url, String queue) {
    return guard(() -> urlStatusUnguarded(crawl, url, queue));
  }

  @Override
  public void listUrls(UrlSelection selection, Consumer<UrlStatus> out) {
    guard(
        () -> {
          listUrlsUnguarded(selection, out);
          return null;
        });
  }

  @Override
  public long countUrls(UrlSelection selection) {
    return guard(() -> countUrlsUnguarded(selection));
  }

  @Override
  public List<String> listCrawls() {
    return guard(() -> listCrawlsUnguarded());
  }

  @Override
  public long deleteQueue(String crawl, String queue) {
    return guard(() -> deleteQueueUnguarded(crawl, queue));
  }

  @Override
  public long deleteCrawl(String crawl) {
    return guard(() -> deleteCrawlUnguarded(crawl));
  }

  /**
   * Runs one operation: a request the frontier refuses stays as it is ({@link
   * IllegalArgumentException}, {@link UnsupportedOperationException}); any other failure (the store
   * unreachable, a scan refused) becomes a {@link FrontierUnavailableException}.
   */
  private static <T> T guard(java.util.function.Supplier<T> op) {
    try {
      return op.get();
    } catch (IllegalArgumentException
        | UnsupportedOperationException
        | FrontierUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new FrontierUnavailableException("the frontier's store failed: " + e.getMessage(), e);
    }
  }

  // ------------------------------------------------------------------ plumbing

  private Scanner scanner(String table) {
    try {
      return conn.createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      throw new FrontierUnavailableException("no table " + table, e);
    }
  }

  private BatchScanner batchScanner(String table) {
    try {
      return conn.createBatchScanner(table, Authorizations.EMPTY, 2);
    } catch (TableNotFoundException e) {
      throw new FrontierUnavailableException("no table " + table, e);
    }
  }
}
