package io.webindex.fluo;

import io.webindex.core.model.UriState;
import io.webindex.core.schema.CellChangeCodec;
import io.webindex.core.schema.FluoSchema;
import java.nio.charset.StandardCharsets;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;

/**
 * The fluo-recipes serializer for every key and value of webindex's queues: readable text (UTF-8),
 * so the Fluo table can be inspected with a plain scan. Strings as they are, longs in decimal, URI
 * deltas as {@code <urc>,<crawled>} ({@link FluoSchema}), exports as encoded cell changes ({@link
 * CellChangeCodec}).
 */
public final class WebindexSerializer implements SimpleSerializer {
  @Override
  public void init(SimpleConfiguration appConfig) {}

  @Override
  public <T> byte[] serialize(T obj) {
    String s;
    if (obj instanceof String str) {
      s = str;
    } else if (obj instanceof Long l) {
      s = Long.toString(l);
    } else if (obj instanceof UriState.Delta d) {
      s = FluoSchema.encodeUriDelta(d);
    } else if (obj instanceof IndexExport e) {
      s = CellChangeCodec.encode(e.changes());
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
      o = s;
    } else if (clazz == Long.class) {
      o = Long.parseLong(s);
    } else if (clazz == UriState.Delta.class) {
      o = FluoSchema.decodeUriDelta(s);
    } else if (clazz == IndexExport.class) {
      o = new IndexExport(CellChangeCodec.decode(s));
    } else {
      throw new IllegalArgumentException("no deserialization for " + clazz);
    }
    return clazz.cast(o);
  }
}
