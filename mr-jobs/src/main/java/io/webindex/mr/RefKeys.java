package io.webindex.mr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Partitioner;

/**
 * The shuffle keys of the per-URI job, which writes each URI's query-table row directly as sorted
 * RFiles: {@code <uri> 0x00} for the URI's own current version, {@code <uri> 0x01 <source>} for
 * each inlink and {@code <uri> 0x02} for the urc points of the previous run's history table. URI
 * keys are printable ASCII without space ({@code QuerySchema.requireKeyText}), so the separator
 * sorts below every character of a URI: the keys sort by URI exactly as the rows {@code p:<uri>}
 * do, within a URI the own version first, then the inlinks by source, which is the order of the
 * {@code inlinks:<source>} qualifiers in the row, then the old urc points. Reducers group by the
 * URI alone ({@link UriGrouping}) and receive key ranges ({@link UriPartitioner}) along the table's
 * split points.
 */
final class RefKeys {
  static final byte OWN = 0;
  static final byte INLINK = 1;
  static final byte URC_POINTS = 2;

  private RefKeys() {}

  /** The key of a URI's own current version. */
  static Text own(Text reuse, byte[] uri) {
    reuse.set(uri);
    reuse.append(new byte[] {OWN}, 0, 1);
    return reuse;
  }

  /** The key of the inlink {@code source → target}. */
  static Text inlink(Text reuse, byte[] target, byte[] source) {
    reuse.set(target);
    reuse.append(new byte[] {INLINK}, 0, 1);
    reuse.append(source, 0, source.length);
    return reuse;
  }

  /** The key of a URI's urc points from the previous run. */
  static Text urcPoints(Text reuse, byte[] uri) {
    reuse.set(uri);
    reuse.append(new byte[] {URC_POINTS}, 0, 1);
    return reuse;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Length of the URI part of a key's bytes. */
  static int uriLength(byte[] b, int start, int length) {
    for (int i = 0; i < length; i++) {
      if (b[start + i] <= URC_POINTS) {
        return i;
      }
    }
    throw new IllegalArgumentException("not a reference key (no separator)");
  }

  static String uri(Text key) {
    return new String(
        key.getBytes(), 0, uriLength(key.getBytes(), 0, key.getLength()), StandardCharsets.UTF_8);
  }

  /** The source URI of an inlink key. */
  static String source(Text key) {
    int u = uriLength(key.getBytes(), 0, key.getLength());
    if (key.getBytes()[u] != INLINK) {
      throw new IllegalArgumentException("not an inlink key");
    }
    return new String(key.getBytes(), u + 1, key.getLength() - u - 1, StandardCharsets.UTF_8);
  }

  /** Groups serialized keys by their URI part (the bytes of a {@link Text} after its length). */
  public static final class UriGrouping extends WritableComparator {
    public UriGrouping() {
      super(Text.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int h1 = WritableUtils.decodeVIntSize(b1[s1]);
      int h2 = WritableUtils.decodeVIntSize(b2[s2]);
      int u1 = uriLength(b1, s1 + h1, l1 - h1);
      int u2 = uriLength(b2, s2 + h2, l2 - h2);
      return compareBytes(b1, s1 + h1, u1, b2, s2 + h2, u2);
    }
  }

  /**
   * Sends each URI to the reducer of its tablet: reducer {@code i} gets the URIs in (split {@code
   * i-1}, split {@code i}], as Accumulo's tablets hold their rows, so the row files one reducer
   * writes fall into one tablet.
   */
  public static final class UriPartitioner<V> extends Partitioner<Text, V> implements Configurable {
    static final String SPLITS = "webindex.mr.splits.uris";

    private Configuration conf;
    private byte[][] splits;

    static void setSplits(Configuration c, List<byte[]> uriSplits) {
      c.set(SPLITS, SplitSampling.encode(uriSplits));
    }

    @Override
    public void setConf(Configuration c) {
      conf = c;
      splits = SplitSampling.decode(c.get(SPLITS)).toArray(new byte[0][]);
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int getPartition(Text key, V value, int numPartitions) {
      byte[] b = key.getBytes();
      int u = uriLength(b, 0, key.getLength());
      int lo = 0;
      int hi = splits.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Arrays.compareUnsigned(b, 0, u, splits[mid], 0, splits[mid].length) <= 0) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
  }
}
