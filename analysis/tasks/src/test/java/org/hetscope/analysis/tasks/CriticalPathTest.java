package org.hetscope.analysis.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Critical path against brute force on random graphs, and against dag.dot/tasks.rec read here on the fixtures. */
class CriticalPathTest {

    static long bruteForce(TaskGraph g, long node) {
        long best = 0;
        for (long s : g.successors.getOrDefault(node, List.of())) {
            best = Math.max(best, bruteForce(g, s));
        }
        return g.tasks.get(node).dur() + best;
    }

    @Test
    void longestPathEqualsExhaustiveSearchOnRandomGraphs() {
        Random rnd = new Random(42);
        for (int round = 0; round < 200; round++) {
            TaskGraph g = new TaskGraph();
            int n = 1 + rnd.nextInt(12);
            for (long i = 1; i <= n; i++) {
                long start = rnd.nextInt(1000);
                g.tasks.put(i, new TaskGraph.Node(i, i, "t" + i, 1L, "w", start, start + rnd.nextInt(100)));
            }
            for (long a = 1; a <= n; a++) {
                for (long b = a + 1; b <= n; b++) {
                    if (rnd.nextInt(4) == 0) {
                        g.successors.computeIfAbsent(a, k -> new ArrayList<>()).add(b);
                        g.edges++;
                    }
                }
            }
            long expected = 0;
            for (long i = 1; i <= n; i++) {
                expected = Math.max(expected, bruteForce(g, i));
            }
            CriticalPath.Result r = CriticalPath.of(g);
            assertEquals(expected, r.length());
            assertEquals(expected, r.path().stream().mapToLong(t -> g.tasks.get(t).dur()).sum());
            for (int i = 1; i < r.path().size(); i++) {
                assertTrue(g.successors.get(r.path().get(i - 1)).contains(r.path().get(i)));
            }
        }
    }

    @Test
    void cycleIsReported() {
        TaskGraph g = new TaskGraph();
        g.tasks.put(1L, new TaskGraph.Node(1, 1, "a", 1L, "w", 0, 1));
        g.tasks.put(2L, new TaskGraph.Node(2, 2, "b", 1L, "w", 1, 2));
        g.successors.put(1L, List.of(2L));
        g.successors.put(2L, List.of(1L));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> CriticalPath.of(g));
        assertTrue(e.getMessage().contains("cycle"));
    }

    @Test
    void fixturesAgreeWithRelaxationOverDagDotAndTasksRec(@TempDir Path dir) throws Exception {
        for (String name : List.of("chol-dmda-nb6", "chol-lws-nb12")) {
            Path folder = Path.of(System.getProperty("hetscope.root", "."))
                    .resolve("../shared/fixtures/starpu/" + name);
            Path file = dir.resolve(name + ".hets");
            StoreWriter w = StoreWriter.create(file);
            new PajeFormat().read(folder, w, Progress.NONE);
            w.commit();
            // Independent: durations from tasks.rec, edges from dag.dot, longest path by repeated relaxation.
            Map<Long, Long> dur = new HashMap<>();
            Map<Long, String> worker = new HashMap<>();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            Map<Long, Long> busy = new HashMap<>();
            for (String rec : Files.readString(folder.resolve("tasks.rec")).split("\n\n")) {
                Map<String, String> f = new HashMap<>();
                rec.lines().forEach(l -> f.put(l.substring(0, l.indexOf(':')), l.substring(l.indexOf(':') + 1).trim()));
                if (f.containsKey("StartTime")) {
                    long s = new BigDecimal(f.get("StartTime")).movePointRight(6).longValueExact();
                    long e = new BigDecimal(f.get("EndTime")).movePointRight(6).longValueExact();
                    dur.put(Long.parseLong(f.get("JobId")), e - s);
                    worker.put(Long.parseLong(f.get("JobId")), f.get("WorkerId"));
                    busy.merge(Long.parseLong(f.get("WorkerId")), e - s, Long::sum);
                    first = Math.min(first, s);
                    last = Math.max(last, e);
                }
            }
            List<long[]> edges = new ArrayList<>();
            Matcher m = Pattern.compile("\"task_(\\d+)\"->\"task_(\\d+)\"").matcher(Files.readString(
                    folder.resolve("dag.dot")));
            while (m.find()) {
                edges.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
            }
            Map<Long, Long> dist = new HashMap<>(dur);
            for (boolean changed = true; changed; ) {
                changed = false;
                for (long[] e : edges) {
                    long cand = dist.get(e[0]) + dur.get(e[1]);
                    if (cand > dist.get(e[1])) {
                        dist.put(e[1], cand);
                        changed = true;
                    }
                }
            }
            long expected = dist.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            try (Store store = Store.open(file)) {
                TaskGraph g = TaskGraph.load(store);
                Table summary = CriticalPath.summary(g);
                assertEquals(expected, summary.get(0, "path_ns"), name);
                assertEquals(last - first, summary.get(0, "makespan_ns"));
                assertEquals((long) edges.size(), summary.get(0, "edges"));
                assertTrue((Long) summary.get(0, "path_ns") <= last - first);
                Table path = CriticalPath.table(g);
                assertEquals(expected, path.get(path.size() - 1, "cumulative_ns"));
                // Idle per worker: tasks never overlap on one worker, so busy = sum of tasks.rec durations.
                Table idle = WorkerIdle.of(store);
                assertEquals(2, idle.size(), name);
                long span = last - first;
                for (Object[] row : idle.rows()) {
                    String alias = row[0].equals("CPU0") ? "1" : "0";
                    long b = busy.get(Long.parseLong(alias));
                    assertEquals(b, row[2], name + " " + row[0]);
                    assertEquals(100.0 * (span - b) / span, (Double) row[4], 1e-9);
                }
            }
        }
    }
}
