package org.hetscope.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.hetscope.analysis.gpu.LaunchLatency;
import org.hetscope.analysis.memory.Heatmap;
import org.hetscope.analysis.memory.MemoryTrace;
import org.hetscope.store.CoreTables;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The named tables the page's statistics and analysis panels list. Built-in statistics come first; every table a
 * reader or analysis added to the store beyond the core schema (through {@code TraceSink.defineTable}) is listed
 * too, so new analyses show up without a change here. Further computed tables register with {@link #register}.
 */
public final class AnalysisTables {
    /** Rows one generic store table may send to the page. */
    public static final int MAX_GENERIC_ROWS = 10_000;

    /** The core tables as declared, and the view kernel over two of them. */
    private static final Set<String> CORE_TABLES = java.util.stream.Stream.concat(
            CoreTables.ALL.stream().map(org.hetscope.model.TableSpec::name), java.util.stream.Stream.of("kernel"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** A named table computed from a store, offered only for stores it applies to. */
    public record Provider(String name, String title, String group, Predicate<Store> applies,
                           Function<Store, Table> compute) {
        public Provider(String name, String title, String group, Function<Store, Table> compute) {
            this(name, title, group, s -> true, compute);
        }
    }

    private final Map<String, Provider> providers = new LinkedHashMap<>();

    /** The built-in statistics (kernels, API calls, transfers, utilisation, codelets, concurrency), from docs/stdlib.md. */
    public static AnalysisTables standard() {
        AnalysisTables t = new AnalysisTables();
        t.register(new Provider("kernels", "Kernels", "statistics", StatisticsTables::kernels));
        t.register(new Provider("api", "API calls", "statistics", StatisticsTables::apiCalls));
        t.register(new Provider("memcpy", "Memory transfers", "statistics", StatisticsTables::memcpy));
        t.register(new Provider("utilisation", "Utilisation", "statistics", StatisticsTables::utilisation));
        t.register(new Provider("codelets", "Task codelets", "statistics", StatisticsTables::hasTasks,
                StatisticsTables::codelets));
        t.register(new Provider("concurrency", "Concurrency", "statistics", StatisticsTables::concurrency));
        t.register(new Provider("gpu.launch_latency", "Launch latency", "GPU analyses",
                s -> has(s, "flow"), s -> new LaunchLatency(s).table()));
        t.register(new Provider("memory.heatmap", "Memory heatmap", "memory views",
                s -> has(s, "residency"), s -> Heatmap.of(MemoryTrace.load(s), Heatmap.Normalisation.ABSOLUTE)));
        return t;
    }

    private static boolean has(Store s, String table) {
        return s.scalarLong("SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT 1)") > 0;
    }

    public void register(Provider p) {
        providers.put(p.name(), p);
    }

    /** The providers that apply to this store, including one per extra store table. */
    public List<Provider> list(Store store) {
        List<Provider> out = new ArrayList<>();
        for (Provider p : providers.values()) {
            if (p.applies().test(store)) {
                out.add(p);
            }
        }
        // Base tables only (the standard library's temporary views are offered above): readers add tables (TraceSink.defineTable), never views, and a view in a store
        // received from someone else is code, not data.
        Table extra = store.query(null, "SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY table_name");
        for (Object[] r : extra.rows()) {
            String table = (String) r[0];
            if (!CORE_TABLES.contains(table) && table.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                out.add(new Provider("store." + table, table, "store tables",
                        s -> s.query(table, "SELECT * FROM \"" + table + "\" LIMIT " + MAX_GENERIC_ROWS)));
            }
        }
        return out;
    }

    public Table compute(Store store, String name) {
        for (Provider p : list(store)) {
            if (p.name().equals(name)) {
                return p.compute().apply(store);
            }
        }
        throw new BadQueryException("no analysis table named '" + name + "'");
    }
}
