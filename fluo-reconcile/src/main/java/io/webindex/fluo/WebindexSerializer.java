package io.webindex.fluo;

import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;

/**
 * The queues' serializer under the name it had before it moved to {@code fluo-seed} ({@link
 * io.webindex.seed.WebindexSerializer}): a Fluo application records its serializer's class name in
 * its configuration when it is initialised, so the applications initialised before the move find it
 * here. The same bytes either way; new applications record the new name.
 */
public final class WebindexSerializer implements SimpleSerializer {
  private final io.webindex.seed.WebindexSerializer serializer =
      new io.webindex.seed.WebindexSerializer();

  @Override
  public void init(SimpleConfiguration appConfig) {
    serializer.init(appConfig);
  }

  @Override
  public <T> byte[] serialize(T obj) {
    return serializer.serialize(obj);
  }

  @Override
  public <T> T deserialize(byte[] b, Class<T> clazz) {
    return serializer.deserialize(b, clazz);
  }
}
