package org.hetscope.cli.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.instrument.CounterInstrumenter;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.instrument.KernelScope;
import org.hetscope.capture.kernels.instrument.TraceCollector;
import org.hetscope.capture.kernels.instrument.TraceInstrumenter;
import org.hetscope.capture.kernels.instrument.Tracepoints;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.Parser;
import org.hetscope.capture.kernels.lang.Preprocessor;
import org.hetscope.capture.kernels.run.ArgumentSpecs;
import org.hetscope.capture.kernels.run.CounterReport;
import org.hetscope.capture.kernels.run.CounterResult;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.KernelStoreExport;
import org.hetscope.capture.kernels.run.NdRange;
import org.hetscope.capture.kernels.run.OpenClSession;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.hetscope.capture.kernels.trace.PathStatistics;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope kernel instrument|count|trace}: OpenCL C kernels instrumented from source. */
@Command(name = "kernel", description = "Instrument OpenCL C kernels: counters and in-kernel path traces.",
        subcommands = {KernelCommand.Instrument.class, KernelCommand.Count.class, KernelCommand.Trace.class})
public final class KernelCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    static Ast.TranslationUnit parse(Path file, List<Path> includes, List<String> defines) throws IOException {
        Preprocessor pp = new Preprocessor(includes, java.util.Map.of());
        for (String d : defines) {
            int eq = d.indexOf('=');
            pp.define(eq < 0 ? d : d.substring(0, eq), eq < 0 ? "1" : d.substring(eq + 1));
        }
        return Parser.parse(pp.run(file.toString(), Files.readString(file)));
    }

    /** Options shared by the subcommands. */
    static class Source {
        @Parameters(index = "0", paramLabel = "FILE.cl")
        Path file;

        @Parameters(index = "1", paramLabel = "KERNEL")
        String kernel;

        @Option(names = "-I", paramLabel = "DIR", description = "Include directory.")
        List<Path> includes = new ArrayList<>();

        @Option(names = "-D", paramLabel = "NAME[=VALUE]", description = "Macro definition.")
        List<String> defines = new ArrayList<>();

        /** The preprocessed and parsed source file. */
        Ast.TranslationUnit unit() throws IOException {
            return parse(file, includes, defines);
        }

        /** The kernel's function; a missing one is reported as {@link KernelScope} reports it (naming the kernels). */
        Ast.FunctionDef function(Ast.TranslationUnit unit) {
            Ast.FunctionDef k = unit.function(kernel);
            if (k == null) {
                KernelScope.of(unit, kernel); // throws
            }
            return k;
        }
    }

    /** Launch options of count and trace. */
    static class Launch {
        @Option(names = "--global", required = true, paramLabel = "N[,N,N]", description = "Global work size.")
        String global;

        @Option(names = "--local", paramLabel = "N[,N,N]", description = "Work-group size.")
        String local;

        @Option(names = "--arg", paramLabel = "SPEC", description = "Kernel argument in order: a number for scalars;"
                + " file:PATH, zeros:N, iota:N, fill:N:V, random:N[:SEED] for buffers; local:N for __local.")
        List<String> args = new ArrayList<>();

        @Option(names = "--save", paramLabel = "INDEX=FILE", description = "Write buffer argument INDEX after the run.")
        List<String> save = new ArrayList<>();

        @Option(names = {"-o", "--output"}, paramLabel = "STORE", description = "Also write the results to a store.")
        Path store;

        NdRange range() {
            return new NdRange(ArgumentSpecs.sizes(global), local == null ? null : ArgumentSpecs.sizes(local));
        }

        void saveBuffers(List<KernelArgument> a) throws IOException {
            for (String s : save) {
                int eq = s.indexOf('=');
                int index = Integer.parseInt(s.substring(0, eq));
                if (!(a.get(index) instanceof KernelArgument.Host h)) {
                    throw new IllegalArgumentException("argument " + index + " is not a buffer");
                }
                Files.write(Path.of(s.substring(eq + 1)), h.bytes());
            }
        }
    }

    @Command(name = "instrument", description = "Print the instrumented source of a kernel.")
    static final class Instrument implements Callable<Integer> {
        @Mixin
        Source source;

        @Option(names = "--mode", defaultValue = "counters", description = "counters, trace-count, trace-record,"
                + " trace-shared or trace-subbuffer (default ${DEFAULT-VALUE}).")
        String mode;

        @Option(names = "--naive", description = "Trace modes: one tracepoint per block instead of the reduced set.")
        boolean naive;

        @Option(names = "--slab", description = "Counters: per-work-item slab instead of 64-bit atomics.")
        boolean slab;

        @Override
        public Integer call() throws Exception {
            KernelScope scope = KernelScope.of(source.unit(), source.kernel);
            if (mode.equals("counters")) {
                CounterPlan p = CounterInstrumenter.instrument(scope, slab ? CounterPlan.Mode.SLAB
                        : CounterPlan.Mode.ATOMIC);
                System.out.print(p.source());
                return 0;
            }
            TraceCollector c = TraceCollector.valueOf(mode.replace("trace-", "").toUpperCase());
            Tracepoints pts = naive ? Tracepoints.naive(scope.cfg()) : Tracepoints.reduced(scope.cfg());
            System.out.print(TraceInstrumenter.instrument(scope, pts, c, 64).source());
            return 0;
        }
    }

    @Command(name = "count", description = "Run a kernel with counters and print its source annotated with them.")
    static final class Count implements Callable<Integer> {
        @Mixin
        Source source;

        @Mixin
        Launch launch;

        @Option(names = "--per-item", description = "Also the minimum and maximum of each counter over work-items.")
        boolean perItem;

        @Option(names = "--table", description = "Print the counters as a table instead of the annotated source.")
        boolean table;

        /** --json prints the counters per source line and construct as one JSON document. */
        @Mixin
        OutputOptions output;

        @Override
        public Integer call() throws Exception {
            Ast.TranslationUnit unit = source.unit();
            Ast.FunctionDef k = source.function(unit);
            List<KernelArgument> args = ArgumentSpecs.parse(k, launch.args);
            try (OpenClSession session = OpenClSession.open()) {
                KernelRunner runner = new KernelRunner(session, unit, Files.readString(source.file), source.kernel);
                CounterResult r = runner.count(args, launch.range(), perItem ? CounterPlan.Mode.SLAB
                        : CounterPlan.Mode.ATOMIC);
                if (r.warning() != null) {
                    System.err.println("hetscope: warning: " + r.warning());
                }
                launch.saveBuffers(args);
                String text = Files.readString(source.file);
                if (output.style() == TablePrinter.Style.JSON) {
                    System.out.println(CounterReport.json(r, source.kernel));
                } else if (table || output.style() != TablePrinter.Style.TEXT) {
                    Table.Builder t = Table.builder("counters of " + source.kernel, "index", "counter", "construct",
                            "line", "column", "value", "min", "max");
                    for (CounterReport.Row row : CounterReport.rows(r)) {
                        t.row((long) row.index(), row.label(), row.construct(), (long) row.line(), (long) row.column(),
                                row.value(), row.min(), row.max());
                    }
                    TablePrinter.print(System.out, output.style(), t.build());
                } else {
                    System.out.print(CounterReport.annotate(source.file.toString(), text, r));
                }
                if (launch.store != null) {
                    try (StoreWriter w = StoreWriter.create(launch.store)) {
                        new KernelStoreExport(w, session).counters(source.kernel, source.file.toString(), text, r);
                        w.commit();
                    }
                }
            }
            return 0;
        }
    }

    @Command(name = "trace", description = "Trace the block path of every work-item of a kernel launch.")
    static final class Trace implements Callable<Integer> {
        @Mixin
        Source source;

        @Mixin
        Launch launch;

        @Option(names = "--strategy", defaultValue = "two-phase", description = "two-phase, shared or subbuffer"
                + " (default ${DEFAULT-VALUE}).")
        String strategy;

        @Option(names = "--naive", description = "One tracepoint per block instead of the reduced set.")
        boolean naive;

        @Option(names = "--trip-counts", description = "Reduced tracepoints, and one trip count per run of a loop"
                + " without tracepoints in its body instead of one record per iteration.")
        boolean tripCounts;

        @Option(names = "--capacity", description = "Shared buffer capacity in records (default: what a counting"
                + " pass finds the launch writes).")
        long capacity;

        @Option(names = "--chunk", defaultValue = "64", description = "Sub-buffer chunk size in records.")
        int chunk;

        @Option(names = "--chunks", description = "Sub-buffer pool size in chunks (default: what a counting pass"
                + " finds the launch needs).")
        long chunks;

        @Option(names = "--top", defaultValue = "10", description = "Rows of the hot-block and work-group tables.")
        int top;

        @Mixin
        OutputOptions output;

        @Override
        public Integer call() throws Exception {
            Ast.TranslationUnit unit = source.unit();
            Ast.FunctionDef k = source.function(unit);
            List<KernelArgument> args = ArgumentSpecs.parse(k, launch.args);
            if (chunk < 1) {
                throw new IllegalArgumentException("--chunk must be at least 1 record");
            }
            TraceOptions.Strategy s = TraceOptions.Strategy.valueOf(strategy.replace('-', '_').toUpperCase());
            TraceOptions opt = TraceOptions.of(s, !naive).withCapacity(capacity).withChunks(chunk, chunks);
            if (tripCounts) {
                opt = opt.withTripCounts();
            }
            try (OpenClSession session = OpenClSession.open()) {
                KernelRunner runner = new KernelRunner(session, unit, Files.readString(source.file), source.kernel);
                NdRange range = launch.range();
                if (runner.unsupported() != null) {
                    System.err.println("hetscope: warning: kernel " + source.kernel + " runs uninstrumented: "
                            + runner.unsupported().getMessage());
                    long ns = runner.runPlain(args, range).duration();
                    launch.saveBuffers(args);
                    System.err.println("hetscope: uninstrumented run took " + ns + " ns on the device; no trace");
                    return 0;
                }
                opt = sized(runner, args, range, opt);
                TraceResult r = runner.trace(args, range, opt);
                launch.saveBuffers(args);
                List<Table> tables = tables(runner, r, range);
                TablePrinter.print(System.out, output.style(), tables);
                if (!r.valid()) {
                    System.err.println("hetscope: warning: trace incomplete: lost " + r.lost() + " of "
                            + (r.totalRecords() + r.lost()) + " records, " + r.nondeterministic().size()
                            + " work-items differed between passes" + (r.lost() == 0 ? ""
                            : s == TraceOptions.Strategy.SHARED ? "; --capacity " + (r.totalRecords() + r.lost())
                                    + " (or no --capacity: sized by a counting pass) keeps them all"
                            : "; more --chunks (or none: sized by a counting pass) keeps them all"));
                }
                if (launch.store != null) {
                    try (StoreWriter w = StoreWriter.create(launch.store)) {
                        new KernelStoreExport(w, session).trace(source.kernel, source.file.toString(), r);
                        w.commit();
                    }
                }
            }
            return 0;
        }

        /**
         * The single-pass strategies' buffers: sized by a counting pass (the first pass of two-phase tracing) when
         * no size was given, so that no record is lost; with a size given, say before the run what it holds.
         */
        private TraceOptions sized(KernelRunner runner, List<KernelArgument> args, NdRange range, TraceOptions opt) {
            long producers = range.workItems();
            switch (opt.strategy()) {
                case SHARED -> {
                    if (capacity <= 0) {
                        long total = Arrays.stream(runner.recordCounts(args, range, opt.reduced(), opt.tripCounts()))
                                .sum();
                        System.err.println("hetscope: shared buffer sized by a counting pass: " + total + " records");
                        return opt.withCapacity(Math.max(1, total));
                    }
                    System.err.println("hetscope: the shared buffer holds " + opt.sharedCapacity(producers)
                            + " records (" + (opt.sharedCapacity(producers) * 12) + " bytes); records past it are"
                            + " lost and counted");
                }
                case SUBBUFFER -> {
                    if (chunks <= 0) {
                        long need = 0;
                        for (long n : runner.recordCounts(args, range, opt.reduced(), opt.tripCounts())) {
                            need += (n + chunk - 1) / chunk; // each work-item fills chunks of its own
                        }
                        System.err.println("hetscope: sub-buffer pool sized by a counting pass: " + need
                                + " chunks of " + chunk + " records");
                        return opt.withChunks(chunk, Math.max(1, need));
                    }
                    System.err.println("hetscope: the sub-buffer pool holds " + opt.chunks(producers) + " chunks of "
                            + chunk + " records (each work-item fills its own); records past it are lost and"
                            + " counted");
                }
                default -> {
                    // two-phase sizes its buffer from its own counting pass
                }
            }
            return opt;
        }

        private List<Table> tables(KernelRunner runner, TraceResult r, NdRange range) {
            long[] groupOf = new long[r.producers()];
            for (int p = 0; p < groupOf.length; p++) {
                groupOf[p] = range.groupOf(p);
            }
            PathStatistics st = PathStatistics.of(r.plan().points().cfg(), r.paths(), groupOf);
            Table summary = Table.builder("trace of " + source.kernel, "strategy", "tracepoints", "static_sites",
                    "work_items", "records", "bytes", "lost", "valid", "unrebuilt", "path_classes", "kernel_ns")
                    .row(strategy, naive ? "naive" : tripCounts ? "trip counts" : "reduced", (long) r.plan().points().sites(), (long) r.producers(),
                            r.totalRecords(), r.bytes(), r.lost(), r.valid(), (long) r.failures().size(),
                            (long) st.classes(), r.kernelNanos())
                    .build();
            KernelScope scope = runner.scope();
            List<BasicBlock> blocks = new ArrayList<>(r.plan().points().cfg().blocks());
            blocks.sort(Comparator.comparingLong((BasicBlock b) -> -st.executions()[b.id()]));
            Table.Builder hot = Table.builder("hot blocks", "block", "lines", "executions", "work_items",
                    "divergent_groups");
            for (BasicBlock b : blocks.subList(0, Math.min(top, blocks.size()))) {
                hot.row("B" + b.id(), scope.pos(b.firstToken()).line() + "-" + scope.pos(b.lastToken()).line(),
                        st.executions()[b.id()], st.workItems()[b.id()], st.divergentGroups()[b.id()]);
            }
            Table.Builder groups = Table.builder("most divergent work-groups", "work_group", "work_items",
                    "distinct_paths", "divergent_blocks", "min_blocks", "max_blocks");
            st.groups().stream().sorted(Comparator.comparingInt(g -> -g.distinctPaths())).limit(top)
                    .forEach(g -> groups.row(g.group(), (long) g.workItems(), (long) g.distinctPaths(),
                            (long) g.divergentBlocks(), (long) g.minLength(), (long) g.maxLength()));
            return List.of(summary, hot.build(), groups.build());
        }
    }

    static String dims(long[] a) {
        return Arrays.toString(a);
    }
}
