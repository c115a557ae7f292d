package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.Cell;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every decision {@link RawCell} takes on bytes is the one the decoded texts give (the check's
 * semantics before it compared bytes): the oracle here decodes the bytes and asks {@link Cell}.
 */
class RawCellTest {
  // ASCII, a valid two-byte character (é), a lone lead byte and a byte that is never UTF-8
  private static final byte[][] PIECES = {
    {'d'},
    {'p'},
    {'t'},
    {':'},
    {'a'},
    {'b'},
    {(byte) 0xC3, (byte) 0xA9},
    {(byte) 0xC3},
    {(byte) 0xFF}
  };

  private static byte[] random(Random r, int maxPieces) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int n = r.nextInt(maxPieces + 1);
    for (int i = 0; i < n; i++) {
      byte[] p = PIECES[r.nextInt(PIECES.length)];
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }

  private static byte[][] parts(Random r) {
    return new byte[][] {random(r, 3), random(r, 2), random(r, 2), random(r, 2)};
  }

  private static RawCell raw(byte[][] p) {
    return new RawCell(p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone());
  }

  private static Cell decoded(byte[][] p) {
    return new Cell(text(p[0]), text(p[1]), text(p[2]), text(p[3]));
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void bytesDecideAsTheTextsDo() {
    Random r = new Random(42);
    for (int i = 0; i < 200_000; i++) {
      byte[][] pa = parts(r);
      byte[][] pb = r.nextInt(4) == 0 ? pa : parts(r);
      RawCell a = raw(pa);
      RawCell b = raw(pb);
      Cell ta = decoded(pa);
      Cell tb = decoded(pb);
      assertEquals(
          Integer.signum(Cell.ORDER.compare(ta, tb)), Integer.signum(RawCell.compare(a, b)));
      assertEquals(ta.value().equals(tb.value()), RawCell.sameValue(a, b));
      assertEquals(ta.row().equals(tb.row()), RawCell.sameRow(a, b));
      assertEquals(CheckListener.rangeOf(ta.row()), a.range());
      assertEquals(ta.row(), a.rowText());
      assertEquals(ta, a.cell());
    }
  }

  @Test
  void differentBytesOfTheSameTextAreTheSameCell() {
    // 0xFF and 0xFE both decode to U+FFFD: one text, as the check always read them
    RawCell a =
        new RawCell(
            new byte[] {'p', ':', (byte) 0xFF}, b("page"), b("cur"), new byte[] {(byte) 0xFE});
    RawCell c =
        new RawCell(
            new byte[] {'p', ':', (byte) 0xFE}, b("page"), b("cur"), new byte[] {(byte) 0xFF});
    assertEquals(0, RawCell.compare(a, c));
    assertTrue(RawCell.sameRow(a, c));
    assertTrue(RawCell.sameValue(a, c));
    RawCell d = new RawCell(b("p:x"), b("page"), b("cur"), b("1"));
    assertFalse(RawCell.sameRow(a, d));
    assertTrue(RawCell.compare(d, a) < 0);
  }

  @Test
  void ofKeepsTheCell() {
    Cell c = new Cell("d:com.\u00e9", "rank", "x", "v\u00e9");
    RawCell r = RawCell.of(c);
    assertEquals(c, r.cell());
    assertEquals("d:", r.range());
    assertTrue(r.familyIs(b("rank")));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
