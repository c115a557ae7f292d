package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CellChangeCodecTest {
  @Test
  void goldenAndRoundTrip() {
    List<CellChange> changes =
        List.of(
            CellChange.put(new Cell("p:com.a", "inlinks", "com.b", "tab\there \\ new\nline")),
            CellChange.delete("t:7ffffffffffffffe:com.a", "", ""),
            CellChange.put(new Cell("d:com.a", "domain", "pagecount", "2")));
    String encoded = CellChangeCodec.encode(changes);
    assertEquals(
        "P\tp:com.a\tinlinks\tcom.b\ttab\\there \\\\ new\\nline\n"
            + "D\tt:7ffffffffffffffe:com.a\t\t\n"
            + "P\td:com.a\tdomain\tpagecount\t2\n",
        encoded);
    assertEquals(changes, CellChangeCodec.decode(encoded));
    assertEquals(List.of(), CellChangeCodec.decode(""));
    assertThrows(IllegalArgumentException.class, () -> CellChangeCodec.decode("X\ta\n"));
  }
}
