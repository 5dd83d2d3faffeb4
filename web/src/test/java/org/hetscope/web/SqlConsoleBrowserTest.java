package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.formats.otf2.Otf2Format;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query console in Debian's Chromium (web/e2e/sqlconsole.e2e.mjs) on a StarPU, Kineto, Nsight, CTF and OTF2 trace: the
 * table the page shows is the store's answer to the same query ('hetscope sql' runs Store.query), the track and row
 * clicks select those slices, and COPY, ATTACH, read_csv and CREATE are refused with their reasons.
 */
class SqlConsoleBrowserTest {
    @TempDir
    Path dir;

    @Test
    void queriesShowTheStoresAnswerAsTableAndTrack() throws Exception {
        List<Fixture> fixtures = List.of(
                new Fixture("starpu chol-dmda-nb6", "../shared/fixtures/starpu/chol-dmda-nb6", new PajeFormat()),
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("nsys cloverleaf", "../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite",
                        new NsysFormat()),
                new Fixture("ctf cyg-profile", "../shared/fixtures/ctf/cyg-profile", new CtfTraceFormat()),
                new Fixture("otf2 ping-pong", "../shared/fixtures/otf2/ping-pong-otf2", new Otf2Format()));
        BrowserSession.Result run = BrowserSession.run(dir, "sqlconsole.e2e.mjs", fixtures);
        JsonNode page = run.page();
        assertEquals(fixtures.size(), page.get("traces").size(), "every trace was queried");
        for (JsonNode t : page.get("traces")) {
            int i = t.get("trace").asInt();
            try (Store s = Store.open(run.stores().get(i))) {
                assertShown(s.query("SELECT id AS slice_id, ts, dur, name, track_id FROM slice ORDER BY dur DESC, id "
                        + "LIMIT 12"), t.get("table"), "trace " + i);
                assertShown(s.query("SELECT name, category, count, total_ns FROM hs_slice_stats ORDER BY total_ns DESC, "
                        + "name LIMIT 5"), t.get("library"), "trace " + i + " hs_slice_stats");
                // The clicks selected the slices of rows 1 and 3, and the timeline shows them.
                for (String click : List.of("trackClick", "rowClick")) {
                    long id = t.get(click).get("detailId").asLong();
                    Table slice = s.query(null, "SELECT name, ts - (SELECT start_ns FROM hs_trace_bounds) AS rel, dur "
                            + "FROM slice WHERE id = ?", id);
                    assertEquals(slice.get(0, "name"), t.get(click).get("detailName").asText(), click);
                    long rel = (Long) slice.get(0, "rel");
                    long end = rel + (Long) slice.get(0, "dur");
                    JsonNode view = t.get(click).get("view");
                    assertTrue(view.get("t0").asLong() <= rel && view.get("t1").asLong() >= end,
                            click + ": the window " + view + " shows slice " + id + " at " + rel + ".." + end);
                }
                assertEquals(t.get("table").get("rows").get(0).get(0).asLong(), t.get("trackClick").get("detailId").asLong());
                assertEquals(t.get("table").get("rows").get(2).get(0).asLong(), t.get("rowClick").get("detailId").asLong());
            }
        }
        JsonNode refused = page.get("refused");
        assertTrue(refused.get("copy").asText().startsWith("read-only: COPY statements are refused"), refused.toString());
        assertTrue(refused.get("attach").asText().startsWith("read-only: ATTACH statements are refused"), refused.toString());
        assertTrue(refused.get("read_csv").asText().startsWith("read-only: a query cannot read or write files"),
                refused.toString());
        assertTrue(refused.get("create").asText().startsWith("read-only: CREATE statements are refused"), refused.toString());
        assertTrue(Files.notExists(Path.of("/tmp/hetscope-e2e-out.csv")), "COPY wrote nothing");
        try (Store s = Store.open(run.stores().get(fixtures.size() - 1))) {
            assertEquals(String.valueOf(s.scalarLong("SELECT count(*) FROM hs_slice_stats")),
                    page.get("afterRefusals").get("rows").get(0).get(0).asText());
        }
        Path out = TimelineBrowserTest.ROOT.resolve("web/target/screenshots");
        for (String shot : List.of("sql-console-starpu.png", "sql-console-kineto.png", "sql-console-nsys.png", "sql-console-ctf.png", "sql-console-otf2.png",
                "sql-console-refused.png")) {
            assertTrue(Files.size(out.resolve(shot)) > 5_000, shot + " written");
        }
    }

    /** The page's table equals the store's rows, value by value as text (integers exact). */
    static void assertShown(Table expected, JsonNode shown, String what) {
        assertEquals(expected.columns().toString(), texts(shown.get("columns")).toString(), what + " columns");
        if (shown.has("labels")) {
            assertReadableHeaders(expected.columns(), texts(shown.get("labels")), what);
        }
        assertEquals(expected.size(), shown.get("rows").size(), what + " rows");
        for (int r = 0; r < expected.size(); r++) {
            List<String> want = new ArrayList<>();
            List<String> got = texts(shown.get("rows").get(r));
            Object[] row = expected.rows().get(r);
            for (int c = 0; c < row.length; c++) {
                Object v = row[c];
                // A double is written differently by Java and JavaScript (1.6E7, 16000000): equal as numbers.
                if (v instanceof Double d && c < got.size() && Double.parseDouble(got.get(c)) == d) {
                    want.add(got.get(c));
                } else {
                    want.add(v == null ? "NULL" : String.valueOf(v));
                }
            }
            assertEquals(want, got, what + " row " + r);
        }
    }

    /**
     * Headers people read over cells that show units (docs/cli.md, "Numbers in tables"): no unit suffix in the text,
     * {@code total_ns} is "total", {@code busy_pct} is "busy %", unless that would read like another column.
     */
    static void assertReadableHeaders(List<String> columns, List<String> labels, String what) {
        assertEquals(columns.size(), labels.size(), what + " headers");
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            String want = c.endsWith("_ns") ? c.substring(0, c.length() - 3)
                    : c.endsWith("_pct") ? c.substring(0, c.length() - 4) + " %" : c;
            if (!want.equals(c) && columns.contains(want)) {
                want = c;
            }
            assertEquals(want, labels.get(i), what + " header of " + c);
        }
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }
}
