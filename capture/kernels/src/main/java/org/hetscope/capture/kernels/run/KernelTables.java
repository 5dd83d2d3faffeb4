package org.hetscope.capture.kernels.run;

import java.util.List;
import org.hetscope.model.TableSpec;

/** The tables kernel instrumentation adds to a store, declared once; documented in docs/schema.md. */
public final class KernelTables {
    private KernelTables() {}

    public static final class CounterSite extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<Integer> counterIndex = integer("counter_index", "slot in the counter buffer");
        public final Column<String> kind = varchar("kind", "store, load, flop, visits");
        public final Column<String> space = varchar("space", "global, local, constant or NULL");
        public final Column<String> construct = varchar("construct", "while, for, do, if, ... or NULL");
        public final Column<String> file = varchar("file", "source file");
        public final Column<Integer> line = integer("line", "source line");
        public final Column<Integer> col = integer("col", "source column");
        public final Column<Long> value = bigint("value", "total over all work-items");
        public final Column<Long> minValue = bigint("min_value", "smallest per work-item");
        public final Column<Long> maxValue = bigint("max_value", "largest per work-item");
        public final Column<Long> minWorkItem = bigint("min_work_item", "a work-item with the smallest");
        public final Column<Long> maxWorkItem = bigint("max_work_item", "a work-item with the largest");

        CounterSite() {
            super("kernel_counter_site", "one row per counter slot of a counted launch");
        }
    }

    public static final class SourceLine extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<String> file = varchar("file", "source file");
        public final Column<Integer> line = integer("line", "line number, from 1");
        public final Column<String> text = varchar("text", "the line, annotated with the counters");

        SourceLine() {
            super("kernel_source_line", "the kernel source annotated with the counters, line by line");
        }
    }

    public static final class Trace extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<String> strategy = varchar("strategy", "two_phase, shared, subbuffer");
        public final Column<Boolean> reduced = bool("reduced", "reduced tracepoints");
        public final Column<Long> producers = bigint("producers", "work-items");
        public final Column<Long> records = bigint("records", "records collected");
        public final Column<Long> bytes = bigint("bytes", "device bytes used");
        public final Column<Long> lost = bigint("lost", "records lost");
        public final Column<Boolean> valid = bool("valid", "whether the two-phase check passed");
        public final Column<Integer> staticSites = integer("static_sites", "tracepoint sites");
        public final Column<Long> unrebuiltPaths = bigint("unrebuilt_paths", "work-item paths not rebuilt");
        public final Column<Long> recordPassNs = bigint("record_pass_ns", "recording pass (ns)");
        public final Column<Long> countPassNs = bigint("count_pass_ns", "counting pass (ns)");
        public final Column<Long> hostNs = bigint("host_ns", "host-side work (ns)");

        Trace() {
            super("kernel_trace", "one row per traced launch");
        }
    }

    public static final class Block extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<Integer> blockId = integer("block_id", "CFG block number");
        public final Column<String> file = varchar("file", "source file");
        public final Column<Integer> firstLine = integer("first_line", "first source line");
        public final Column<Integer> lastLine = integer("last_line", "last source line");
        public final Column<String> successors = varchar("successors", "e.g. B3:true,B4:false, exit:jump");
        public final Column<String> tracepoint = varchar("tracepoint", "block, edges, none");
        public final Column<Long> executions = bigint("executions", "executions over all work-items");
        public final Column<Long> workItems = bigint("work_items", "work-items that ran it at least once");
        public final Column<Long> divergentGroups = bigint("divergent_groups", "work-groups running it unequally");

        Block() {
            super("kernel_block", "the CFG blocks of a traced kernel");
        }
    }

    public static final class WorkItemPath extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<Long> workItem = bigint("work_item", "linear global id");
        public final Column<Long> workGroup = bigint("work_group", "its work-group");
        public final Column<Integer> blocks = integer("blocks", "length of its rebuilt block path");
        public final Column<Integer> records = integer("records", "records it emitted");
        public final Column<Integer> pathClass = integer("path_class", "shared by identical paths; NULL if unrebuilt");

        WorkItemPath() {
            super("kernel_work_item_path", "per work-item block path of a traced launch");
        }
    }

    public static final class WorkGroup extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the launch's slice");
        public final Column<Long> workGroup = bigint("work_group", "the work-group");
        public final Column<Integer> workItems = integer("work_items", "its work-items");
        public final Column<Integer> distinctPaths = integer("distinct_paths", "distinct paths");
        public final Column<Integer> divergentBlocks = integer("divergent_blocks", "blocks run unequally");
        public final Column<Integer> minBlocks = integer("min_blocks", "shortest path");
        public final Column<Integer> maxBlocks = integer("max_blocks", "longest path");

        WorkGroup() {
            super("kernel_work_group", "divergence inside each work-group of a traced launch");
        }
    }

    public static final CounterSite COUNTER_SITE = new CounterSite();
    public static final SourceLine SOURCE_LINE = new SourceLine();
    public static final Trace TRACE = new Trace();
    public static final Block BLOCK = new Block();
    public static final WorkItemPath WORK_ITEM_PATH = new WorkItemPath();
    public static final WorkGroup WORK_GROUP = new WorkGroup();

    public static final List<TableSpec> ALL = List.of(COUNTER_SITE, SOURCE_LINE, TRACE, BLOCK, WORK_ITEM_PATH,
            WORK_GROUP);
}
