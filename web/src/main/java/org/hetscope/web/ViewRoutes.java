package org.hetscope.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hetscope.analysis.gpu.DurationStatistics;
import org.hetscope.analysis.gpu.LaunchLatency;
import org.hetscope.analysis.memory.BlockHistory;
import org.hetscope.analysis.memory.Heatmap;
import org.hetscope.analysis.memory.ManagerGantt;
import org.hetscope.analysis.memory.MemoryTrace;
import org.hetscope.analysis.memory.Pictures;
import org.hetscope.analysis.memory.ResidencyAnalysis;
import org.hetscope.analysis.memory.Snapshot;
import org.hetscope.analysis.profiling.KernelCounters;
import org.hetscope.analysis.tasks.CriticalPath;
import org.hetscope.analysis.tasks.TaskGraph;
import org.hetscope.analysis.tasks.WorkerIdle;
import org.hetscope.store.Table;

/**
 * The API of the analysis views beside the timeline (the query console, advice with its evidence, the task and
 * memory views, two-run comparison), kept apart from {@link TraceServer}'s timeline API. Every number comes from
 * the analysis library the CLI prints from; this class only routes and shapes the answers.
 */
final class ViewRoutes {
    /** Seconds a console query may run before it is cancelled (system property hetscope.web.queryTimeoutSeconds). */
    static final long QUERY_TIMEOUT_S = Long.getLong("hetscope.web.queryTimeoutSeconds", 30);

    private final Function<Context, TraceView> trace;
    /** The trace of a query parameter's index (the diff's A and B). */
    private final java.util.function.BiFunction<Context, String, TraceView> traceParam;
    private final SqlConsole console = new SqlConsole(QUERY_TIMEOUT_S * 1000);
    private final ObjectMapper json = new ObjectMapper();

    ViewRoutes(Function<Context, TraceView> trace, java.util.function.BiFunction<Context, String, TraceView> traceParam) {
        this.trace = trace;
        this.traceParam = traceParam;
    }

