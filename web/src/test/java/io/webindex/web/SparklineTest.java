package io.webindex.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.webindex.store.HistoryQuery.UrcPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sparkline's coordinates, computed by hand for a 240 x 40 box with 4 px of room. */
class SparklineTest {
  @Test
  void pointsByTimeAndCount() {
    // x: 4 + 232 * (t - 0) / 100 -> 4, 62 (t = 25), 236; y: 36 - 32 * (urc - 1) / 2 -> 36, 20, 4
    Sparkline s =
        Sparkline.of(List.of(new UrcPoint(0, 1), new UrcPoint(25, 2), new UrcPoint(100, 3)));
    assertEquals("4.0,36.0 62.0,20.0 236.0,4.0", s.points());
    assertEquals("236.0", s.lastX());
    assertEquals("4.0", s.lastY());
    assertEquals(1, s.min());
    assertEquals(3, s.max());
  }

  @Test
  void aFlatSeriesIsALineAcrossTheMiddle() {
    Sparkline s = Sparkline.of(List.of(new UrcPoint(10, 7), new UrcPoint(20, 7)));
    assertEquals("4.0,20.0 236.0,20.0", s.points());
  }

  @Test
  void oneRunIsOneDotInTheMiddle() {
    Sparkline s = Sparkline.of(List.of(new UrcPoint(10, 0)));
    assertEquals("120.0,20.0", s.points());
    assertEquals("120.0", s.lastX());
  }

  @Test
  void noSeriesNoChart() {
    assertNull(Sparkline.of(List.of()));
  }
}
