package org.hetscope.cli.memory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.memory.BlockHistory;
import org.hetscope.analysis.memory.Detectors;
import org.hetscope.analysis.memory.Heatmap;
import org.hetscope.analysis.memory.ManagerGantt;
import org.hetscope.analysis.memory.MemoryTrace;
import org.hetscope.analysis.memory.Pictures;
import org.hetscope.analysis.memory.ResidencyAnalysis;
import org.hetscope.analysis.memory.Snapshot;
import org.hetscope.analysis.memory.TaskWait;
import org.hetscope.analysis.tasks.TaskGraph;
import org.hetscope.analysis.tasks.WorkerIdle;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hetscope memory FILE residency|history BLOCK|snapshot T|heatmap|gantt|detect}: where the data blocks of a
 * task runtime lived and what the memory managers did. FILE is a store or a Paje/StarPU trace. Times are
 * nanoseconds in the tables; T and window bounds are read as milliseconds unless given a unit (ns, us, ms, s).
 */
@Command(name = "memory", description = "Data residency and memory-manager analyses of task runtimes (StarPU).",
        subcommands = {MemoryCommand.Residency.class, MemoryCommand.History.class, MemoryCommand.SnapshotCmd.class,
            MemoryCommand.HeatmapCmd.class, MemoryCommand.Gantt.class, MemoryCommand.Detect.class})
public final class MemoryCommand implements Runnable {
    @Parameters(index = "0", paramLabel = "FILE", description = "Store file, or a Paje trace / StarPU folder.")
    Path file;

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /**
     * The store of FILE, when it holds what these analyses read (memory blocks or residencies: a StarPU trace, an
     * OpenCL capture); otherwise an error that says so, rather than empty tables and exit code 0.
     */
    Store open() throws Exception {
        Store s = StoreInput.open(file);
        if (s.scalarLong("SELECT (SELECT count(*) FROM memory_block) + (SELECT count(*) FROM residency)") == 0) {
            s.close();
            throw new IllegalStateException(file + " has no task-runtime memory data (no memory blocks, no"
                    + " residencies); hetscope memory reads StarPU/Paje traces and OpenCL captures");
        }
        return s;
    }

    static void write(Path svg, String text) throws java.io.IOException {
        Files.writeString(svg, text, StandardCharsets.UTF_8);
        System.err.println("hetscope: wrote " + svg);
    }

