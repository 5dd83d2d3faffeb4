package org.hetscope.analysis.profiling;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.rocpd.rocprof.RocprofCsv;
import org.hetscope.formats.rocpd.rocprof.RocprofCsvFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.StandardLibrary;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Joins a rocprof v1/v2 {@code results.csv} to the kernels of a store of the same run. The rocprof reader turns
 * the file into its dispatch tables, which are loaded as temporary tables of this store session (the store file
 * stays unchanged), and the standard library's {@code hs_rocprof_join} does the join (by time, else by per-name
 * order: docs/stdlib.md). Only the wide layout, one column per counter, is made here.
 */
public final class CounterCsvJoin {
    private CounterCsvJoin() {
    }

    /** Loads {@code csv} into the session of {@code store}, shadowing any rocprof tables the store holds. */
    public static void load(Store store, Path csv) throws IOException, TraceFormatException {
        CollectingSink rows = new CollectingSink();
        RocprofCsvFormat.writeDispatches(RocprofCsv.read(csv), rows);
        Connection c = store.connection();
        try {
            for (Map.Entry<String, TableSpec> t : rows.extraTables.entrySet()) {
                try (Statement st = c.createStatement()) {
                    st.execute(t.getValue().ddl().replaceFirst("^CREATE TABLE ", "CREATE OR REPLACE TEMP TABLE "));
                }
                List<Object[]> tableRows = rows.extraRows.get(t.getKey());
                if (tableRows.isEmpty()) {
                    continue;
                }
                String marks = "?" + ", ?".repeat(tableRows.get(0).length - 1);
                try (PreparedStatement ins = c.prepareStatement("INSERT INTO temp." + t.getKey() + " ("
                        + t.getValue().columnList() + ") VALUES ("
                        + marks + ")")) {
                    for (Object[] r : tableRows) {
                        for (int i = 0; i < r.length; i++) {
                            ins.setObject(i + 1, r[i]);
                        }
                        ins.addBatch();
                    }
                    ins.executeBatch();
                }
            }
        } catch (SQLException e) {
            throw store.failure(e);
        }
        StandardLibrary.install(c);
    }

    /** The joined dispatches with their counters, as one wide table (counters in order of first appearance). */
    public static Table table(Store store) {
        Map<Long, Object[]> byLine = new LinkedHashMap<>();
        for (Object[] r : store.query("SELECT line, dispatch_index, kernel, slice_id, rule FROM hs_rocprof_join "
                + "ORDER BY line").rows()) {
            byLine.put((Long) r[0], new Object[] {r[1], r[2], r[3], r[4]});
        }
        List<String> counters = new ArrayList<>();
        Map<Long, Map<String, Double>> values = new LinkedHashMap<>();
        for (Object[] r : store.query("SELECT line, counter, value FROM hs_rocprof_join_counter "
                + "ORDER BY line, position").rows()) {
            String name = (String) r[1];
            if (!counters.contains(name)) {
                counters.add(name);
            }
            values.computeIfAbsent((Long) r[0], k -> new LinkedHashMap<>()).put(name, (Double) r[2]);
        }
        List<String> cols = new ArrayList<>(List.of("index", "kernel", "slice_id", "rule"));
        cols.addAll(counters);
        List<Object[]> rows = new ArrayList<>();
        for (Map.Entry<Long, Object[]> e : byLine.entrySet()) {
            Object[] row = new Object[cols.size()];
            System.arraycopy(e.getValue(), 0, row, 0, 4);
            Map<String, Double> v = values.getOrDefault(e.getKey(), Map.of());
            for (int i = 0; i < counters.size(); i++) {
                row[4 + i] = v.get(counters.get(i));
            }
            rows.add(row);
        }
        return new Table("rocprof counters joined to the trace", cols, rows);
    }
}