    void register(Javalin app) {
        app.post("/api/t/{trace}/query", ctx -> {
            TraceView t = trace.apply(ctx);
            String sql;
            try {
                JsonNode body = json.readTree(ctx.body());
                sql = body == null || !body.hasNonNull("sql") ? null : body.get("sql").asText();
            } catch (java.io.IOException e) {
                throw new BadQueryException("the query request must be JSON {\"sql\": \"...\"}");
            }
            ctx.json(SqlConsole.json(t, console.run(t.store(), sql)));
        });
        app.get("/api/diff", ctx -> {
            TraceView a = traceParam.apply(ctx, "a");
            TraceView b = traceParam.apply(ctx, "b");
            if (a == b) {
                throw new BadQueryException("compare two different traces (a and b are both " + a.name() + ")");
            }
            // Both stores are read: lock them in index order so that two opposite comparisons cannot deadlock.
            TraceView first = System.identityHashCode(a) <= System.identityHashCode(b) ? a : b;
            TraceView second = first == a ? b : a;
            synchronized (first) {
                synchronized (second) {
                    ctx.json(DiffView.of(a, b));
                }
            }
        });
        app.get("/api/t/{trace}/schema", ctx -> ctx.json(schema(trace.apply(ctx))));
        app.get("/api/t/{trace}/advice", ctx -> {
            TraceView t = trace.apply(ctx);
            synchronized (t) {
                ctx.json(AdviceEvidence.of(t));
            }
        });
        app.get("/api/t/{trace}/memory-pictures", ctx -> {
            TraceView t = trace.apply(ctx);
            String at = ctx.queryParam("t");
            if (at == null) {
                // Whether the store has what the pictures show, without drawing them (the page's tab list).
                synchronized (t) {
                    ctx.json(Map.of("memory", t.store().scalarLong(
                            "SELECT count(*) FROM (SELECT 1 FROM residency LIMIT 1)") > 0));
                }
                return;
            }
            if (!at.matches("-?[0-9]{1,18}")) {
                throw new BadQueryException("query parameter 't' (ns from the trace start) is required");
            }
            synchronized (t) {
                ctx.json(memoryPictures(t, Long.parseLong(at)));
            }
        });
        app.get("/api/t/{trace}/launch-latency", ctx -> {
            TraceView t = trace.apply(ctx);
            synchronized (t) {
                Map<String, Object> m = new LinkedHashMap<>();
                boolean has = t.store().scalarLong("SELECT count(*) FROM (SELECT 1 FROM flow LIMIT 1)") > 0;
                m.put("flows", has);
                if (has && ctx.queryParam("probe") == null) {
                    LaunchLatency l = new LaunchLatency(t.store());
                    m.put("histogram", TraceServer.tableJson("launch-latency-histogram", l.histogram()));
                    m.put("stats", TraceServer.tableJson("launch-latency", l.table()));
                }
                ctx.json(m);
            }
        });
        app.get("/api/t/{trace}/workers", ctx -> {
            TraceView t = trace.apply(ctx);
            synchronized (t) {
                ctx.json(workers(t, ctx.queryParam("probe") != null));
            }
        });
        app.get("/api/t/{trace}/counters", ctx -> {
            TraceView t = trace.apply(ctx);
            synchronized (t) {
                ctx.json(counters(t, ctx.queryParam("probe") != null, ctx.queryParam("kernel"),
                        ctx.queryParam("series")));
            }
        });
        app.get("/api/t/{trace}/memory-manager", ctx -> {
            TraceView t = trace.apply(ctx);
            long t0 = Long.parseLong(number(ctx, "t0"));
            long t1 = Long.parseLong(number(ctx, "t1"));
            if (t1 <= t0) {
                throw new BadQueryException("empty window: t1 must be after t0");
            }
            synchronized (t) {
                MemoryTrace m = memory(t);
                Map<String, Object> out = new LinkedHashMap<>();
                Table actions = ManagerGantt.actions(m);
                int ts = actions.column("ts");
                List<Object[]> rows = new ArrayList<>();
                for (Object[] r : actions.rows()) {
                    Object[] o = java.util.Arrays.copyOf(r, r.length + 1);
                    o[r.length] = (Long) r[ts] - t.origin();
                    rows.add(o);
                }
                List<String> cols = new ArrayList<>(actions.columns());
                cols.add("rel_ts");
                out.put("actions", Map.of("columns", cols, "rows", SqlConsole.exactRows(rows)));
                out.put("shares", TraceServer.tableJson("shares", ManagerGantt.shares(m, t.origin() + t0,
                        t.origin() + t1)));
                List<Map<String, Object>> blocks = new ArrayList<>();
                for (MemoryTrace.Block b : m.blocks.values()) {
                    blocks.add(Map.of("handle", b.handle(), "label", b.label()));
                }
                out.put("blocks", blocks);
                ctx.json(out);
            }
        });
        app.get("/api/t/{trace}/memory-block", ctx -> {
            TraceView t = trace.apply(ctx);
            String handle = ctx.queryParam("block");
            synchronized (t) {
                MemoryTrace m = memory(t);
                MemoryTrace.Block b = handle == null ? null : m.findBlock(handle);
                if (b == null) {
                    throw new BadQueryException("no block '" + handle + "' (give a handle or coordinates like '2 1')");
                }
                List<Map<String, Object>> out = new ArrayList<>();
                for (Table x : BlockHistory.of(m, b)) {
                    Map<String, Object> j = TraceServer.tableJson(x.title(), x);
                    j.put("rows", SqlConsole.exactRows(x.rows()));
                    out.add(j);
                }
                ctx.json(out);
            }
        });
        app.get("/api/t/{trace}/critical-path", ctx -> {
            TraceView t = trace.apply(ctx);
            synchronized (t) {
                ctx.json(criticalPath(t));
            }
        });
    }

