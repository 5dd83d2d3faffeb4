package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import A B -o X}: each trace keeps its own clock and the store puts them on one timeline. Halves of one
 * fixture written as two traces with a known clock offset must merge back to the original timeline exactly, and a
 * rank pair with a known skew between its clocks must be aligned through its MPI messages within the residual the
 * store reports (checked against a window computed here from the unsplit trace).
 */
class MergeClockTest {
    static final Path KINETO = Path.of("../../shared/fixtures/chrome/kineto-cuda-simple-add.json.gz");
    static final Path PING_PONG = Path.of("../../shared/fixtures/otf2/ping-pong-otf2");
    static final ObjectMapper JSON = new ObjectMapper();
    /** The clock of the second half runs this far ahead (µs), a value unlike any in the trace. */
    static final long SKEW_US = 1_234_567;

    @TempDir
    Path dir;

    static Path fixture(Path p) {
        Path here = Path.of("").toAbsolutePath();
        // tests run in the module folder (cli/); the fixtures sit beside the repository
        return here.resolve(p).normalize();
    }

    /** The Kineto fixture's events split by process: the host process in one file, the GPUs' in the other. */
    private Path[] splitKineto(long shiftUs, Long baseTimeNs) throws IOException {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(fixture(KINETO)))) {
            root = JSON.readTree(in);
        }
        ObjectNode a = root.deepCopy();
        ObjectNode b = root.deepCopy();
        ArrayNode ea = a.putArray("traceEvents");
        ArrayNode eb = b.putArray("traceEvents");
        int gpu = 0;
        for (JsonNode e : root.get("traceEvents")) {
            JsonNode pid = e.get("pid");
            boolean device = pid != null && pid.isInt() && pid.asInt() < 100;
            if (!device) {
                ea.add(e.deepCopy());
                continue;
            }
            ObjectNode c = e.deepCopy();
            if (c.has("ts")) {
                c.put("ts", c.get("ts").asLong() + shiftUs);
            }
            eb.add(c);
            gpu++;
        }
        assertTrue(gpu > 100 && ea.size() > 100, "both halves hold events: " + gpu + " / " + ea.size());
        if (baseTimeNs != null) {
            b.put("baseTimeNanoseconds", baseTimeNs);
        }
        Path pa = dir.resolve("host.json");
        Path pb = dir.resolve("gpu.json");
        JSON.writeValue(pa.toFile(), a);
        JSON.writeValue(pb.toFile(), b);
        return new Path[] {pa, pb};
    }

    /** Every timed row of a store, as sorted text, without ids (they differ between imports). */
    static List<String> timeline(Path store) throws IOException {
        try (Store s = Store.open(store)) {
            Table t = s.query(null, """
                    SELECT 'slice', ts, dur, name, category FROM slice
                    UNION ALL SELECT 'instant', ts, NULL, name, category FROM instant
                    UNION ALL SELECT 'counter', c.ts, NULL, t.name, CAST(c.value AS VARCHAR)
                              FROM counter c JOIN track t ON t.id = c.track_id
                    UNION ALL SELECT 'transfer', ts, dur, kind, CAST(bytes AS VARCHAR) FROM transfer
                    ORDER BY ALL""");
            List<String> out = new ArrayList<>();
            for (Object[] r : t.rows()) {
                out.add(java.util.Arrays.toString(r));
            }
            return out;
        }
    }

    static Map<String, Object> source(Path store, int id) throws IOException {
        try (Store s = Store.open(store)) {
            Table t = s.query(null, "SELECT * FROM source WHERE id = ?", id);
            assertEquals(1, t.size());
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i < t.columns().size(); i++) {
                m.put(t.columns().get(i), t.rows().get(0)[i]);
            }
            return m;
        }
    }

    private List<String> original() throws IOException {
        Path whole = dir.resolve("whole.duckdb");
        CliRun r = CliRun.of("import", fixture(KINETO).toString(), "-o", whole.toString());
        assertEquals(0, r.exitCode(), r.err());
        return timeline(whole);
    }

    @Test
    void givenOffsetMergesHalvesBackExactly() throws Exception {
        List<String> expected = original();
        Path[] halves = splitKineto(SKEW_US, null);
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", halves[0].toString(), halves[1].toString(), "-o", merged.toString(),
                "--clock", "gpu.json=-1.234567s");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expected, timeline(merged));
        Map<String, Object> src = source(merged, 2);
        assertEquals(-SKEW_US * 1000, src.get("clock_adjust_ns"));
        assertEquals("given", src.get("clock_method"));
        assertEquals("reference", source(merged, 1).get("clock_method"));
        // without the option both halves claim Kineto's epoch clock: the skew stays (the facts are believed)
        Path unaligned = dir.resolve("unaligned.duckdb");
        assertEquals(0, CliRun.of("import", halves[0].toString(), halves[1].toString(), "-o",
                unaligned.toString()).exitCode());
        assertEquals("clock facts", source(unaligned, 2).get("clock_method"));
        assertEquals(0L, source(unaligned, 2).get("clock_adjust_ns"));
        assertTrue(!expected.equals(timeline(unaligned)));
    }

    @Test
    void manifestGivesTheSameTimeline() throws Exception {
        List<String> expected = original();
        Path[] halves = splitKineto(-SKEW_US, null);
        Path manifest = dir.resolve("merge.json");
        Files.writeString(manifest, """
                {"traces": [{"path": "host.json"},
                            {"path": "gpu.json", "offset": "+1234567us"}]}""");
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", "--clock-manifest", manifest.toString(), "-o", merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expected, timeline(merged));
        assertEquals(SKEW_US * 1000, source(merged, 2).get("clock_adjust_ns"));
    }

    @Test
    void kinetoBaseTimeAlignsExactly() throws Exception {
        List<String> expected = original();
        // the GPU half counts from its own base: times SKEW earlier, the base SKEW after the epoch
        Path[] halves = splitKineto(-SKEW_US, SKEW_US * 1000);
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", halves[0].toString(), halves[1].toString(), "-o", merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expected, timeline(merged));
        Map<String, Object> src = source(merged, 2);
        assertEquals("clock facts", src.get("clock_method"));
        assertEquals(SKEW_US * 1000, src.get("clock_adjust_ns"));
        assertTrue(((String) src.get("clock_detail")).contains("baseTimeNanoseconds"), (String) src.get("clock_detail"));
        CliRun info = CliRun.of("info", merged.toString(), "--json");
        assertEquals(0, info.exitCode(), info.err());
        JsonNode sources = JSON.readTree(info.out()).get("sources");
        assertEquals(2, sources.size(), info.out());
        assertEquals(SKEW_US * 1000, sources.get(1).get("clock_adjust_ns").asLong());
        assertEquals("clock facts", sources.get(1).get("clock_method").asText());
    }

    /**
     * The OTF2 ping-pong written as one Chrome trace per rank (slices and MPI send/receive instants), rank 1's
     * clock {@code skewNs} ahead.
     */
    private Path[] splitPingPong(Path store, long skewNs) throws IOException {
        Path[] out = new Path[2];
        try (Store s = Store.open(store)) {
            for (int rank = 0; rank < 2; rank++) {
                long shift = rank == 1 ? skewNs : 0;
                ArrayNode events = JSON.createArrayNode();
                Table slices = s.query(null, """
                        SELECT p.pid, th.tid, sl.ts, sl.dur, sl.name FROM slice sl JOIN track t ON t.id = sl.track_id
                        JOIN process p ON p.id = t.process_id JOIN thread th ON th.id = t.thread_id
                        WHERE p.pid = ? ORDER BY sl.ts, sl.id""", rank);
                for (Object[] r : slices.rows()) {
                    ObjectNode e = events.addObject();
                    e.put("ph", "X").put("pid", (Long) r[0]).put("tid", (Long) r[1]).put("name", (String) r[4]);
                    e.put("ts", micros((Long) r[2] + shift)).put("dur", micros((Long) r[3]));
                }
                Table instants = s.query(null, """
                        SELECT p.pid, th.tid, i.ts, i.name, i.args FROM instant i JOIN track t ON t.id = i.track_id
                        JOIN process p ON p.id = t.process_id JOIN thread th ON th.id = t.thread_id
                        WHERE p.pid = ? AND i.name LIKE 'MPI %' ORDER BY i.ts, i.id""", rank);
                for (Object[] r : instants.rows()) {
                    ObjectNode e = events.addObject();
                    e.put("ph", "i").put("s", "t").put("pid", (Long) r[0]).put("tid", (Long) r[1])
                            .put("name", (String) r[3]).put("ts", micros((Long) r[2] + shift));
                    e.set("args", JSON.readTree((String) r[4]));
                }
                assertTrue(instants.size() > 10, "rank " + rank + " has MPI events");
                ObjectNode root = JSON.createObjectNode();
                root.set("traceEvents", events);
                out[rank] = dir.resolve("rank" + rank + ".json");
                JSON.writeValue(out[rank].toFile(), root);
            }
        }
        return out;
    }

    private static java.math.BigDecimal micros(long ns) {
        return java.math.BigDecimal.valueOf(ns, 3);
    }

    @Test
    void rankPairSkewIsRecoveredFromMessagesWithinTheResidual() throws Exception {
        Path whole = dir.resolve("pingpong.duckdb");
        CliRun r = CliRun.of("import", fixture(PING_PONG).toString(), "-o", whole.toString());
        assertEquals(0, r.exitCode(), r.err());
        // The window of offsets of rank 1 that keep every message causal, from the unsplit trace (one clock, so
        // the true offset is 0): the k-th send a->b on a tag is the k-th receive of b from a on it.
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        int messages = 0;
        try (Store s = Store.open(whole)) {
            Table t = s.query(null, """
                    SELECT p.pid, i.name, i.ts, i.args FROM instant i JOIN track tr ON tr.id = i.track_id
                    JOIN process p ON p.id = tr.process_id WHERE i.name IN ('MPI send', 'MPI recv')
                    ORDER BY i.ts, i.id""");
            Map<String, java.util.ArrayDeque<Long>> sends = new java.util.HashMap<>();
            List<Object[]> recvs = new ArrayList<>();
            for (Object[] row : t.rows()) {
                long rank = (Long) row[0];
                JsonNode args = JSON.readTree((String) row[3]);
                String tagKey = args.get("communicator").asText() + "/" + args.get("tag").asText();
                if (row[1].equals("MPI send")) {
                    sends.computeIfAbsent(rank + ">" + args.get("receiver").asText() + "/" + tagKey,
                            k -> new java.util.ArrayDeque<>()).add((Long) row[2]);
                } else {
                    recvs.add(new Object[] {args.get("sender").asText() + ">" + rank + "/" + tagKey, row[2], rank});
                }
            }
            for (Object[] rv : recvs) {
                long send = sends.get((String) rv[0]).pollFirst();
                long recv = (Long) rv[1];
                if ((Long) rv[2] == 1) {
                    lo = Math.max(lo, send - recv); // into rank 1: recv + offset >= send
                } else {
                    hi = Math.min(hi, recv - send); // out of rank 1: recv >= send + offset
                }
                messages++;
            }
        }
        assertTrue(lo <= 0 && 0 <= hi && messages > 10, lo + " " + hi + " " + messages);
        long skew = 2_500_000; // rank 1's clock 2.5 ms ahead
        Path[] ranks = splitPingPong(whole, skew);
        Path merged = dir.resolve("merged.duckdb");
        r = CliRun.of("import", ranks[0].toString(), ranks[1].toString(), "-o", merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        Map<String, Object> src = source(merged, 2);
        assertEquals("messages", src.get("clock_method"), src.toString());
        long offset = (Long) src.get("clock_adjust_ns");
        long residual = (Long) src.get("clock_residual_ns");
        assertEquals((long) messages, src.get("clock_matches"));
        // the middle of the causal window, shifted by the skew, and its half width
        assertEquals(Math.floorDiv(lo + hi, 2) - skew, offset);
        assertEquals((hi - lo + 1) / 2, residual);
        assertTrue(Math.abs(offset - (-skew)) <= residual, offset + " vs " + (-skew) + " within " + residual);
        assertTrue(residual < 50_000, "the window is narrow for a ping-pong: " + residual);
        // the merged rank 0 slices are those of the unsplit trace; rank 1's are within the residual of them
        try (Store a = Store.open(whole); Store b = Store.open(merged)) {
            String q = "SELECT sl.ts FROM slice sl JOIN track t ON t.id = sl.track_id JOIN process p "
                    + "ON p.id = t.process_id WHERE p.pid = ? ORDER BY sl.ts, sl.dur DESC, sl.name";
            for (int rank = 0; rank < 2; rank++) {
                List<Object[]> x = a.query(null, q, rank).rows();
                List<Object[]> y = b.query(null, q, rank).rows();
                assertEquals(x.size(), y.size());
                for (int i = 0; i < x.size(); i++) {
                    long d = (Long) y.get(i)[0] - (Long) x.get(i)[0];
                    assertTrue(rank == 0 ? d == 0 : Math.abs(d) <= residual, "rank " + rank + " row " + i + ": " + d);
                }
            }
        }
    }

    @Test
    void collectivesBoundTheOffsetOnBothSides() throws Exception {
        // Four ranks, two per trace, each calling MPI_Allreduce 6 times; nobody leaves call k before all entered
        // it. The second trace's clock runs 3.3 ms ahead. Times are made up here, with the window worked out by
        // brute force over every pair of ranks of the two traces.
        long skew = 3_300_000;
        long[][] entry = new long[4][6];
        long[][] exit = new long[4][6];
        java.util.Random random = new java.util.Random(29);
        for (int k = 0; k < 6; k++) {
            long last = 0;
            for (int r = 0; r < 4; r++) {
                entry[r][k] = 10_000_000L * (k + 1) + random.nextInt(400_000);
                last = Math.max(last, entry[r][k]);
            }
            for (int r = 0; r < 4; r++) {
                exit[r][k] = last + 1_000 + random.nextInt(50_000);
            }
        }
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        for (int k = 0; k < 6; k++) {
            for (int x = 2; x < 4; x++) { // the second trace's ranks, on their own (skewed) clock
                for (int y = 0; y < 2; y++) {
                    lo = Math.max(lo, entry[y][k] - (exit[x][k] + skew));
                    hi = Math.min(hi, exit[y][k] - (entry[x][k] + skew));
                }
            }
        }
        Path[] files = new Path[2];
        for (int t = 0; t < 2; t++) {
            ArrayNode events = JSON.createArrayNode();
            for (int r = 2 * t; r < 2 * t + 2; r++) {
                for (int k = 0; k < 6; k++) {
                    long shift = t == 1 ? skew : 0;
                    events.addObject().put("ph", "X").put("pid", r).put("tid", r).put("name", "MPI_Allreduce")
                            .put("ts", micros(entry[r][k] + shift)).put("dur", micros(exit[r][k] - entry[r][k]));
                }
            }
            ObjectNode root = JSON.createObjectNode();
            root.set("traceEvents", events);
            files[t] = dir.resolve("ranks" + t + ".json");
            JSON.writeValue(files[t].toFile(), root);
        }
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", files[0].toString(), files[1].toString(), "-o", merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        Map<String, Object> src = source(merged, 2);
        assertEquals("collectives", src.get("clock_method"), src.toString());
        long offset = (Long) src.get("clock_adjust_ns");
        long residual = (Long) src.get("clock_residual_ns");
        assertTrue(lo <= -skew && -skew <= hi, lo + " " + hi);
        assertEquals(Math.floorDiv(lo + hi, 2), offset);
        assertEquals((hi - lo + 1) / 2, residual);
        assertTrue(Math.abs(offset + skew) <= residual, offset + " within " + residual + " of " + (-skew));
        assertEquals(24L, src.get("clock_matches"));
    }

    @Test
    void extraTablesOfTheSourceMoveWithIt() throws Exception {
        // one StarPU trace read twice, the second time 1 s later: its reader's own tables (requests, anomalies) and
        // its residencies and tasks move with it, and the first copy's stay where they are
        Path starpu = fixture(Path.of("../../shared/fixtures/starpu/chol-dmda-nb6"));
        Path one = dir.resolve("one.duckdb");
        assertEquals(0, CliRun.of("import", starpu.toString(), "-o", one.toString()).exitCode());
        Path two = dir.resolve("two.duckdb");
        CliRun r = CliRun.of("import", starpu.toString(), starpu.toString(), "-o", two.toString(), "--clock",
                "2=+1s");
        assertEquals(0, r.exitCode(), r.err());
        // (ids differ between the copies: left out)
        String[] queries = {"SELECT ts, kind, line FROM starpu_request",
            "SELECT ts, dur, kind, detail FROM starpu_anomaly", "SELECT ts, dur, state FROM residency",
            "SELECT submit_ts, start_ts, end_ts, name FROM task", "SELECT ts, dur, name FROM slice"};
        try (Store a = Store.open(one); Store b = Store.open(two)) {
            for (String q : queries) {
                List<String> expected = new ArrayList<>();
                for (Object[] row : a.query(null, q).rows()) {
                    expected.add(java.util.Arrays.toString(row));
                    Object[] later = row.clone();
                    for (int i = 0; i < later.length; i++) {
                        String col = a.query(null, q).columns().get(i);
                        if (later[i] instanceof Long v && (col.equals("ts") || col.endsWith("_ts"))) {
                            later[i] = v + 1_000_000_000L;
                        }
                    }
                    expected.add(java.util.Arrays.toString(later));
                }
                List<String> actual = new ArrayList<>();
                for (Object[] row : b.query(null, q).rows()) {
                    actual.add(java.util.Arrays.toString(row));
                }
                java.util.Collections.sort(expected);
                java.util.Collections.sort(actual);
                assertTrue(expected.size() > 20, q);
                assertEquals(expected, actual, q);
            }
        }
    }

    @Test
    void markerLinesUpTheFirstOccurrence() throws Exception {
        Path whole = dir.resolve("pingpong.duckdb");
        assertEquals(0, CliRun.of("import", fixture(PING_PONG).toString(), "-o", whole.toString()).exitCode());
        long[] first = new long[2];
        try (Store s = Store.open(whole)) {
            for (int rank = 0; rank < 2; rank++) {
                first[rank] = s.scalarLong("SELECT min(sl.ts) FROM slice sl JOIN track t ON t.id = sl.track_id "
                        + "JOIN process p ON p.id = t.process_id WHERE p.pid = ? AND sl.name = 'MPI_Comm_size'", rank);
            }
        }
        long skew = 2_500_000;
        Path[] ranks = splitPingPong(whole, skew);
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", ranks[0].toString(), ranks[1].toString(), "-o", merged.toString(),
                "--clock", "2=marker:MPI_Comm_size");
        assertEquals(0, r.exitCode(), r.err());
        Map<String, Object> src = source(merged, 2);
        assertEquals("marker", src.get("clock_method"));
        assertEquals(first[0] - first[1] - skew, src.get("clock_adjust_ns"));
    }

    @Test
    void driftStretchesTheSourceFromItsFirstTime() throws Exception {
        Path[] halves = splitKineto(0, null);
        Path plain = dir.resolve("plain.duckdb");
        assertEquals(0, CliRun.of("import", halves[0].toString(), halves[1].toString(), "-o", plain.toString())
                .exitCode());
        Path drifted = dir.resolve("drifted.duckdb");
        CliRun r = CliRun.of("import", halves[0].toString(), halves[1].toString(), "-o", drifted.toString(),
                "--clock", "2=-3us,drift=250ppm");
        assertEquals(0, r.exitCode(), r.err());
        Map<String, Object> src = source(drifted, 2);
        assertEquals(-3000L, src.get("clock_adjust_ns"));
        assertEquals(250e-6, (Double) src.get("clock_drift"), 1e-12);
        // the GPU half holds 139 slices, the last ids
        String q = "SELECT ts, dur, name FROM slice WHERE id > (SELECT max(id) FROM slice) - 100 ORDER BY id";
        try (Store a = Store.open(plain); Store b = Store.open(drifted)) {
            // the GPU half's first time: its first complete event (its other timed events are flow ends at the
            // same times; metadata events carry no time of the trace)
            long t0 = Long.MAX_VALUE;
            for (JsonNode e : JSON.readTree(halves[1].toFile()).get("traceEvents")) {
                if ("X".equals(e.path("ph").asText())) {
                    t0 = Math.min(t0, e.get("ts").asLong() * 1000);
                }
            }
            assertEquals(t0, src.get("clock_drift_from_ns"));
            List<Object[]> x = a.query(null, q).rows();
            List<Object[]> y = b.query(null, q).rows();
            assertEquals(x.size(), y.size());
            for (int i = 0; i < x.size(); i++) {
                long ts = (Long) x.get(i)[0];
                long end = ts + (Long) x.get(i)[1];
                long ts2 = ts - 3000 + Math.round((ts - t0) * 250e-6);
                long end2 = end - 3000 + Math.round((end - t0) * 250e-6);
                assertEquals(ts2, y.get(i)[0], "row " + i);
                assertEquals(end2 - ts2, y.get(i)[1], "row " + i);
            }
        }
    }

    /**
     * A Kineto and an Nsight trace merged: what belongs to one source (its kernels, its devices' busy time, its
     * events and skips) reads in the merged store as in that source's store alone, through the CLI's --json; what
     * both share (cudaLaunchKernel, HtoD copies) pools them: counts and totals add up, min and max are the extremes.
     */
    @Test
    void mergedFormatsKeepEachSourcesFigures() throws Exception {
        Path kineto = fixture(Path.of("../../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path nsys = fixture(Path.of("../../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite"));
        Path merged = dir.resolve("merged-formats.duckdb");
        CliRun r = CliRun.of("import", kineto.toString(), nsys.toString(), "-o", merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<Path> alone = List.of(dir.resolve("kineto-alone.duckdb"), dir.resolve("nsys-alone.duckdb"));
        assertEquals(0, CliRun.of("import", kineto.toString(), "-o", alone.get(0).toString()).exitCode());
        assertEquals(0, CliRun.of("import", nsys.toString(), "-o", alone.get(1).toString()).exitCode());

        // statistics: per (table, name or kind)
        JsonNode m = json("stats", merged.toString(), "--json");
        List<JsonNode> singles = List.of(json("stats", alone.get(0).toString(), "--json"),
                json("stats", alone.get(1).toString(), "--json"));
        int pooled = 0;
        for (var it = m.fieldNames(); it.hasNext(); ) {
            String table = it.next();
            Map<String, List<JsonNode>> bySource = new java.util.TreeMap<>();
            for (JsonNode single : singles) {
                single.path(table).forEach(row -> bySource.computeIfAbsent(key(row), k -> new ArrayList<>()).add(row));
            }
            assertEquals(bySource.size(), m.get(table).size(), table + ": rows");
            for (JsonNode row : m.get(table)) {
                List<JsonNode> parts = bySource.get(key(row));
                assertTrue(parts != null, table + ": " + key(row) + " is in neither store");
                if (parts.size() == 1) {
                    for (var c = row.fieldNames(); c.hasNext(); ) {
                        String col = c.next();
                        if (!col.endsWith("share_pct")) {
                            assertEquals(parts.get(0).get(col), row.get(col), table + " " + key(row) + " " + col);
                        }
                    }
                } else {
                    pooled++;
                    assertEquals(parts.stream().mapToLong(p -> p.get("count").asLong()).sum(), row.get("count").asLong());
                    assertEquals(parts.stream().mapToLong(p -> p.get("total_ns").asLong()).sum(),
                            row.get("total_ns").asLong(), table + " " + key(row));
                    assertEquals(parts.stream().mapToLong(p -> p.get("min_ns").asLong()).min().getAsLong(),
                            row.get("min_ns").asLong());
                    assertEquals(parts.stream().mapToLong(p -> p.get("max_ns").asLong()).max().getAsLong(),
                            row.get("max_ns").asLong());
                }
            }
        }
        assertTrue(pooled > 0, "both traces call cudaLaunchKernel");

        // device time: each device is one source's
        JsonNode mg = json("gpu", merged.toString(), "--json");
        int devices = 0;
        for (Path single : alone) {
            for (JsonNode d : json("gpu", single.toString(), "--json").get("utilisation per device")) {
                JsonNode same = null;
                for (JsonNode x : mg.get("utilisation per device")) {
                    same = x.get("device").equals(d.get("device")) ? x : same;
                }
                assertTrue(same != null, d.get("device") + " missing from the merged store");
                for (String col : List.of("busy_ns", "compute_ns", "copy_ns", "overlap_ns", "max_concurrency")) {
                    assertEquals(d.get(col), same.get(col), d.get("device") + " " + col);
                }
                devices++;
            }
        }
        assertEquals(devices, mg.get("utilisation per device").size());

        // events per record and category add up; each source keeps its own skips
        JsonNode mi = json("info", merged.toString(), "--json");
        Map<String, Long> events = new java.util.TreeMap<>();
        for (Path single : alone) {
            json("info", single.toString(), "--json").get("events").forEach(e -> events.merge(
                    e.get("record").asText() + "/" + e.get("category").asText(), e.get("count").asLong(), Long::sum));
        }
        Map<String, Long> mergedEvents = new java.util.TreeMap<>();
        mi.get("events").forEach(e -> mergedEvents.merge(e.get("record").asText() + "/" + e.get("category").asText(),
                e.get("count").asLong(), Long::sum));
        assertEquals(events, mergedEvents);
        for (int i = 0; i < alone.size(); i++) {
            long skipped = 0;
            for (JsonNode t : json("info", alone.get(i).toString(), "--json").get("trace")) {
                if (t.get("item").asText().equals("skipped_total")) {
                    skipped = Long.parseLong(t.get("value").asText());
                }
            }
            assertEquals(skipped, mi.get("sources").get(i).get("skipped").asLong(), "source " + (i + 1));
        }
    }

    private static String key(JsonNode statsRow) {
        StringBuilder k = new StringBuilder();
        for (String c : List.of("category", "name", "kind", "codelet", "worker_kind")) {
            if (statsRow.has(c)) {
                k.append(c).append('=').append(statsRow.get(c).asText()).append(' ');
            }
        }
        return k.toString();
    }

    private static JsonNode json(String... args) throws IOException {
        CliRun r = CliRun.of(args);
        assertEquals(0, r.exitCode(), String.join(" ", args) + ": " + r.err());
        return JSON.readTree(r.out());
    }

    @Test
    void skipsAreKeptPerSource() throws Exception {
        Path merged = dir.resolve("merged.duckdb");
        CliRun r = CliRun.of("import", fixture(PING_PONG).toString(), fixture(KINETO).toString(), "-o",
                merged.toString());
        assertEquals(0, r.exitCode(), r.err());
        Path kinetoAlone = dir.resolve("k.duckdb");
        assertEquals(0, CliRun.of("import", fixture(KINETO).toString(), "-o", kinetoAlone.toString()).exitCode());
        Path otf2Alone = dir.resolve("o.duckdb");
        assertEquals(0, CliRun.of("import", fixture(PING_PONG).toString(), "-o", otf2Alone.toString()).exitCode());
        String perSource = "SELECT reason || ':' || coalesce(detail, ''), count FROM source_skipped WHERE source_id = ? ORDER BY 1";
        String alone = "SELECT reason || ':' || coalesce(detail, ''), count FROM skipped ORDER BY 1";
        try (Store m = Store.open(merged); Store k = Store.open(kinetoAlone); Store o = Store.open(otf2Alone)) {
            assertEquals(rows(o.query(null, alone)), rows(m.query(null, perSource, 1)));
            assertEquals(rows(k.query(null, alone)), rows(m.query(null, perSource, 2)));
            assertTrue(k.query(null, alone).size() > 0);
            assertEquals(rows(m.query(null, alone)), rows(m.query(null,
                    "SELECT reason || ':' || coalesce(detail, ''), sum(count) FROM source_skipped GROUP BY 1 ORDER BY 1")));
        }
    }

    private static List<String> rows(Table t) {
        List<String> out = new ArrayList<>();
        for (Object[] r : t.rows()) {
            out.add(r[0] + "=" + ((Number) r[1]).longValue());
        }
        return out;
    }

    @Test
    void badClockOptionsAreRefusedBeforeReading() throws Exception {
        Path out = dir.resolve("x.duckdb");
        String in = fixture(KINETO).toString();
        for (String bad : new String[] {"3=+1ms", "nosuch.json=+1ms", "1=+1parsec", "1=1ms,drift=abc", "1"}) {
            CliRun r = CliRun.of("import", in, "-o", out.toString(), "--clock", bad);
            assertEquals(2, r.exitCode(), bad);
            assertTrue(r.err().startsWith("hetscope: ") && !r.err().contains("Exception"), r.err());
            assertTrue(!Files.exists(out));
        }
        // an offset that takes the epoch times of the trace beyond the ns range: refused after reading, no store
        CliRun far = CliRun.of("import", in, "-o", out.toString(), "--clock", "1=+9000000000s");
        assertEquals(1, far.exitCode(), far.err());
        assertTrue(far.err().contains("cannot align") && !far.err().contains("Exception:"), far.err());
        assertTrue(!Files.exists(out));
        Path manifest = dir.resolve("m.json");
        Files.writeString(manifest, "{\"traces\": [{\"offset\": \"+1ms\"}]}");
        CliRun r = CliRun.of("import", "--clock-manifest", manifest.toString(), "-o", out.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("m.json") && r.err().contains("\"path\""), r.err());
    }
}
