package org.hetscope.web;

import org.hetscope.analysis.gpu.DurationStatistics;
import org.hetscope.analysis.gpu.Utilisation;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The statistics the timeline, the report and the plots show. Each is the table {@code hetscope stats} and
 * {@code hetscope gpu} print, read from the standard library (docs/stdlib.md): the web module computes none.
 */
public final class StatisticsTables {
    private StatisticsTables() {
    }

    public static Table kernels(Store store) {
        return new DurationStatistics(store).kernels();
    }

    public static Table apiCalls(Store store) {
        return new DurationStatistics(store).apiCalls();
    }

    /** Per transfer kind (HtoD, DtoH, ...): duration statistics, bytes and achieved bandwidth. */
    public static Table memcpy(Store store) {
        return new DurationStatistics(store).memoryOperations();
    }

    /** Per task codelet and worker kind (task runtimes). */
    public static Table codelets(Store store) {
        return new DurationStatistics(store).codelets();
    }

    /** Whether the store has executed tasks, so that the codelet table applies. */
    public static boolean hasTasks(Store store) {
        return new DurationStatistics(store).hasTasks();
    }

    /** Utilisation of every device (idle ones included) and of each stream, queue or worker over the default window. */
    public static Table utilisation(Store store) {
        Utilisation u = new Utilisation(store);
        long[] w = u.defaultWindow();
        return u.all(w[0], w[1]);
    }

    /** Concurrency of kernels and tasks per device and unit over the default window. */
    public static Table concurrency(Store store) {
        Utilisation u = new Utilisation(store);
        long[] w = u.defaultWindow();
        return u.concurrency(w[0], w[1]);
    }
}