    /**
     * {@code hetscope tasks critical-path}'s tables (CriticalPath.summary and table, the same rows) and the slice of
     * each task on the path, in path order, for the timeline to outline; empty for a store without tasks.
     */
    static Map<String, Object> criticalPath(TraceView t) {
        Map<String, Object> m = new LinkedHashMap<>();
        org.hetscope.store.Store s = t.store();
        if (s.scalarLong("SELECT count(*) FROM task") == 0) {
            m.put("tasks", 0);
            return m;
        }
        TaskGraph g = TaskGraph.load(s);
        CriticalPath.Result r = CriticalPath.of(g);
        m.put("tasks", g.tasks.size());
        m.put("summary", TraceServer.tableJson("critical-path-summary", CriticalPath.summary(g)));
        m.put("path", TraceServer.tableJson("critical-path", CriticalPath.table(g)));
        Map<Long, Long> sliceOf = new java.util.HashMap<>();
        for (Object[] row : s.query(null, "SELECT id, slice_id FROM task WHERE slice_id IS NOT NULL").rows()) {
            sliceOf.put((Long) row[0], (Long) row[1]);
        }
        List<Long> slices = new ArrayList<>();
        for (long task : r.path()) {
            slices.add(sliceOf.get(task));
        }
        m.put("slices", slices);
        m.put("origin", Long.toString(t.origin()));
        return m;
    }

    /**
     * The pictures of {@code hetscope memory residency --svg} (default 20 ms bins), {@code heatmap --svg} (default
     * lifetime normalisation) and {@code snapshot T --svg} at {@code rel} ns from the trace start, drawn by the
     * same library calls; {@code memory: false} for a store without residency.
     */
    static Map<String, Object> memoryPictures(TraceView t, long rel) {
        Map<String, Object> m = new LinkedHashMap<>();
        org.hetscope.store.Store s = t.store();
        boolean has = s.scalarLong("SELECT count(*) FROM (SELECT 1 FROM residency LIMIT 1)") > 0;
        m.put("memory", has);
        if (!has) {
            return m;
        }
        MemoryTrace mt = MemoryTrace.load(s);
        long abs = t.origin() + rel;
        m.put("t", rel);
        m.put("residency", Pictures.residency(ResidencyAnalysis.bins(mt, ResidencyAnalysis.DEFAULT_BIN_NS, null)));
        m.put("heatmap", Pictures.heatmap(Heatmap.of(mt, Heatmap.Normalisation.parse("lifetime"))));
        m.put("snapshot", Pictures.snapshot(Snapshot.blocks(mt, abs), Snapshot.tasks(mt, abs)));
        return m;
    }

    /** Stores are read-only: one loaded memory model per trace serves every memory request. */
    private final Map<TraceView, MemoryTrace> memoryModels = new java.util.concurrent.ConcurrentHashMap<>();

    private MemoryTrace memory(TraceView t) {
        return memoryModels.computeIfAbsent(t, v -> MemoryTrace.load(v.store()));
    }

