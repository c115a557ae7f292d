package io.webindex.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.store.RunRegistry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text and JSON forms of {@link Overview}, without a cluster: every state, exactly. */
class OverviewTest {
  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final RunRegistry.Served SERVED =
      new RunRegistry.Served(
          "wi_r2", "r2", "wi_r1", Instant.parse("2026-11-24T09:55:00.123Z"), "wi_r2");
  private static final RunRegistry.LastCheck CHECK =
      new RunRegistry.LastCheck(
          "INCONSISTENT",
          "r2",
          "wi_r2",
          4,
          3,
          1,
          Instant.parse("2026-11-22T10:00:00Z"),
          "/var/checks/check.html");

  private static List<String> text(Overview o) {
    return o.lines(NOW).stream().map(l -> l.state() + "|" + l.label() + "|" + l.text()).toList();
  }

  @Test
  void everythingKnown() throws Exception {
    Overview o =
        new Overview(
            SERVED,
            new FluoProbe.Lag("wi_r2", 4L, 6L, 2L, 125L, null),
            List.of(
                new Overview.Application(
                    Overview.SERVED,
                    "wi_r2",
                    "r2",
                    "wi_r2",
                    SERVED.since(),
                    new FluoProbe.Processes("wi_r2", true, 3, null)),
                new Overview.Application(
                    Overview.CUTOVER,
                    "wi_r3",
                    "r3",
                    "wi_r3",
                    Instant.parse("2026-11-24T11:59:15Z"),
                    new FluoProbe.Processes("wi_r3", false, 0, null))),
            CHECK);
    assertEquals(
        List.of(
            "|served table|wi_r2 (run r2) since 2026-11-24 09:55:00 UTC (2 h 4 min ago)",
            "|previous table|wi_r1",
            "|applied batch|4 (Fluo application wi_r2)",
            "|newest batch|6",
            "warn|Fluo lag|2 batches and 2 min 5 s behind",
            "ok|served app|wi_r2: oracle running, 3 workers",
            "bad|cut-over target|wi_r3 (run r3, table wi_r3) since 2026-11-24 11:59:15 UTC (45 s"
                + " ago): no oracle, 0 workers",
            "bad|last check|INCONSISTENT at 2026-11-22 10:00:00 UTC (2 d 2 h ago): run r2, table"
                + " wi_r2, applied batch 4, 3 differences, 1 invariant violation; report"
                + " /var/checks/check.html"),
        text(o));
    assertEquals(
        "{\"served\":{\"table\":\"wi_r2\",\"run\":\"r2\",\"previousTable\":\"wi_r1\","
            + "\"since\":\"2026-11-24T09:55:00.123Z\",\"fluoApp\":\"wi_r2\"},"
            + "\"fluo\":{\"app\":\"wi_r2\",\"applied\":4,\"newest\":6,\"batchesBehind\":2,"
            + "\"secondsBehind\":125,\"error\":null},"
            + "\"applications\":["
            + "{\"role\":\"served\",\"app\":\"wi_r2\",\"run\":\"r2\",\"table\":\"wi_r2\","
            + "\"since\":\"2026-11-24T09:55:00.123Z\",\"oracle\":true,\"workers\":3,\"error\":null},"
            + "{\"role\":\"cutover\",\"app\":\"wi_r3\",\"run\":\"r3\",\"table\":\"wi_r3\","
            + "\"since\":\"2026-11-24T11:59:15Z\",\"oracle\":false,\"workers\":0,\"error\":null}],"
            + "\"lastCheck\":{\"verdict\":\"INCONSISTENT\",\"finished\":\"2026-11-22T10:00:00Z\","
            + "\"run\":\"r2\",\"table\":\"wi_r2\",\"applied\":4,\"differences\":3,"
            + "\"invariantViolations\":1,\"report\":\"/var/checks/check.html\"}}",
        new ObjectMapper().writeValueAsString(o.toJson()));
  }

  @Test
  void nothingServedNoProbeNoCheck() throws Exception {
    Overview o =
        new Overview(
            null,
            null,
            List.of(new Overview.Application(Overview.SERVED, "wi", null, null, null, null)),
            null);
    assertEquals(
        List.of(
            "bad|served table|none yet (bin/webindex fluo-init or reconcile choose one)",
            "|Fluo lag|not probed",
            "|served app|wi: processes not probed",
            "|cut-over target|none",
            "|last check|no check recorded"),
        text(o));
    assertEquals(
        "{\"served\":null,\"fluo\":null,\"applications\":[{\"role\":\"served\",\"app\":\"wi\","
            + "\"run\":null,\"table\":null,\"since\":null,\"oracle\":null,\"workers\":null,"
            + "\"error\":null}],\"lastCheck\":null}",
        new ObjectMapper().writeValueAsString(o.toJson()));
  }

