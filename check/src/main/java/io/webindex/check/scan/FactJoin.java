package io.webindex.check.scan;

import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.UriFact;
import io.webindex.check.engine.UriFacts;
import io.webindex.core.url.Domains;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Joins one table's URI facts per URI in bounded memory, for {@link UriFacts#check}: the facts are
 * collected in a buffer of at most {@link #BUFFER_BYTES}, which is sorted by a 64-bit hash of the
 * URI ({@link #hash}: a host's URIs together) and written to a temporary file when full (a sorted
 * run); {@link #check} merges the runs and checks the facts of each URI (the facts of one hash are
 * split by their exact URI, so a collision of hashes never joins two URIs). Memory stays the same
 * whatever the table's size; the disk holds about 60 bytes per fact.
 */
final class FactJoin implements Consumer<UriFact>, AutoCloseable {
  static final int BUFFER_BYTES = 16 << 20;
  private static final int MAX_FACTS = 1 << 20;
  private static final int IDX_BITS = 20;
  private static final long HASH_MASK = -1L << IDX_BITS;
  private static final UriFact.Type[] TYPES = UriFact.Type.values();

  private final String table;
  private final Path dir;
  private final int bufferBytes;
  private final int maxFacts;
  private final ToLongFunction<byte[]> hash;
  private Function<String, String> domains = Domains::ofKey;
  private final List<Path> runs = new ArrayList<>();
  private Arena arena;
  private long[] keys = new long[1024];
  private int[] offsets = new int[1024];
  private int n;
  private int spilled;

  /**
   * @param dir where the sorted runs go (created when needed; the caller deletes it)
   */
  FactJoin(String table, Path dir) {
    this(table, dir, BUFFER_BYTES, MAX_FACTS, FactJoin::hash);
  }

  /**
   * @param domains the domains of URI keys ({@link Domains#ofKey}'s answers, or its {@link
   *     IllegalArgumentException}), such as {@link Domains#remembering}'s
   */
  FactJoin(String table, Path dir, Function<String, String> domains) {
    this(table, dir, BUFFER_BYTES, MAX_FACTS, FactJoin::hash);
    this.domains = domains;
  }

  /** With a smaller buffer or another hash: for tests of the runs and of hash collisions. */
  FactJoin(String table, Path dir, int bufferBytes, int maxFacts, ToLongFunction<byte[]> hash) {
    if (maxFacts < 1 || maxFacts > MAX_FACTS) {
      throw new IllegalArgumentException("maxFacts must be 1.." + MAX_FACTS);
    }
    this.table = table;
    this.dir = dir;
    this.bufferBytes = bufferBytes;
    this.maxFacts = maxFacts;
    this.hash = hash;
    this.arena = new Arena(bufferBytes);
  }

  /** The number of sorted runs written to disk. */
  int runs() {
    return spilled;
  }

  @Override
  public void accept(UriFact f) {
    if (n == maxFacts || arena.size() >= bufferBytes) {
      spill();
    }
    byte[] uri = f.uri().getBytes(StandardCharsets.UTF_8);
    if (n == keys.length) {
      keys = Arrays.copyOf(keys, n * 2);
      offsets = Arrays.copyOf(offsets, n * 2);
    }
    keys[n] = (hash.applyAsLong(uri) & HASH_MASK) | n;
    offsets[n] = arena.size();
    arena.writeFact(uri, f.type().ordinal(), f.urc(), f.domain());
    n++;
  }

  /**
   * Checks the facts of every URI, reporting to {@code listener}; then frees the runs. Stops
   * ({@link IllegalStateException}) when its thread is interrupted.
   */
  void check(CheckListener listener) {
    Arrays.sort(keys, 0, n);
    List<Source> sources = new ArrayList<>();
    try {
      for (Path p : runs) {
        sources.add(new FileSource(p));
      }
      sources.add(new BufferSource(arena.buf(), keys, offsets, n));
      PriorityQueue<Source> queue =
          new PriorityQueue<>(
              (a, b) -> a.hash != b.hash ? Long.compare(a.hash, b.hash) : a.order - b.order);
      for (int i = 0; i < sources.size(); i++) {
        Source s = sources.get(i);
        s.order = i;
        if (s.advance()) {
          queue.add(s);
        }
      }
      List<Fact> group = new ArrayList<>();
      int groups = 0;
      while (!queue.isEmpty()) {
        if ((++groups & 0xfff) == 0 && Thread.currentThread().isInterrupted()) {
          throw new IllegalStateException("the check has ended: its fact join stopped");
        }
        long h = queue.peek().hash;
        group.clear();
        while (!queue.isEmpty() && queue.peek().hash == h) {
          Source s = queue.poll();
          group.add(s.fact);
          if (s.advance()) {
            queue.add(s);
          }
        }
        checkGroup(group, listener);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (Source s : sources) {
        s.close();
      }
      close();
    }
  }

  /** The facts of one hash: one URI almost always; split by URI, in order of first appearance. */
  private void checkGroup(List<Fact> group, CheckListener listener) {
    if (group.size() <= 3 && sameUri(group)) {
      emit(group, listener);
      return;
    }
    boolean[] done = new boolean[group.size()];
    for (int i = 0; i < group.size(); i++) {
      if (done[i]) {
        continue;
      }
      List<Fact> one = new ArrayList<>();
      for (int j = i; j < group.size(); j++) {
        if (!done[j] && Arrays.equals(group.get(i).uri, group.get(j).uri)) {
          one.add(group.get(j));
          done[j] = true;
        }
      }
      emit(one, listener);
    }
  }

  private static boolean sameUri(List<Fact> group) {
    for (int i = 1; i < group.size(); i++) {
      if (!Arrays.equals(group.get(0).uri, group.get(i).uri)) {
        return false;
      }
    }
    return true;
  }

  private void emit(List<Fact> facts, CheckListener listener) {
    String uri = new String(facts.get(0).uri, StandardCharsets.UTF_8);
    List<UriFact> list = new ArrayList<>(facts.size());
    for (Fact f : facts) {
      list.add(new UriFact(uri, TYPES[f.type], f.urc, f.domain));
    }
    UriFacts.check(table, uri, list, domains).forEach(v -> listener.violation(table, v));
  }

  private void spill() {
    Arrays.sort(keys, 0, n);
    try {
      Files.createDirectories(dir);
      Path run = Files.createTempFile(dir, "facts-", ".run");
      runs.add(run);
      spilled++;
      byte[] buf = arena.buf();
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
        for (int i = 0; i < n; i++) {
          int idx = (int) (keys[i] & ~HASH_MASK);
          int off = offsets[idx];
          int end = idx + 1 < n ? offsets[idx + 1] : arena.size();
          out.writeLong(keys[i] & HASH_MASK);
          out.write(buf, off, end - off);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the check's sorted facts to " + dir, e);
    }
    arena = new Arena(bufferBytes);
    n = 0;
  }

  @Override
  public void close() {
    for (Path p : runs) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // best effort: the caller deletes the directory
      }
    }
    runs.clear();
    arena = new Arena(bufferBytes);
    n = 0;
  }

  /** The high bits of a fact's hash: its host's. */
  static final int HOST_BITS = 22;

  /**
   * The hash the facts are sorted and grouped by: its high {@link #HOST_BITS} bits a hash of the
   * key up to its first '/' (a URI key's host: {@code com.example/...}), the rest a hash of the
   * whole key. The facts of one URI share it, as any function of the URI would have them; those of
   * one host come one after the other, so the join asks a host's domain once for all its URIs (the
   * domain look-up remembers the hosts it met, and a table holds more hosts than it keeps).
   */
  static long hash(byte[] b) {
    int end = 0;
    while (end < b.length && b[end] != '/') {
      end++;
    }
    long host = fnv(b, end);
    long uri = end == b.length ? host : fnv(b, b.length);
    return (host & (-1L << (64 - HOST_BITS))) | (uri >>> HOST_BITS);
  }

  /** 64-bit FNV-1a of {@code b[0..n)} with a final mix. */
  private static long fnv(byte[] b, int n) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < n; i++) {
      h ^= b[i] & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  /** One fact read back. */
  private record Fact(byte[] uri, int type, long urc, String domain) {}

  /** A byte buffer the facts are appended to: uri length, uri, type, urc, domain length, domain. */
  private static final class Arena {
    private static final byte[] EMPTY = new byte[0];
    private final int limit;
    private byte[] buf = new byte[1 << 16];
    private int size;

    Arena(int limit) {
      this.limit = limit;
    }

    byte[] buf() {
      return buf;
    }

    int size() {
      return size;
    }

    void writeFact(byte[] uri, int type, long urc, String domain) {
      byte[] d = domain.isEmpty() ? EMPTY : domain.getBytes(StandardCharsets.UTF_8);
      int need = 4 + uri.length + 1 + 8 + 4 + d.length;
      if (size + need > buf.length) {
        // doubling, but never far beyond the budget: the buffer is spilled once it is reached
        buf = Arrays.copyOf(buf, Math.max(Math.min(buf.length * 2, limit + need), size + need));
      }
      size = putInt(size, uri.length);
      System.arraycopy(uri, 0, buf, size, uri.length);
      size += uri.length;
      buf[size++] = (byte) type;
      for (int s = 56; s >= 0; s -= 8) {
        buf[size++] = (byte) (urc >>> s);
      }
      size = putInt(size, d.length);
      System.arraycopy(d, 0, buf, size, d.length);
      size += d.length;
    }

    private int putInt(int p, int v) {
      buf[p] = (byte) (v >>> 24);
      buf[p + 1] = (byte) (v >>> 16);
      buf[p + 2] = (byte) (v >>> 8);
      buf[p + 3] = (byte) v;
      return p + 4;
    }
  }

  /** A sorted sequence of facts: the buffer or a run on disk. */
  private abstract static class Source {
    long hash;
    Fact fact;
    int order;

    abstract boolean advance() throws IOException;

    void close() {}
  }

  private static Fact read(RunReader in) throws IOException {
    byte[] uri = new byte[in.readInt()];
    in.readFully(uri);
    int type = in.readUnsignedByte();
    long urc = in.readLong();
    int dl = in.readInt();
    String domain;
    if (dl == 0) {
      domain = "";
    } else {
      byte[] d = new byte[dl];
      in.readFully(d);
      domain = new String(d, StandardCharsets.UTF_8);
    }
    return new Fact(uri, type, urc, domain);
  }

  /**
   * Reads a sorted run through a buffer of its own: {@code DataInputStream} over a {@code
   * BufferedInputStream} takes a lock for every byte of every number.
   */
  static final class RunReader implements AutoCloseable {
    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int lim;

    RunReader(InputStream in) {
      this.in = in;
    }

    /** Whether a byte is left (reads more if needed). */
    boolean more() throws IOException {
      if (pos < lim) {
        return true;
      }
      lim = Math.max(0, in.read(buf, 0, buf.length));
      pos = 0;
      return lim > 0;
    }

    private void need(int k) throws IOException {
      if (lim - pos >= k) {
        return;
      }
      System.arraycopy(buf, pos, buf, 0, lim - pos);
      lim -= pos;
      pos = 0;
      while (lim < k) {
        int r = in.read(buf, lim, buf.length - lim);
        if (r < 0) {
          throw new EOFException("a sorted run of the check ends inside a fact");
        }
        lim += r;
      }
    }

    int readUnsignedByte() throws IOException {
      need(1);
      return buf[pos++] & 0xff;
    }

    int readInt() throws IOException {
      need(4);
      int v = intAt(buf, pos);
      pos += 4;
      return v;
    }

    long readLong() throws IOException {
      need(8);
      long v = ((long) intAt(buf, pos) << 32) | (intAt(buf, pos + 4) & 0xffffffffL);
      pos += 8;
      return v;
    }

    void readFully(byte[] b) throws IOException {
      int off = 0;
      while (off < b.length) {
        if (pos == lim && !more()) {
          throw new EOFException("a sorted run of the check ends inside a fact");
        }
        int k = Math.min(b.length - off, lim - pos);
        System.arraycopy(buf, pos, b, off, k);
        pos += k;
        off += k;
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  private static Fact readAt(byte[] b, int off) {
    int ul = intAt(b, off);
    int p = off + 4;
    byte[] uri = Arrays.copyOfRange(b, p, p + ul);
    p += ul;
    int type = b[p++] & 0xff;
    long urc = 0;
    for (int i = 0; i < 8; i++) {
      urc = (urc << 8) | (b[p++] & 0xff);
    }
    int dl = intAt(b, p);
    p += 4;
    String domain = dl == 0 ? "" : new String(b, p, dl, StandardCharsets.UTF_8);
    return new Fact(uri, type, urc, domain);
  }

  private static int intAt(byte[] b, int p) {
    return (b[p] & 0xff) << 24
        | (b[p + 1] & 0xff) << 16
        | (b[p + 2] & 0xff) << 8
        | (b[p + 3] & 0xff);
  }

  private static final class FileSource extends Source {
    private final RunReader in;

    FileSource(Path p) throws IOException {
      in = new RunReader(Files.newInputStream(p));
    }

    @Override
    boolean advance() throws IOException {
      if (!in.more()) {
        return false;
      }
      hash = in.readLong();
      fact = read(in);
      return true;
    }

    @Override
    void close() {
      try {
        in.close();
      } catch (IOException e) {
        // read to the end already, or failing anyway
      }
    }
  }

  private static final class BufferSource extends Source {
    private final byte[] buf;
    private final long[] keys;
    private final int[] offsets;
    private final int n;
    private int i;

    BufferSource(byte[] buf, long[] keys, int[] offsets, int n) {
      this.buf = buf;
      this.keys = keys;
      this.offsets = offsets;
      this.n = n;
    }

    @Override
    boolean advance() throws IOException {
      if (i == n) {
        return false;
      }
      long k = keys[i++];
      hash = k & HASH_MASK;
      int idx = (int) (k & ~HASH_MASK);
      fact = readAt(buf, offsets[idx]);
      return true;
    }
  }
}
