package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The detectors, written as sorted sweeps and binary searches, give the same tables, cell for cell and in the
 * same order, as the nested scans they replace ({@link BruteForceDetectors}), on the two real StarPU fixtures
 * and on larger traces made from them by bench/paje/generate.py, whose copies reuse the fixture's data handles:
 * every block then has many residency intervals, allocations, requests and transfers, as in a long run.
 */
class DetectorsEquivalenceTest {
    static final long US = 1_000L;
    static final long MS = 1_000_000L;

    /** Settings from strict to permissive, so that every detector reports rows under some of them. */
    static final List<Detectors.Options> SETTINGS = List.of(Detectors.Options.defaults(),
            new Detectors.Options(MS, 10 * US, MS, 100 * US, 4096, 2, 0.95, true),
            new Detectors.Options(0, 0, 1_000 * MS, 0, 1L << 20, 2, 0.5, false),
            new Detectors.Options(100 * US, 200 * US, 200 * US, 10 * US, 2L << 20, 4, 0.99, false));

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void fixturesGiveTheBruteForceTables(String fixture, @TempDir Path dir) throws Exception {
        try (Store s = MemoryFixtureTest.importFixture(fixture, dir)) {
            assertAllButRetriesReported(compare(MemoryTrace.load(s), fixture), fixture);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void generatedTracesGiveTheBruteForceTables(String fixture, @TempDir Path dir) throws Exception {
        Path root = Path.of(System.getProperty("hetscope.root", "."));
        Path script = root.resolve("bench/paje/generate.py");
        Assumptions.assumeTrue(Files.isRegularFile(script), "no " + script);
        Assumptions.assumeTrue(python(), "python3 is needed to run " + script);
        Path folder = dir.resolve("gen");
        Files.createDirectories(folder);
        Process p = new ProcessBuilder("python3", script.toString(),
                root.resolve("../shared/fixtures/starpu/" + fixture + "/paje.trace").toString(),
                folder.resolve("paje.trace").toString(), "2", "--tasks-rec")
                .redirectErrorStream(true).redirectOutput(dir.resolve("gen.log").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, Files.readString(dir.resolve("gen.log")));
        Path file = dir.resolve("gen.hets");
        StoreWriter w = StoreWriter.create(file);
        new PajeFormat().read(folder, w, Progress.NONE);
        w.commit();
        try (Store s = Store.open(file)) {
            MemoryTrace m = MemoryTrace.load(s);
            // Several copies: the tasks and transfers of each block repeat.
            assertTrue(m.tasks.size() >= 3 * (fixture.endsWith("nb6") ? 56 : 364), "tasks " + m.tasks.size());
            String what = fixture + " x" + m.tasks.size() + " tasks";
            assertAllButRetriesReported(compare(m, what), what);
        }
    }

    private static int[] compare(MemoryTrace m, String what) {
        int[] nonEmpty = new int[BruteForceDetectors.all(m, SETTINGS.get(0)).size()];
        for (Detectors.Options o : SETTINGS) {
            List<Table> expected = BruteForceDetectors.all(m, o);
            List<Table> got = Detectors.all(m, o);
            assertEquals(expected.size(), got.size());
            for (int i = 0; i < expected.size(); i++) {
                Table e = expected.get(i);
                Table g = got.get(i);
                String at = what + " " + o + " " + e.title();
                assertEquals(e.title(), g.title(), at);
                assertEquals(e.columns(), g.columns(), at);
                assertEquals(e.size(), g.size(), at);
                for (int r = 0; r < e.size(); r++) {
                    assertEquals(Arrays.asList(e.rows().get(r)), Arrays.asList(g.rows().get(r)), at + " row " + r);
                }
                if (e.size() > 0) {
                    nonEmpty[i]++;
                }
            }
        }
        return nonEmpty;
    }

    /** Every detector but allocation retries (StarPU traces that do not run out of memory have none). */
    private static void assertAllButRetriesReported(int[] nonEmpty, String what) {
        // Each detector must have found something under some setting, or the comparison proved nothing for it;
        // the random traces below cover allocation retries.
        for (int i = 1; i < nonEmpty.length; i++) {
            assertTrue(nonEmpty[i] > 0, what + ": detector " + i + " never reported a row");
        }
    }

    /**
     * Small random traces with many ties (times on a coarse grid, few blocks and nodes), including failed and
     * repeated allocations, zero-length tasks and transfers, and samples sharing a time stamp.
     */
    @org.junit.jupiter.api.Test
    void randomTracesGiveTheBruteForceTables() {
        int[] total = new int[8];
        for (int seed = 0; seed < 300; seed++) {
            int[] nonEmpty = compare(random(new java.util.Random(seed)), "seed " + seed);
            for (int i = 0; i < total.length; i++) {
                total[i] += nonEmpty[i];
            }
        }
        for (int i = 0; i < total.length; i++) {
            assertTrue(total[i] > 0, "detector " + i + " never reported a row");
        }
    }

    static MemoryTrace random(java.util.Random r) {
        MemoryTrace m = new MemoryTrace();
        m.nodes.put(0L, new MemoryTrace.Node(0, "MEMNODE0", "RAM"));
        m.nodes.put(1L, new MemoryTrace.Node(1, "MEMNODE1", "CUDA"));
        m.nodes.put(2L, new MemoryTrace.Node(2, "MEMNODE2", "CUDA"));
        int blocks = 1 + r.nextInt(4);
        for (long b = 0; b < blocks; b++) {
            m.blocks.put(b, new MemoryTrace.Block(b, "0x" + b, b + " 0", 4096L * (b + 1)));
        }
        int grid = 20 + r.nextInt(40);
        String[] modes = {"R", "W", "RW"};
        int nTasks = r.nextInt(30);
        List<MemoryTrace.TaskRun> tasks = new java.util.ArrayList<>();
        for (int i = 0; i < nTasks; i++) {
            long start = r.nextInt(grid) * US;
            long end = start + r.nextInt(4) * US;
            List<Object[]> acc = new java.util.ArrayList<>();
            for (int k = r.nextInt(4); k > 0; k--) {
                acc.add(new Object[] {(long) r.nextInt(blocks), modes[r.nextInt(3)]});
            }
            Long node = r.nextInt(8) == 0 ? null : (long) r.nextInt(3);
            tasks.add(new MemoryTrace.TaskRun(i, 100 + i, "t" + (i % 3), node, "w" + node, node, start - US, start,
                    end, null, acc));
        }
        tasks.sort(java.util.Comparator.comparingLong(MemoryTrace.TaskRun::startTs)
                .thenComparingLong(MemoryTrace.TaskRun::id));
        for (MemoryTrace.TaskRun t : tasks) {
            m.tasks.add(t);
            m.tasksByJob.put(t.jobId(), t);
            for (int k = r.nextInt(3); k > 0 && nTasks > 0; k--) {
                m.dependsOn.computeIfAbsent(t.jobId(), x -> new java.util.ArrayList<>())
                        .add(100L + r.nextInt(nTasks + 2));
            }
        }
        for (long b = 0; b < blocks; b++) {
            for (long n = 0; n < 3; n++) {
                long t = r.nextInt(grid / 2) * US;
                for (int k = r.nextInt(4); k > 0; k--) {
                    long end = t + r.nextInt(grid) * US;
                    m.residency.add(new MemoryTrace.Interval(b, n, t, end, "Owner"));
                    t = end + r.nextInt(3) * US;
                }
            }
        }
        List<MemoryTrace.Action> actions = new java.util.ArrayList<>();
        for (int i = r.nextInt(25); i > 0; i--) {
            actions.add(new MemoryTrace.Action(r.nextInt(3), r.nextInt(10) == 0 ? null : (long) r.nextInt(blocks),
                    r.nextInt(4) == 0 ? "Free" : "Allocating", r.nextInt(grid) * US, 0, "fetch",
                    4096L * (1 + r.nextInt(600)), 0L, r.nextInt(5) == 0 ? Boolean.FALSE : Boolean.TRUE, null, null));
        }
        actions.sort(java.util.Comparator.comparingLong(MemoryTrace.Action::ts));
        m.actions.addAll(actions);
        for (int i = r.nextInt(20); i > 0; i--) {
            m.requests.add(new MemoryTrace.Request(r.nextInt(grid) * US, (long) r.nextInt(blocks), 0L,
                    (long) r.nextInt(3), r.nextBoolean() ? "fetch" : "prefetch", 0L));
        }
        m.requests.sort(java.util.Comparator.comparingLong(MemoryTrace.Request::ts));
        for (int i = 0, n = r.nextInt(30); i < n; i++) {
            long ts = r.nextInt(grid) * US;
            long src = r.nextInt(3);
            long dst = (src + 1 + r.nextInt(2)) % 3;
            m.moves.add(new MemoryTrace.Move(i, ts, ts + r.nextInt(3) * US, 4096, src, dst,
                    r.nextInt(10) == 0 ? null : (long) r.nextInt(blocks), (long) r.nextInt(40),
                    r.nextBoolean() ? "fetch" : "prefetch"));
        }
        m.moves.sort(java.util.Comparator.comparingLong(MemoryTrace.Move::ts).thenComparingLong(MemoryTrace.Move::id));
        for (long n = 1; n < 3; n++) {
            int k = 1 + r.nextInt(20);
            long[] ts = new long[k];
            double[] mib = new double[k];
            for (int i = 0; i < k; i++) {
                ts[i] = r.nextInt(grid) * US;
                mib[i] = r.nextInt(10);
            }
            Arrays.sort(ts);
            m.used.put(n, new MemoryTrace.Usage(ts, mib));
        }
        return m;
    }

    private static boolean python() {
        try {
            return new ProcessBuilder("python3", "--version").start().waitFor(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            return false;
        }
    }
}