    private static String number(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || !v.matches("-?[0-9]{1,18}")) {
            throw new BadQueryException("query parameter '" + name + "' must be an integer (ns from the trace start)");
        }
        return v;
    }

    /** Dispatches sent in one drill-down. */
    static final int MAX_DISPATCHES = 5_000;

    /**
     * The counter view, from {@code hetscope counters}' own calls (KernelCounters): the per-kernel table; with
     * {@code kernel}, the drill-down rows of that kernel's dispatches ({@code --dispatches}); with {@code series},
     * that counter's step series ({@code --series}) with each point's time also from the trace origin. Times that a
     * browser's double cannot hold go out as text.
     */
    static Map<String, Object> counters(TraceView t, boolean probe, String kernel, String series) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean has = t.store().scalarLong("SELECT count(*) FROM (SELECT 1 FROM kernel_counter LIMIT 1)") > 0;
        m.put("counters_present", has);
        if (!has || probe) {
            return m;
        }
        KernelCounters kc = KernelCounters.load(t.store());
        m.put("counters", kc.counterNames());
        m.put("per_kernel", TraceServer.tableJson("per-kernel", kc.perKernel()));
        m.put("overlapped", kc.overlapped().size());
        if (kernel != null) {
            Table all = kc.perDispatch();
            int k = all.column("kernel");
            List<Object[]> rows = all.rows().stream().filter(r -> kernel.equals(r[k])).limit(MAX_DISPATCHES).toList();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("columns", all.columns());
            d.put("rows", SqlConsole.exactRows(rows));
            d.put("origin", Long.toString(t.origin()));
            m.put("dispatches", d);
        }
        if (series != null) {
            if (!kc.counterNames().contains(series)) {
                throw new BadQueryException("no counter named '" + series + "'");
            }
            Table st = kc.series(series, Long.MIN_VALUE, Long.MAX_VALUE);
            int ts = st.column("ts");
            List<Object[]> rows = new ArrayList<>();
            for (Object[] r : st.rows()) {
                Object[] out = java.util.Arrays.copyOf(r, r.length + 1);
                out[r.length] = (Long) r[ts] - t.origin();
                rows.add(out);
            }
            List<String> cols = new ArrayList<>(st.columns());
            cols.add("rel_ts");
            Map<String, Object> sj = new LinkedHashMap<>();
            sj.put("columns", cols);
            sj.put("rows", SqlConsole.exactRows(rows));
            m.put("series", sj);
        }
        return m;
    }

    /** Tasks sent to the worker panel; a larger run is drawn from its first tasks and says so. */
    static final int MAX_TASKS = 200_000;

    /**
     * The StarVZ-style worker panel: per worker its idle share ({@code WorkerIdle}, as 'hetscope tasks
     * critical-path' prints it, rows in the same order as {@code workers}), per codelet and worker kind the task
     * statistics ({@code hetscope stats}' codelet table), and each executed task as [worker track, start (ns from
     * the trace origin), duration, codelet index, slice id].
     */
    static Map<String, Object> workers(TraceView t, boolean probe) {
        org.hetscope.store.Store s = t.store();
        Map<String, Object> m = new LinkedHashMap<>();
        boolean has = s.scalarLong("SELECT count(*) FROM (SELECT 1 FROM task WHERE worker_track_id IS NOT NULL "
                + "LIMIT 1)") > 0;
        m.put("tasks_present", has);
        if (!has || probe) {
            return m;
        }
        m.put("idle", TraceServer.tableJson("worker-idle", WorkerIdle.of(s)));
        List<Long> workers = new ArrayList<>();
        for (Object[] r : s.query(null, "SELECT unit_track_id FROM hs_device_utilisation WHERE level = 'worker' "
                + "ORDER BY unit, unit_track_id").rows()) {
            workers.add((Long) r[0]);
        }
        m.put("workers", workers);
        m.put("codelets", TraceServer.tableJson("codelets", new DurationStatistics(s).codelets()));
        Map<String, Integer> names = new LinkedHashMap<>();
        List<long[]> tasks = new ArrayList<>();
        Table rows = s.query(null, "SELECT worker_track_id, start_ts, end_ts - start_ts, name, slice_id FROM task "
                + "WHERE worker_track_id IS NOT NULL AND start_ts IS NOT NULL AND end_ts IS NOT NULL "
                + "ORDER BY start_ts, id LIMIT " + (MAX_TASKS + 1));
        for (Object[] r : rows.rows().subList(0, Math.min(MAX_TASKS, rows.size()))) {
            int name = names.computeIfAbsent(String.valueOf(r[3]), n -> names.size());
            tasks.add(new long[] {(Long) r[0], (Long) r[1] - t.origin(), (Long) r[2], name,
                    r[4] == null ? -1 : (Long) r[4]});
        }
        m.put("codelet_names", new ArrayList<>(names.keySet()));
        m.put("tasks", tasks);
        m.put("truncated", rows.size() > MAX_TASKS);
        return m;
    }

    /**
     * The relations a console query can read: the store's tables (docs/schema.md) and the standard library's views
     * (docs/stdlib.md), each with its columns, in the order the database lists them.
     */
    static List<Map<String, Object>> schema(TraceView t) {
        Table cols;
        synchronized (t) {
            cols = t.store().query(null, """
                    SELECT c.table_name, CASE WHEN t.table_type = 'VIEW' THEN 'view' ELSE 'table' END AS kind,
                           c.column_name, c.data_type
                    FROM information_schema.columns c
                    JOIN information_schema.tables t ON t.table_catalog = c.table_catalog
                     AND t.table_schema = c.table_schema AND t.table_name = c.table_name
                    ORDER BY kind, c.table_name, c.ordinal_position""");
        }
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        for (Object[] r : cols.rows()) {
            Map<String, Object> rel = byName.computeIfAbsent((String) r[0], n -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", n);
                m.put("kind", r[1]);
                m.put("columns", new ArrayList<String>());
                return m;
            });
            @SuppressWarnings("unchecked")
            List<String> c = (List<String>) rel.get("columns");
            c.add(r[2] + " " + r[3]);
        }
        return new ArrayList<>(byName.values());
    }
}