    /** Residency intervals or their aggregation in bins. */
    @Command(name = "residency", description = "Residency of blocks per memory node in time bins (percent).")
    static final class Residency implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @Option(names = "--bin", defaultValue = "20", description = "Bin width (ms unless a unit is given; "
                + "default ${DEFAULT-VALUE} ms).") String bin;
        @Option(names = "--block", description = "Only this block (handle or coordinates).") String block;
        @Option(names = "--intervals", description = "Print the intervals instead of bins.") boolean intervals;
        @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the bins as SVG.") Path svg;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                Long id = block == null ? null : find(m, block).id();
                Table bins = ResidencyAnalysis.bins(m, StoreInput.time(bin), id);
                TablePrinter.print(System.out, output.style(), intervals ? ResidencyAnalysis.intervals(m, id) : bins);
                if (svg != null) {
                    write(svg, Pictures.residency(bins));
                }
            }
            return 0;
        }
    }

    static MemoryTrace.Block find(MemoryTrace m, String text) {
        MemoryTrace.Block b = m.findBlock(text);
        if (b == null) {
            throw new IllegalArgumentException("no block '" + text + "' (give a handle or coordinates like '2 1')");
        }
        return b;
    }

    /** Everything about one block. */
    @Command(name = "history", description = "History of one block: residency, tasks, requests, actions, "
            + "transfers; with --task JOB, why that task waited.")
    static final class History implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @Parameters(index = "0", paramLabel = "BLOCK", description = "Handle or coordinates (\"2 1\").") String block;
        @Option(names = "--task", paramLabel = "JOB", description = "JobId of a task to explain.") Long task;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                List<Table> out = new ArrayList<>(BlockHistory.of(m, find(m, block)));
                if (task != null) {
                    out.add(TaskWait.table(m, task));
                }
                TablePrinter.print(System.out, output.style(), out);
            }
            return 0;
        }
    }

    /** State of all blocks at one instant, or a series. */
    @Command(name = "snapshot", description = "Blocks on every node and running tasks at time T (ms).")
    static final class SnapshotCmd implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @Parameters(index = "0", paramLabel = "T", description = "Time (ms unless a unit is given).") String time;
        @Option(names = "--until", description = "Series of snapshots from T until this time.") String until;
        @Option(names = "--step", defaultValue = "1", description = "Series step (default ${DEFAULT-VALUE} ms).")
        String step;
        @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the snapshot at T as SVG.") Path svg;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                long t = StoreInput.time(time);
                if (until != null) {
                    TablePrinter.print(System.out, output.style(),
                            Snapshot.series(m, t, StoreInput.time(until), StoreInput.time(step)));
                } else {
                    TablePrinter.print(System.out, output.style(), Snapshot.at(m, t));
                }
                if (svg != null) {
                    write(svg, Pictures.snapshot(Snapshot.blocks(m, t), Snapshot.tasks(m, t)));
                }
            }
            return 0;
        }
    }

    /** Presence heatmap. */
    @Command(name = "heatmap", description = "Total presence of each block on each node, normalised.")
    static final class HeatmapCmd implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @Option(names = "--norm", defaultValue = "lifetime", description = "absolute (ms), lifetime (default: "
                + "presence / block lifetime), run (within first task start..last task end), facet-max.")
        String norm;
        @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the heatmap as SVG.") Path svg;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                Table t = Heatmap.of(MemoryTrace.load(s), Heatmap.Normalisation.parse(norm));
                TablePrinter.print(System.out, output.style(), t);
                if (svg != null) {
                    write(svg, Pictures.heatmap(t));
                }
            }
            return 0;
        }
    }

    /** Memory-manager actions and dominant shares. */
    @Command(name = "gantt", description = "Memory-manager actions and each action's share of a window.")
    static final class Gantt implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @Option(names = "--from", description = "Window start (ms unless a unit is given).") String from;
        @Option(names = "--to", description = "Window end.") String to;
        @Option(names = "--actions", description = "Also list every action with its sub-lane.") boolean actions;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                long a = from == null ? m.traceStart : StoreInput.time(from);
                long b = to == null ? m.traceEnd : StoreInput.time(to);
                List<Table> out = new ArrayList<>();
                out.add(ManagerGantt.shares(m, a, b));
                if (actions) {
                    out.add(ManagerGantt.actions(m));
                }
                TablePrinter.print(System.out, output.style(), out);
            }
            return 0;
        }
    }

    /** All detectors. */
    @Command(name = "detect", description = "Detectors: allocation retries, page rounding, stale residency, "
            + "request-to-allocation gaps, late data, fetch vs prefetch, ping-pong, idle per worker.")
    static final class Detect implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        // Unset time options fall back to Detectors.Options.defaults(), where each default is justified; the
        // descriptions repeat them for --help.
        @Option(names = "--stale", description = "Stale residency: idle time after the last use that makes a "
                + "replica a candidate (ms unless suffixed ns/us/s; default 10).") String stale;
        @Option(names = "--pressure", description = "Stale residency: fraction of the node's run maximum of used "
                + "memory that counts as 'at its maximum' (default 0.95).") Double pressure;
        @Option(names = "--stale-all", description = "Stale residency: list every candidate, whether or not its "
                + "node was at its maximum.") boolean staleAll;
        @Option(names = "--request-gap", description = "Slow allocation threshold (ms, default 1).") String gap;
        @Option(names = "--late-input", description = "Late data: last input at most this long before the start "
                + "(ms, default 0.03).") String lateInput;
        @Option(names = "--late-wait", description = "Late data: wait after the last dependency at least this "
                + "long (ms, default 1).") String lateWait;
        @Option(names = "--page", defaultValue = "2097152", description = "Allocator page size in bytes "
                + "(default ${DEFAULT-VALUE}).") long page;
        @Option(names = "--ping-pong", defaultValue = "3", description = "Minimum alternating run "
                + "(default ${DEFAULT-VALUE}).") int run;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                Detectors.Options d = Detectors.Options.defaults();
                Detectors.Options o = new Detectors.Options(orDefault(stale, d.staleNs()),
                        orDefault(gap, d.requestGapNs()), orDefault(lateInput, d.lateInputNs()),
                        orDefault(lateWait, d.lateWaitNs()), page, run,
                        pressure == null ? d.pressureFraction() : pressure, !staleAll);
                List<Table> out = new ArrayList<>(Detectors.all(m, o));
                out.add(WorkerIdle.of(TaskGraph.load(s)));
                TablePrinter.print(System.out, output.style(), out);
            }
            return 0;
        }

        private static long orDefault(String time, long ns) {
            return time == null ? ns : StoreInput.time(time);
        }
    }
}
