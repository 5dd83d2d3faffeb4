package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, defects 5 and 6 end to end on a real Kineto trace: windows from the trace start with units, warnings
 * outside the trace, usage errors for bad times, units in tables and exact integers in --json. The reference is
 * recounted from the raw JSON file, not from the store.
 */
class TimeWindowCliTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz");

    @TempDir
    static Path dir;
    static String store;
    /** From the raw file: the first event's start (ns) and the GPU activity intervals. */
    static long traceStart;
    static List<long[]> gpuIntervals = new ArrayList<>();

    @BeforeAll
    static void importAndRead() throws IOException {
        store = dir.resolve("k.hets").toString();
        CliRun imp = CliRun.of("import", FIXTURE.toString(), "-o", store);
        assertTrue(imp.exitCode() == 0 || imp.exitCode() == 3, imp.err());
        traceStart = Long.MAX_VALUE;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE));
                JsonParser p = new JsonFactory().createParser(in)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("traceEvents")) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        event(p);
                    }
                }
            }
        }
    }

    /** One event: Kineto writes ts and dur in µs with decimals; every timed event of this trace is ph X. */
    private static void event(JsonParser p) throws IOException {
        String ph = null;
        String cat = null;
        BigDecimal ts = null;
        BigDecimal dur = BigDecimal.ZERO;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "ph" -> ph = p.getText();
                case "cat" -> cat = p.getText();
                case "ts" -> ts = new BigDecimal(p.getText());
                case "dur" -> dur = new BigDecimal(p.getText());
                default -> p.skipChildren();
            }
        }
        if (!"X".equals(ph) || ts == null) {
            return;
        }
        long start = ts.movePointRight(3).longValueExact();
        traceStart = Math.min(traceStart, start);
        if ("kernel".equals(cat) || "gpu_memcpy".equals(cat) || "gpu_memset".equals(cat)) {
            gpuIntervals.add(new long[] {start, start + dur.movePointRight(3).longValueExact()});
        }
    }

    /** Time some GPU activity ran in [a, b): the union of the intervals, clipped. */
    static long busyIn(long a, long b) {
        List<long[]> iv = new ArrayList<>(gpuIntervals);
        iv.sort((x, y) -> Long.compare(x[0], y[0]));
        long total = 0;
        long curStart = 0;
        long curEnd = Long.MIN_VALUE;
        for (long[] i : iv) {
            long s = Math.max(i[0], a);
            long e = Math.min(i[1], b);
            if (e <= s) {
                continue;
            }
            if (s > curEnd) {
                total += curEnd > curStart ? curEnd - curStart : 0;
                curStart = s;
                curEnd = e;
            } else {
                curEnd = Math.max(curEnd, e);
            }
        }
        return total + (curEnd > curStart ? curEnd - curStart : 0);
    }

    private static String perDevice(String json) {
        int a = json.indexOf("\"utilisation per device\"");
        return json.substring(a, json.indexOf(']', a));
    }

    private static long field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\" : (-?[0-9]+)[,\\n]").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return Long.parseLong(m.group(1));
    }

    @Test
    void relativeWindowIsTheAbsoluteOneAndCountsWhatTheFileHolds() {
        CliRun relative = CliRun.of("gpu", store, "--from", "0", "--to", "1s", "--json");
        assertEquals(0, relative.exitCode(), relative.err());
        CliRun absolute = CliRun.of("gpu", store, "--from", "@" + traceStart, "--to", "@" + (traceStart + 1_000_000_000L),
                "--json");
        assertEquals(0, absolute.exitCode(), absolute.err());
        String rel = perDevice(relative.out());
        assertEquals(perDevice(absolute.out()), rel);
        assertEquals(1_000_000_000L, field(rel, "window_ns"));
        long busy = busyIn(traceStart, traceStart + 1_000_000_000L);
        assertTrue(busy > 0);
        assertEquals(busy, field(rel, "busy_ns"));
        assertEquals("", relative.err(), "a window inside the trace gives no warning");
        // units and an offset window: [250 ms, 1.5 s)
        CliRun mid = CliRun.of("gpu", store, "--from", "250ms", "--to", "1500000us", "--json");
        assertEquals(busyIn(traceStart + 250_000_000L, traceStart + 1_500_000_000L), field(perDevice(mid.out()),
                "busy_ns"));
    }

    @Test
    void aWindowOutsideTheTraceWarns() {
        // the trace lasts 3.367 s
        CliRun after = CliRun.of("gpu", store, "--from", "5s", "--to", "6s");
        assertEquals(0, after.exitCode(), after.err());
        assertTrue(after.err().contains("warning: the window [5.000 s, 6.000 s) lies outside the trace (0 to 3.367 s"),
                after.err());
        CliRun across = CliRun.of("gpu", store, "--from", "3s", "--to", "4s");
        assertTrue(across.err().contains("reaches outside the trace"), across.err());
        // absolute epoch ns given without @: read as an offset, far past the end, and said so
        CliRun epoch = CliRun.of("gpu", store, "--from", Long.toString(traceStart), "--to",
                Long.toString(traceStart + 1_000_000_000L));
        assertTrue(epoch.err().contains("lies outside the trace") && epoch.err().contains("@ before a time"),
                epoch.err());
        CliRun empty = CliRun.of("gpu", store, "--from", "5s");
        assertEquals(2, empty.exitCode());
        // the default end is that of the last device activity (docs/stdlib.md, hs_activity_bounds), before 5 s
        assertTrue(empty.err().contains("the window is empty: --to (by default ")
                && empty.err().contains(" from the trace start) is not after --from (5.000 s = 5.000 s)"), empty.err());
    }

    @Test
    void badTimesAreUsageErrors() {
        for (String[] bad : new String[][] {{"-5ms", "cannot be negative"}, {"5m", "is not a time"},
                {"1e9", "is not a time"}, {"0.1ns", "finer than a nanosecond"}, {"@soon", "is not a time"}}) {
            CliRun r = CliRun.of("gpu", store, "--from", bad[0]);
            assertEquals(2, r.exitCode(), bad[0]);
            assertTrue(r.err().contains("Invalid value for option '--from': '" + bad[0] + "'")
                    && r.err().contains(bad[1]), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void tablesShowUnitsAndJsonExactIntegers() {
        CliRun text = CliRun.of("gpu", store);
        assertEquals(0, text.exitCode(), text.err());
        long busy = busyIn(traceStart, Long.MAX_VALUE);
        // 547656000 ns, recounted from the file, shown as 547.7 ms beside 44.8 (percent, one decimal)
        assertEquals(547_656_000L, busy);
        // over the default window, the device activity span (1.223 s): 547.7 ms busy is 44.8 %
        String device = text.out().lines().filter(l -> l.startsWith("GPU #0  ")).findFirst().orElseThrow();
        assertTrue(device.contains("1.223 s  547.7 ms    44.8  "), device);
        assertTrue(text.out().contains("busy %") && !text.out().contains("busy_ns"), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("device +GPU #0 +2 +59\\.22 ms +4\\.8")), text.out());
        CliRun json = CliRun.of("gpu", store, "--json");
        assertEquals(busy, field(perDevice(json.out()), "busy_ns"));
        assertTrue(json.out().contains("\"p95_ns\" : 66136000"), "a percentile of whole ns is a whole number");
        assertFalse(json.out().matches("(?s).*[0-9]E[0-9].*"), "no exponents");
        CliRun csv = CliRun.of("gpu", store, "--csv");
        assertTrue(csv.out().contains(",busy_ns,busy_pct,") && csv.out().contains(",1222847000,547656000,"),
                csv.out());
    }
}
