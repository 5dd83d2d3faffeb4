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
import org.hetscope.analysis.tasks.WorkerIdle;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.cli.TimeWindow;
import org.hetscope.cli.TraceTime;
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
 * task runtime lived and what the memory managers did. FILE is a store or a Paje/StarPU trace. Times and durations
 * on the command line follow {@link TraceTime}: from the trace start, a unit (s, ms, us, ns) or ns when bare.
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
        @Option(names = "--bin", paramLabel = "LENGTH", defaultValue = "20ms", converter = TraceTime.LengthConverter.class,
                description = "Bin width: 20ms, 500us, 1s (a bare number is ns; default ${DEFAULT-VALUE}).")
        long bin;
        @Option(names = "--block", description = "Only this block (handle or coordinates).") String block;
        @Option(names = "--intervals", description = "Print the intervals instead of bins.") boolean intervals;
        @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the bins as SVG.") Path svg;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                Long id = block == null ? null : find(m, block).id();
                Table bins = ResidencyAnalysis.bins(m, bin, id);
                TablePrinter.print(System.out, output.style(), intervals ? ResidencyAnalysis.intervals(m, id) : bins,
                        TraceTime.traceBounds(s)[0]);
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
                TablePrinter.print(System.out, output.style(), out, TraceTime.traceBounds(s)[0]);
            }
            return 0;
        }
    }

    /** State of all blocks at one instant, or a series. */
    @Command(name = "snapshot", description = "Blocks on every node and running tasks at time T.")
    static final class SnapshotCmd implements Callable<Integer> {
        @ParentCommand MemoryCommand parent;
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "T", converter = TraceTime.Converter.class, description = "Time from "
                + "the trace start: 83ms, 1.2s, 500us (a bare number is ns); @T on the trace's own clock.")
        TraceTime time;
        @Option(names = "--until", paramLabel = "TIME", converter = TraceTime.Converter.class,
                description = "Series of snapshots from T until this time (as T).") TraceTime until;
        @Option(names = "--step", defaultValue = "1ms", converter = TraceTime.LengthConverter.class,
                description = "Series step (default ${DEFAULT-VALUE}).")
        long step;
        @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the snapshot at T as SVG.") Path svg;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                long[] bounds = TraceTime.traceBounds(s);
                long t = time.resolve(bounds[0]);
                if (until != null) {
                    long u = until.resolve(bounds[0]);
                    if (u < t) {
                        throw new CommandLine.ParameterException(spec.commandLine(),
                                "--until (" + until + ") is before T (" + time + ")");
                    }
                    TraceTime.warnOutside(t, u, bounds);
                    TablePrinter.print(System.out, output.style(), Snapshot.series(m, t, u, step), bounds[0]);
                } else {
                    TraceTime.warnOutside(t, bounds);
                    TablePrinter.print(System.out, output.style(), Snapshot.at(m, t), bounds[0]);
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
        @Mixin TimeWindow window;
        @Option(names = "--actions", description = "Also list every action with its sub-lane.") boolean actions;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = parent.open()) {
                MemoryTrace m = MemoryTrace.load(s);
                long[] bounds = TraceTime.traceBounds(s);
                long[] w = window.resolve(bounds, m.traceStart, m.traceEnd);
                long a = w[0];
                long b = w[1];
                List<Table> out = new ArrayList<>();
                out.add(ManagerGantt.shares(m, a, b));
                if (actions) {
                    out.add(ManagerGantt.actions(m));
                }
                TablePrinter.print(System.out, output.style(), out, bounds[0]);
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
        @Option(names = "--stale", converter = TraceTime.DurationConverter.class, description = "Stale residency: "
                + "idle time after the last use that makes a replica a candidate (10ms, 500us; a bare number is "
                + "ns; default 10ms).") Long stale;
        @Option(names = "--pressure", description = "Stale residency: fraction of the node's run maximum of used "
                + "memory that counts as 'at its maximum' (default 0.95).") Double pressure;
        @Option(names = "--stale-all", description = "Stale residency: list every candidate, whether or not its "
                + "node was at its maximum.") boolean staleAll;
        @Option(names = "--request-gap", converter = TraceTime.DurationConverter.class,
                description = "Slow allocation threshold (default 1ms).") Long gap;
        @Option(names = "--late-input", converter = TraceTime.DurationConverter.class, description = "Late data: "
                + "last input at most this long before the start (default 30us).") Long lateInput;
        @Option(names = "--late-wait", converter = TraceTime.DurationConverter.class, description = "Late data: "
                + "wait after the last dependency at least this long (default 1ms).") Long lateWait;
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
                out.add(WorkerIdle.of(s));
                TablePrinter.print(System.out, output.style(), out, TraceTime.traceBounds(s)[0]);
            }
            return 0;
        }

        private static long orDefault(Long time, long ns) {
            return time == null ? ns : time;
        }
    }
}
