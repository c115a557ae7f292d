package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;
import org.junit.jupiter.api.Test;

/**
 * An application initialised before the serializer moved to fluo-seed names {@code
 * io.webindex.fluo.WebindexSerializer} in its configuration: Fluo's recipes still find a serializer
 * under that name, and it writes and reads the same bytes as the one new applications name.
 */
class WebindexSerializerNameTest {
  @Test
  void theOldNameServesTheSameBytes() {
    SimpleConfiguration old = new SimpleConfiguration();
    old.setProperty("recipes.serializer", "io.webindex.fluo.WebindexSerializer");
    SimpleSerializer legacy = SimpleSerializer.getInstance(old);
    io.webindex.seed.WebindexSerializer current = new io.webindex.seed.WebindexSerializer();
    for (Object o :
        new Object[] {"uk.org.site9.www/links/qp", 42L, UriUpdate.of(new UriState.Delta(3, 1))}) {
      assertArrayEquals(current.serialize(o), legacy.serialize(o), o.toString());
    }
    byte[] key = current.serialize("com.example/a");
    assertEquals("com.example/a", legacy.deserialize(key, String.class));
  }
}
