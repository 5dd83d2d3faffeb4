package org.hetscope.analysis.gpu;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The duration statistics tables every front end shows (CLI {@code stats}, web statistics panel, report), read
 * from the standard library's views (docs/stdlib.md): per kernel name and per API function
 * ({@code hs_slice_stats}), per memory-operation kind ({@code hs_transfer_stats}) and per task codelet and worker
 * kind ({@code hs_task_stats}). Nothing is computed here: this class only picks the rows and orders them.
 */
public final class DurationStatistics {
    /** The figures of every statistics row, in the order tables show them. */
    static final String FIGURES = "count, total_ns, min_ns, max_ns, mean_ns, stddev_ns, p50_ns, p90_ns, p95_ns, "
            + "p99_ns, share_pct";

    private final Store store;

    public DurationStatistics(Store store) {
        this.store = store;
    }

    /** One row per name of the slices of one category, longest total first. */
    public Table byName(String title, String category) {
        return store.query(title, "SELECT name, " + FIGURES + " FROM hs_slice_stats WHERE category = ?"
                + " ORDER BY total_ns DESC, name", category);
    }

    /** One row per kernel name, longest total first. */
    public Table kernels() {
        return byName("kernels", "kernel");
    }

    /** One row per API function, longest total first. */
    public Table apiCalls() {
        return byName("API calls", "api");
    }

    /** One row per memory-operation kind (HtoD, DtoH, ..., memset), with bytes moved and bandwidth. */
    public Table memoryOperations() {
        return store.query("memory transfers", "SELECT kind, " + FIGURES + ", bytes, gb_per_s FROM hs_transfer_stats"
                + " ORDER BY total_ns DESC, kind");
    }

    /** One row per task name (StarPU codelet) and worker kind; empty for stores without task-runtime data. */
    public Table codelets() {
        return store.query("task codelets", "SELECT codelet, worker_kind, workers, " + FIGURES
                + " FROM hs_task_stats ORDER BY codelet, worker_kind");
    }

    /** Whether the store holds executed tasks (the codelet table has rows). */
    public boolean hasTasks() {
        Long n = store.scalarLong("SELECT count(*) FROM hs_task_stats");
        return n != null && n > 0;
    }
}
