package io.webindex.seed;

import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.CellChangeCodec;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.schema.TimedCellChangeCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;

/**
 * The fluo-recipes serializer for every key and value of webindex's queues: readable text (UTF-8),
 * so the Fluo table can be inspected with a plain scan. Strings (the queues' keys) followed by
 * {@link #KEY_TRAILER}, longs in decimal, URI sums and updates as {@code <urc>,<crawled>[,<next
 * fetch ms>]} ({@link FluoSchema#encodeUriSum}), exports as encoded cell changes ({@link
 * CellChangeCodec}) followed by encoded history changes ({@link TimedCellChangeCodec}: lines with
 * other first letters) and the frontier-table changes (cell-change lines each prefixed with {@link
 * #FRONTIER_LINE}).
 *
 * <p>Why the trailer: a combine queue takes each key out of its update rows ({@code
 * <id>:u:<bucket>:<key><8-byte timestamp>}) as a slice of the row, and groups the updates in a hash
 * map by those slices. Fluo 1.2.0's {@code Bytes.equals} compares a slice that starts at offset
 * {@code n} of its array only up to byte {@code length} of the array, so it ignores the slice's
 * last {@code n} bytes. Two keys of one bucket with equal length, equal {@code Bytes.hashCode} and
 * equal bytes apart from the last {@code n} are then one key to the queue: the updates of both go
 * to the entry of the first, the other never changes (the {@code uk.org.site9.www/links/qp} and
 * {@code .../s2} of a synthetic web: {@code "qp"} and {@code "s2"} hash alike). Every key ends with
 * the same {@link #KEY_TRAILER_LENGTH} bytes, at least the longest notification row prefix ({@code
 * <id>:u:} and 8 hex digits and {@code :}), so the ignored bytes are always trailer bytes and keys
 * compare whole. The seed ({@link FluoSeed}) uses this serializer too, so its rows stay the ones
 * the queues read.
 */
public final class WebindexSerializer implements SimpleSerializer {
  /** Length of the trailer of serialized strings: at least the longest queue row prefix. */
  static final int KEY_TRAILER_LENGTH = 16;

  /** What follows every serialized string (see the class comment). */
  static final String KEY_TRAILER = "~".repeat(KEY_TRAILER_LENGTH);

  /**
   * The first letter of an export's frontier-table lines, before the cell change's own {@code P} or
   * {@code D}: unlike the first letters of the query-table and history-table lines.
   */
  static final char FRONTIER_LINE = 'F';

  @Override
  public void init(SimpleConfiguration appConfig) {}

  @Override
  public <T> byte[] serialize(T obj) {
    String s;
    if (obj instanceof String str) {
      s = str + KEY_TRAILER;
    } else if (obj instanceof Long l) {
      s = Long.toString(l);
    } else if (obj instanceof UriUpdate u) {
      s = FluoSchema.encodeUriSum(u);
    } else if (obj instanceof IndexExport e) {
      s =
          CellChangeCodec.encode(e.changes())
              + TimedCellChangeCodec.encode(e.history())
              + frontierLines(e.frontier());
    } else {
      throw new IllegalArgumentException("no serialization for " + obj.getClass());
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public <T> T deserialize(byte[] b, Class<T> clazz) {
    String s = new String(b, StandardCharsets.UTF_8);
    Object o;
    if (clazz == String.class) {
      if (!s.endsWith(KEY_TRAILER)) {
        throw new IllegalArgumentException("not a key written by this serializer: " + s);
      }
      o = s.substring(0, s.length() - KEY_TRAILER_LENGTH);
    } else if (clazz == Long.class) {
      o = Long.parseLong(s);
    } else if (clazz == UriUpdate.class) {
      o = FluoSchema.decodeUriSum(s);
    } else if (clazz == IndexExport.class) {
      o = export(s);
    } else {
      throw new IllegalArgumentException("no deserialization for " + clazz);
    }
    return clazz.cast(o);
  }

  /** The encoded frontier-table changes, each line prefixed with {@link #FRONTIER_LINE}. */
  private static String frontierLines(List<CellChange> frontier) {
    if (frontier.isEmpty()) {
      return "";
    }
    String lines = CellChangeCodec.encode(frontier);
    StringBuilder sb = new StringBuilder(lines.length() + frontier.size());
    int start = 0;
    while (start < lines.length()) {
      int end = lines.indexOf('\n', start) + 1;
      sb.append(FRONTIER_LINE).append(lines, start, end);
      start = end;
    }
    return sb.toString();
  }

  /** An export's query-table, history and frontier lines, told apart by their first letter. */
  private static IndexExport export(String s) {
    StringBuilder query = new StringBuilder(s.length());
    StringBuilder history = new StringBuilder();
    StringBuilder frontier = new StringBuilder();
    int start = 0;
    while (start < s.length()) {
      int end = s.indexOf('\n', start);
      end = end < 0 ? s.length() : end + 1;
      String line = s.substring(start, end);
      if (line.charAt(0) == FRONTIER_LINE) {
        frontier.append(line, 1, line.length());
      } else {
        (TimedCellChangeCodec.isTimedLine(line) ? history : query).append(line);
      }
      start = end;
    }
    return new IndexExport(
        CellChangeCodec.decode(query.toString()),
        TimedCellChangeCodec.decode(history.toString()),
        CellChangeCodec.decode(frontier.toString()));
  }
}
