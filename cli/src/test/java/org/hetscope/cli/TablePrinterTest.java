package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;

/** The aligned text form: numbers to the right, text to the left, and an explicit line for an empty table. */
class TablePrinterTest {
    private static String text(Table t, Long origin, int width) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TablePrinter.text(new PrintStream(bytes, true, StandardCharsets.UTF_8), t, origin, width);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String machine(TablePrinter.Style style, Table t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TablePrinter.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), style, t);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String text(Table t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TablePrinter.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), TablePrinter.Style.TEXT, t);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * A large table is printed without holding its formatted cells (each formatted twice): the text is the same,
     * wrapping, units, time origin and the widest cell of the last row included.
     */
    @Test
    void largeTablesPrintTheSameWithoutHoldingTheirCells() {
        Table.Builder b = Table.builder("arrows", "call_id", "call", "call_ts", "launch_lag_ns", "busy_pct", "guess");
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 3000; i++) {
            b.row((long) i, i % 17 == 0 ? "cudaLaunchKernel with a long name that wraps " + i : "cudaMemcpyAsync",
                    1_000_000L + i * 1_234L, (long) random.nextInt(5_000_000), random.nextDouble() * 100,
                    i % 3 == 0 ? null : Boolean.TRUE);
        }
        b.row(3000L, "the very last call, widest of all, so that a second pass must see it", 99_999_999_999L,
                -5L, 100.0, false);
        Table t = b.build();
        int saved = TablePrinter.keptCellsRows;
        try {
            TablePrinter.keptCellsRows = Integer.MAX_VALUE;
            String kept = text(t, 1_000_000L, 90) + text(t, null, 0);
            TablePrinter.keptCellsRows = 0;
            String streamed = text(t, 1_000_000L, 90) + text(t, null, 0);
            assertEquals(kept, streamed);
            assertTrue(kept.contains("the very last call"), kept.substring(0, 200));
        } finally {
            TablePrinter.keptCellsRows = saved;
        }
    }

    /** info's figures for people: a duration item shows its unit (it printed span_ns 3367344000); --json keeps it. */
    @Test
    void namedFiguresShowTheirUnits() {
        Table.Builder b = Table.builder("trace", "item", "value");
        b.row("formats", "chrome");
        b.row("first_ns", "1682725897226747000");
        b.row("span_ns", "3367344000");
        b.row("skipped_total", "1");
        String shown = text(b.build(), null, 0);
        assertTrue(shown.matches("(?s).*\\nspan +3\\.367 s\\n.*"), shown);
        assertTrue(shown.matches("(?s).*\\nfirst_ns +1682725897226747000\\n.*"), shown);
        assertTrue(shown.matches("(?s).*\\nskipped_total +1\\n.*"), shown);
        assertTrue(machine(TablePrinter.Style.JSON, b.build()).contains("\"span_ns\""));
    }

    @Test
    void alignsNumbersRightAndTextLeft() {
        Table.Builder b = Table.builder("kernels", "name", "count");
        b.row("gemm", 12L);
        b.row("axpy_long_name", 3L);
        assertEquals("""
                kernels
                name            count
                --------------  -----
                gemm               12
                axpy_long_name      3

                """, text(b.build()));
    }

    @Test
    void anEmptyTableSaysSo() {
        assertEquals("""
                skipped
                what  count
                ----  -----
                (none)

                """, text(Table.builder("skipped", "what", "count").build()));
    }

    /** Issue 24, defect 6: the numbers of the report, as a table shows them. */
    @Test
    void unitsByColumnName() {
        Table.Builder b = Table.builder("kernels", "name", "count", "total_ns", "stddev_ns", "p50_ns", "p95_ns",
                "busy_pct", "memory_bytes", "concurrency_ns");
        b.row("gemm", 2L, 24_587_247_000L, 7_068_334_956.4, 12_293_621_500.0, 32_700.0, 16.2634, 85_899_345_920L,
                "0:43447893000 1:10568000");
        b.row("axpy", 1L, 436_800L, 0.0, 436_800.0, 436_800.0, 100.0, 512L, "0:436800");
        assertEquals("""
                kernels
                name  count     total   stddev       p50       p95  busy %     memory  concurrency
                ----  -----  --------  -------  --------  --------  ------  ---------  -----------------------
                gemm      2   24.59 s  7.068 s   12.29 s  32.70 µs    16.3  80.00 GiB  0: 43.45 s, 1: 10.57 ms
                axpy      1  436.8 µs     0 ns  436.8 µs  436.8 µs   100.0      512 B  0: 436.8 µs

                """, text(b.build()));
    }

    @Test
    void wholeNumbersComputedInDoublesPrintAsWholeNumbers() {
        assertEquals("32700", TablePrinter.cell(32_700.000000001));
        assertEquals("32700", TablePrinter.cell(32_700.0));
        assertEquals("32700.5", TablePrinter.cell(32_700.5));
        assertEquals("1.108", TablePrinter.cell(1.1081442));
        assertEquals("1.000e-07", TablePrinter.cell(1e-7));
    }

    @Test
    void columnKindsByName() {
        assertEquals(TablePrinter.Kind.DURATION, TablePrinter.Kind.of("total_ns"));
        assertEquals(TablePrinter.Kind.DURATION, TablePrinter.Kind.of("input_before_start_ns"));
        assertEquals(TablePrinter.Kind.TIME, TablePrinter.Kind.of("start_ns"));
        assertEquals(TablePrinter.Kind.TIME, TablePrinter.Kind.of("request_ts"));
        assertEquals(TablePrinter.Kind.TIME, TablePrinter.Kind.of("ts"));
        assertEquals(TablePrinter.Kind.PERCENT, TablePrinter.Kind.of("busy_pct"));
        assertEquals(TablePrinter.Kind.PERCENT, TablePrinter.Kind.of("path_percent_of_makespan"));
        assertEquals(TablePrinter.Kind.BYTES, TablePrinter.Kind.of("bytes_lost"));
        assertEquals(TablePrinter.Kind.BYTES, TablePrinter.Kind.of("size_bytes"));
        assertEquals(TablePrinter.Kind.OTHER, TablePrinter.Kind.of("use_peak_mib"));
        assertEquals(TablePrinter.Kind.OTHER, TablePrinter.Kind.of("dur"));
    }

    @Test
    void aHeaderWithoutItsUnitNeverReadsLikeAnother() {
        Table.Builder b = Table.builder("cpus", "top_thread", "top_thread_ns");
        b.row("ls (1834)", 8_022_000L);
        assertTrue(text(b.build()).contains("top_thread  top_thread_ns"), text(b.build()));
    }

    @Test
    void timesCountFromTheTraceStartWhenItIsKnown() {
        Table.Builder b = Table.builder("requests", "block", "request_ts", "gap_ns");
        b.row("(2,0)", 1_682_725_897_226_747_000L + 81_105_686L, 13_505L);
        Table t = b.build();
        assertTrue(text(t, 1_682_725_897_226_747_000L, 0).contains("(2,0)  81.105686 ms  13.51 µs"),
                text(t, 1_682_725_897_226_747_000L, 0));
        // without the trace start, the trace's clock as it is
        assertTrue(text(t).contains("1682725897307852686"), text(t));
    }

    @Test
    void machineOutputsKeepExactIntegersAndUnitNames() {
        Table.Builder b = Table.builder("latency", "api", "p95_ns", "mean_ns", "ratio");
        b.row("launch", 65_996_900.000000001, 16_623_819.757365685, 1.5e-4);
        Table t = b.build();
        assertEquals("api,p95_ns,mean_ns,ratio\nlaunch,65996900,16623819.757365685,0.00015\n",
                machine(TablePrinter.Style.CSV, t).replace("\r", ""));
        String json = machine(TablePrinter.Style.JSON, t);
        assertTrue(json.contains("\"p95_ns\" : 65996900,") && json.contains("\"mean_ns\" : 16623819.757365685,")
                && json.contains("\"ratio\" : 0.00015"), json);
    }

    @Test
    void longTextIsWholeOffATerminalAndWrappedOnOne() {
        String advice = "The work-group size 96 is not a multiple of the wavefront size, which is not known for this "
                + "device: give it with --warp-size";
        Table.Builder b = Table.builder("advice", "rule", "advice");
        b.row("wg-size", advice);
        Table t = b.build();
        assertTrue(text(t).contains(advice), "no cut at 80 characters when not a terminal");
        String narrow = text(t, null, 60);
        for (String line : narrow.lines().toList()) {
            assertTrue(line.length() <= 60, line);
        }
        String joined = narrow.lines().skip(3).filter(l -> !l.isBlank()).map(l -> l.substring(9).strip()).reduce((x, y) -> x + " " + y)
                .orElseThrow();
        assertEquals(advice, joined, narrow);
    }
}
