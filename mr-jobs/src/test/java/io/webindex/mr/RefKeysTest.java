package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/**
 * The per-URI job's shuffle keys sort, group and partition as the rows {@code p:<uri>} and their
 * {@code inlinks:<source>} qualifiers sort in Accumulo (unsigned bytes), which is what lets job 2
 * write RFiles without a second sort. Expected orders are Accumulo's, computed here on the row and
 * qualifier strings, not with the code under test.
 */
class RefKeysTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A key as Hadoop's shuffle holds it: the serialized {@link Text}. */
  private static byte[] serialized(Text t) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    t.write(new DataOutputStream(out));
    return out.toByteArray();
  }

  /** A reference: the own version (no source), an inlink, or the old urc points ({@code urc}). */
  private record Ref(String uri, String source, boolean urc) {
    Ref(String uri, String source) {
      this(uri, source, false);
    }

    Text key() {
      if (urc) {
        return RefKeys.urcPoints(new Text(), b(uri));
      }
      return source == null
          ? RefKeys.own(new Text(), b(uri))
          : RefKeys.inlink(new Text(), b(uri), b(source));
    }

    /** Within a URI: own version, inlinks, then the old urc points. */
    int rank() {
      return urc ? 2 : source == null ? 0 : 1;
    }
  }

  @Test
  void keysSortAsTheRowsAndQualifiersTheyBecome() throws IOException {
    // URIs that are prefixes of each other, share long prefixes, and use the lowest and highest
    // printable characters next to the separator
    List<String> uris =
        List.of(
            "http://a.com/",
            "http://a.com/!",
            "http://a.com/~",
            "http://a.com/x",
            "http://a.com/x/y",
            "http://a.com",
            "https://a.com/");
    List<Ref> refs = new ArrayList<>();
    for (String u : uris) {
      refs.add(new Ref(u, null));
      refs.add(new Ref(u, null, true));
      for (String s : uris) {
        refs.add(new Ref(u, s));
      }
    }
    WritableComparator sort = WritableComparator.get(Text.class);
    for (Ref x : refs) {
      for (Ref y : refs) {
        byte[] kx = serialized(x.key());
        byte[] ky = serialized(y.key());
        int expected = compareAccumulo(x, y);
        int actual = Integer.signum(sort.compare(kx, 0, kx.length, ky, 0, ky.length));
        assertEquals(expected, actual, x + " vs " + y);
        int expectedGroup = Integer.signum(Arrays.compareUnsigned(b(x.uri), b(y.uri)));
        int group =
            Integer.signum(new RefKeys.UriGrouping().compare(kx, 0, kx.length, ky, 0, ky.length));
        assertEquals(expectedGroup, group, "grouping " + x + " vs " + y);
      }
    }
  }

  /**
   * Row first, then (own version before every inlink, the old urc points after them) the qualifier,
   * as unsigned bytes.
   */
  private static int compareAccumulo(Ref x, Ref y) {
    int c = Arrays.compareUnsigned(b("p:" + x.uri), b("p:" + y.uri));
    if (c != 0) {
      return Integer.signum(c);
    }
    if (x.rank() != y.rank() || x.rank() != 1) {
      return Integer.compare(x.rank(), y.rank());
    }
    return Integer.signum(Arrays.compareUnsigned(b(x.source), b(y.source)));
  }

  @Test
  void partitionsFollowTheTabletsOfTheSplitRows() {
    Configuration c = new Configuration(false);
    RefKeys.UriPartitioner.setSplits(c, List.of(b("http://b.com/"), b("http://d.com/")));
    RefKeys.UriPartitioner<Object> p = new RefKeys.UriPartitioner<>();
    p.setConf(c);
    // Accumulo tablets hold (previous split, split]: a split row belongs to the tablet it ends
    assertEquals(0, p.getPartition(RefKeys.own(new Text(), b("http://a.com/")), null, 3));
    assertEquals(0, p.getPartition(RefKeys.own(new Text(), b("http://b.com/")), null, 3));
    assertEquals(
        0, p.getPartition(RefKeys.inlink(new Text(), b("http://b.com/"), b("http://z/")), null, 3));
    assertEquals(1, p.getPartition(RefKeys.own(new Text(), b("http://b.com/x")), null, 3));
    assertEquals(1, p.getPartition(RefKeys.own(new Text(), b("http://d.com/")), null, 3));
    assertEquals(2, p.getPartition(RefKeys.own(new Text(), b("http://d.com/a")), null, 3));
    assertEquals(
        2, p.getPartition(RefKeys.inlink(new Text(), b("http://e.com/"), b("http://a/")), null, 3));
    assertEquals(0, p.getPartition(RefKeys.urcPoints(new Text(), b("http://b.com/")), null, 3));
    assertEquals(1, p.getPartition(RefKeys.urcPoints(new Text(), b("http://b.com/x")), null, 3));
  }

  @Test
  void uriAndSourceComeBackFromTheKey() {
    Text k = RefKeys.inlink(new Text(), b("http://t.com/"), b("http://s.com/p?q=1"));
    assertEquals("http://t.com/", RefKeys.uri(k));
    assertEquals("http://s.com/p?q=1", RefKeys.source(k));
    assertEquals("http://t.com/", RefKeys.uri(RefKeys.own(k, b("http://t.com/"))));
    assertTrue(k.getLength() == "http://t.com/".length() + 1, "reused key is reset");
  }
}
