package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The task dependencies the store derives from a StarPU import's JobId edges, against the edges read from dag.dot
 * or tasks.rec here by a regular expression: each pair of executed tasks once, an edge with an end that is no task
 * counted, and several traces in one store kept apart.
 */
class StarpuDependenciesTest {
    private static final Pattern DOT_EDGE = Pattern.compile("\"task_(\\d+)\"\\s*->\\s*\"task_(\\d+)\"");

    @TempDir
    Path dir;

    private Store importInto(String name, Path... inputs) throws Exception {
        Path file = dir.resolve(name + ".duckdb");
        StoreWriter w = StoreWriter.create(file);
        for (Path in : inputs) {
            new PajeFormat().read(in, w, Progress.NONE);
        }
        w.commit();
        return Store.open(file);
    }

    /** JobId edges (from, to) of dag.dot, in file order. */
    private static List<long[]> dotEdges(Path dot) throws Exception {
        Matcher m = DOT_EDGE.matcher(Files.readString(dot));
        List<long[]> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
        }
        return out;
    }

    /** JobId edges (depended on, dependent) of tasks.rec's DependsOn lines. */
    private static List<long[]> recEdges(Path rec) throws Exception {
        List<long[]> out = new java.util.ArrayList<>();
        long job = -1;
        for (String line : Files.readAllLines(rec)) {
            if (line.startsWith("JobId: ")) {
                job = Long.parseLong(line.substring(7).trim());
            } else if (line.startsWith("DependsOn: ")) {
                for (String d : line.substring(11).trim().split("\\s+")) {
                    out.add(new long[] {Long.parseLong(d), job});
                }
            }
        }
        return out;
    }

    /** Checks the store's pairs against {@code edges} mapped through the store's JobId to task (the last). */
    private static void check(Store store, List<long[]> edges, long firstTask, long lastTask) {
        Map<Long, Long> taskOf = new HashMap<>();
        for (Object[] r : store.query("SELECT job_id, id FROM task WHERE id BETWEEN " + firstTask + " AND "
                + lastTask + " ORDER BY id").rows()) {
            taskOf.put((Long) r[0], (Long) r[1]);
        }
        Set<List<Long>> expected = new HashSet<>();
        long missing = 0;
        for (long[] e : edges) {
            Long from = taskOf.get(e[0]);
            Long to = taskOf.get(e[1]);
            if (from == null || to == null) {
                missing++;
            } else {
                expected.add(List.of(from, to));
            }
        }
        Set<List<Long>> stored = new HashSet<>();
        for (Object[] r : store.query("SELECT from_task_id, to_task_id FROM task_dependency WHERE from_task_id "
                + "BETWEEN " + firstTask + " AND " + lastTask).rows()) {
            assertTrue(stored.add(List.of((Long) r[0], (Long) r[1])), "pair stored twice: " + List.of(r));
        }
        assertEquals(expected, stored);
        assertTrue(!expected.isEmpty());
        if (firstTask == 1 && lastTask == Long.MAX_VALUE) { // the store's only trace
            assertEquals(missing == 0 ? null : missing, store.scalarLong("SELECT CAST(value AS BIGINT) FROM "
                    + "trace_info WHERE key = 'starpu.dependencies.to_unexecuted_tasks'"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void fromDagDot(String name) throws Exception {
        Path fixture = StarpuFixtureTest.fixture(name);
        List<long[]> edges = dotEdges(fixture.resolve("dag.dot"));
        try (Store store = importInto(name, fixture)) {
            check(store, edges, 1, Long.MAX_VALUE);
            assertEquals("dag.dot", store.info().get("starpu.dependencies.source"));
            // no table of the derivation is left
            assertEquals(0L, store.scalarLong("SELECT count(*) FROM duckdb_tables() "
                    + "WHERE table_name LIKE 'starpu_dependency_edge%'"));
        }
    }

    @Test
    void fromTasksRecWithoutDagDot() throws Exception {
        Path fixture = StarpuFixtureTest.fixture("chol-dmda-nb6");
        Path copy = Files.createDirectories(dir.resolve("nodag"));
        for (String f : new String[] {"paje.trace", "tasks.rec", "data.rec"}) {
            Files.copy(fixture.resolve(f), copy.resolve(f));
        }
        try (Store store = importInto("nodag", copy)) {
            check(store, recEdges(copy.resolve("tasks.rec")), 1, Long.MAX_VALUE);
            assertEquals("tasks.rec DependsOn", store.info().get("starpu.dependencies.source"));
        }
    }

    /** A tasks.rec of which no task ran: no pair, every edge counted, and no table of the derivation made. */
    @Test
    void withoutExecutedTasksEveryEdgeIsCounted() throws Exception {
        Path fixture = StarpuFixtureTest.fixture("chol-dmda-nb6");
        Path copy = Files.createDirectories(dir.resolve("notrun"));
        Files.copy(fixture.resolve("paje.trace"), copy.resolve("paje.trace"));
        Files.copy(fixture.resolve("data.rec"), copy.resolve("data.rec"));
        Files.write(copy.resolve("tasks.rec"), Files.readAllLines(fixture.resolve("tasks.rec")).stream()
                .filter(l -> !l.startsWith("WorkerId:")).toList());
        List<long[]> edges = recEdges(copy.resolve("tasks.rec"));
        try (Store store = importInto("notrun", copy)) {
            assertEquals(0L, store.scalarLong("SELECT count(*) FROM task"));
            assertEquals(0L, store.scalarLong("SELECT count(*) FROM task_dependency"));
            assertEquals((long) edges.size(), store.scalarLong("SELECT CAST(value AS BIGINT) FROM trace_info "
                    + "WHERE key = 'starpu.dependencies.to_unexecuted_tasks'"));
            assertEquals(0L, store.scalarLong("SELECT count(*) FROM duckdb_tables() "
                    + "WHERE table_name LIKE 'starpu_dependency_edge%'"));
        }
    }

    /** Two traces in one store: JobIds repeat across them, and each trace's edges join only its own tasks. */
    @Test
    void twoTracesInOneStoreKeepTheirOwnTasks() throws Exception {
        Path a = StarpuFixtureTest.fixture("chol-dmda-nb6");
        Path b = StarpuFixtureTest.fixture("chol-lws-nb12");
        try (Store store = importInto("two", a, b)) {
            long split = 78; // the first trace's 77 executed tasks come first
            assertEquals(77L, store.scalarLong("SELECT count(*) FROM task WHERE id < " + split));
            check(store, dotEdges(a.resolve("dag.dot")), 1, split - 1);
            check(store, dotEdges(b.resolve("dag.dot")), split, Long.MAX_VALUE);
            assertEquals(0L, store.scalarLong("SELECT count(*) FROM task_dependency WHERE "
                    + "(from_task_id < " + split + ") <> (to_task_id < " + split + ")"));
        }
    }
}
