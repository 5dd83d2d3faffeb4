package org.hetscope.formats.rocpd.rocprof;

import java.util.List;
import org.hetscope.model.TableSpec;

/**
 * The tables the rocprof CSV reader adds for a results file without timestamps (joined to the trace's kernels by
 * the standard library's {@code hs_rocprof_join}), declared once; documented in docs/schema.md.
 */
public final class RocprofTables {
    private RocprofTables() {}

    public static final class Dispatch extends TableSpec {
        public final Column<Long> line = bigint("line", "line of the results file");
        public final Column<Long> dispatchIndex = bigint("dispatch_index", "rocprof's dispatch number");
        public final Column<String> kernel = varchar("kernel", "kernel name without rocprof's decorations");
        public final Column<String> kernelName = varchar("kernel_name", "kernel name as written");
        public final Column<Integer> gpu = integer("gpu", "GPU number");
        public final Column<Long> queue = bigint("queue", "queue number");
        public final Column<Long> beginNs = bigint("begin_ns", "start (ns), when the line has one");
        public final Column<Long> endNs = bigint("end_ns", "end (ns), when the line has one");

        Dispatch() {
            super("rocprof_dispatch", "one row per dispatch line of a rocprof results file");
        }
    }

    public static final class DispatchCounter extends TableSpec {
        public final Column<Long> line = bigint("line", "the dispatch line");
        public final Column<Integer> position = integer("position", "order of the counter among the line's columns");
        public final Column<String> name = varchar("name", "counter name");
        public final Column<Double> value = doubleCol("value", "counter value");

        DispatchCounter() {
            super("rocprof_dispatch_counter", "one row per counter value of a dispatch line");
        }
    }

    public static final Dispatch DISPATCH = new Dispatch();
    public static final DispatchCounter DISPATCH_COUNTER = new DispatchCounter();

    public static final List<TableSpec> ALL = List.of(DISPATCH, DISPATCH_COUNTER);
}