  @Test
  void caughtUpNoPreviousOneWorkerATargetWithoutWorkersConsistent() {
    Overview o =
        new Overview(
            new RunRegistry.Served("wi_base", "base", "", NOW.minusSeconds(59), ""),
            new FluoProbe.Lag("wi", 7L, 7L, 0L, 0L, null),
            List.of(
                new Overview.Application(
                    Overview.SERVED,
                    "wi",
                    "base",
                    "wi_base",
                    NOW.minusSeconds(59),
                    new FluoProbe.Processes("wi", true, 1, null)),
                new Overview.Application(
                    Overview.CUTOVER,
                    "wi_next",
                    "next",
                    "wi_next",
                    NOW.minusSeconds(3600),
                    new FluoProbe.Processes("wi_next", true, 0, null))),
            new RunRegistry.LastCheck("CONSISTENT", "base", "wi_base", -1, 1, 0, NOW, ""));
    assertEquals(
        List.of(
            "|served table|wi_base (run base) since 2026-11-24 11:59:01 UTC (59 s ago)",
            "|previous table|none",
            "|applied batch|7 (Fluo application wi)",
            "|newest batch|7",
            "ok|Fluo lag|caught up",
            "ok|served app|wi: oracle running, 1 worker",
            "bad|cut-over target|wi_next (run next, table wi_next) since 2026-11-24 11:00:00 UTC (1 h"
                + " 0 min ago): oracle running, 0 workers",
            "ok|last check|CONSISTENT at 2026-11-24 12:00:00 UTC (0 s ago): run base, table"
                + " wi_base, applied batch none, 1 difference, 0 invariant violations; report not"
                + " recorded"),
        text(o));
  }

  @Test
  void unknownsSayWhy() {
    Overview o =
        new Overview(
            new RunRegistry.Served("wi_base", "", "", NOW.plusSeconds(30), "wi"),
            new FluoProbe.Lag(
                "wi", null, -1L, null, null, "no oracle of the Fluo application wi runs"),
            List.of(
                new Overview.Application(
                    Overview.SERVED,
                    "wi",
                    "",
                    "wi_base",
                    NOW,
                    new FluoProbe.Processes("wi", null, null, "ZooKeeper timed out"))),
            null);
    assertEquals(
        List.of(
            "|served table|wi_base since 2026-11-24 12:00:30 UTC (in the future)",
            "|previous table|none",
            "|applied batch|unknown (Fluo application wi)",
            "|newest batch|none in the store",
            "warn|Fluo lag|unknown",
            "bad|Fluo probe|no oracle of the Fluo application wi runs",
            "warn|served app|wi: processes unknown (ZooKeeper timed out)",
            "|cut-over target|none",
            "|last check|no check recorded"),
        text(o));
  }

  @Test
  void lagWithoutItsTimeAndOneBatch() {
    Overview o =
        new Overview(
            null,
            new FluoProbe.Lag("wi", -1L, 0L, 1L, null, "cannot read the time"),
            List.of(),
            null);
    assertEquals(
        List.of(
            "bad|served table|none yet (bin/webindex fluo-init or reconcile choose one)",
            "|applied batch|none (Fluo application wi)",
            "|newest batch|0",
            "warn|Fluo lag|1 batch behind",
            "bad|Fluo probe|cannot read the time",
            "|cut-over target|none",
            "|last check|no check recorded"),
        text(o));
  }

  @Test
  void durations() {
    assertEquals("0 s", Overview.duration(0));
    assertEquals("59 s", Overview.duration(59));
    assertEquals("1 min 0 s", Overview.duration(60));
    assertEquals("59 min 59 s", Overview.duration(3599));
    assertEquals("1 h 0 min", Overview.duration(3600));
    assertEquals("23 h 59 min", Overview.duration(86_399));
    assertEquals("1 d 0 h", Overview.duration(86_400));
    assertEquals("400 d 1 h", Overview.duration(400L * 86_400 + 3600 + 59));
  }
}
