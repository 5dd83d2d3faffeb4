package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hetscope diff} per iteration where NVTX ranges mark them: copies of the Nsight fixture get NVTX ranges
 * 'iteration 1' .. 'iteration 6' on the thread that makes its CUDA calls; in the second copy iteration 4 lasts a
 * known time longer and iteration 6 is missing. The diff must show exactly that, and a copy against itself nothing.
 */
class DiffNvtxIterationsTest {
    static final Path NSYS = MergeClockTest.fixture(Path.of("../../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite"));
    static final long GTID = 310028055214088L; // the thread of all CUDA runtime calls of the fixture
    static final long START = 264_403_140L;
    static final long STEP = 100_000_000L;
    static final long LONGER = 7_654_321L;

    @TempDir
    Path dir;

    /** A copy of the fixture with NVTX ranges: iterations 1..n, each STEP - 1000 ns long, one iteration stretched. */
    private Path withRanges(String name, int n, int stretched, long by) throws Exception {
        Path copy = dir.resolve(name);
        Files.copy(NSYS, copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, "
                    + "globalTid INTEGER, textId INTEGER, domainId INTEGER)");
            for (int i = 1; i <= n; i++) {
                long s = START + (i - 1) * STEP;
                long e = s + STEP - 1000 + (i == stretched ? by : 0);
                // push/pop ranges (59); a mark (34) and a range whose name only looks alike stay out of iterations
                st.execute("INSERT INTO NVTX_EVENTS VALUES (" + s + ", " + e + ", 59, 'iteration " + i + "', " + GTID
                        + ", NULL, 0)");
            }
            st.execute("INSERT INTO NVTX_EVENTS VALUES (" + START + ", NULL, 34, 'iteration 99', " + GTID
                    + ", NULL, 0)");
            st.execute("INSERT INTO NVTX_EVENTS VALUES (" + START + ", " + (START + 10) + ", 59, 'iterations done', "
                    + GTID + ", NULL, 0)");
        }
        return copy;
    }

    @Test
    void nvtxRangesAreIterations() throws Exception {
        Path a = withRanges("a.sqlite", 6, 0, 0);
        Path b = withRanges("b.sqlite", 5, 4, LONGER);
        Path store = dir.resolve("a.duckdb");
        assertEquals(0, CliRun.of("import", a.toString(), "-o", store.toString()).exitCode());
        CliRun it = CliRun.of("sql", store.toString(), "select iteration, side, count, dur_ns, marker from "
                + "hs_iterations order by iteration", "--csv");
        assertEquals(0, it.exitCode(), it.err());
        StringBuilder expected = new StringBuilder("iteration,side,count,dur_ns,marker\n");
        for (int i = 1; i <= 6; i++) {
            expected.append(i).append(",host,1,").append(STEP - 1000).append(",range\n");
        }
        assertEquals(expected.toString(), it.out());

        CliRun r = CliRun.of("diff", a.toString(), b.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out()).get("iterations");
        assertEquals(6, rows.size(), r.out());
        Map<Long, JsonNode> byIteration = new HashMap<>();
        for (JsonNode row : rows) {
            assertEquals("host", row.get("side").asText());
            byIteration.put(row.get("iteration").asLong(), row);
        }
        for (long i = 1; i <= 5; i++) {
            JsonNode row = byIteration.get(i);
            assertEquals(STEP - 1000, row.get("a_dur_ns").asLong());
            assertEquals(i == 4 ? LONGER : 0, row.get("change_ns").asLong(), row.toString());
        }
        JsonNode missing = byIteration.get(6L);
        assertTrue(missing.get("b_dur_ns").isNull() && missing.get("change_ns").isNull(), missing.toString());

        CliRun same = CliRun.of("diff", a.toString(), a.toString(), "--json");
        assertEquals(0, same.exitCode(), same.err());
        for (JsonNode row : new ObjectMapper().readTree(same.out()).get("iterations")) {
            assertEquals(0, row.get("change_ns").asLong());
        }
    }

    @Test
    void profilerStepsWinOverRanges() throws Exception {
        // a Kineto trace has ProfilerStep#N: annotation ranges named like steps are then not counted again
        Path kineto = MergeClockTest.fixture(Path.of("../../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path store = dir.resolve("k.duckdb");
        assertEquals(0, CliRun.of("import", kineto.toString(), "-o", store.toString()).exitCode());
        CliRun r = CliRun.of("sql", store.toString(), "select count(*) as n, count(*) filter (where marker = "
                + "'ProfilerStep') as steps, (select count(*) from slice where name like 'ProfilerStep#%') as raw "
                + "from hs_iteration_slices", "--csv");
        assertEquals(0, r.exitCode(), r.err());
        String[] v = r.out().split("\n")[1].split(",");
        assertEquals(v[0], v[1]);
        assertEquals(v[0], v[2]);
        assertTrue(Long.parseLong(v[0]) > 0, r.out());
    }
}
