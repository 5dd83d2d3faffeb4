package org.hetscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hetscope} command: one subcommand per job. */
@Command(name = "hetscope", mixinStandardHelpOptions = true, version = "hetscope 0.1.0",
        scope = CommandLine.ScopeType.INHERIT, // -h/--help and -V/--version on every subcommand too
        description = "Read, store, analyse and show traces of heterogeneous programs.")
public final class Main implements Runnable {
    /**
     * The subcommands. A run that names one builds only that one's option model: picocli reflects over every
     * option of every command it is given, at every start.
     */
    static final Class<?>[] SUBCOMMANDS = {
            ImportCommand.class,
            org.hetscope.cli.kernel.KernelCommand.class,
            SqlCommand.class,
            ExportCommand.class,
            org.hetscope.cli.mining.MineCommand.class,
            InfoCommand.class,
            StatsCommand.class,
            GpuCommand.class,
            DiffCommand.class,
            org.hetscope.cli.web.ServeCommand.class,
            org.hetscope.cli.web.ReportCommand.class,
            org.hetscope.cli.web.PlotCommand.class,
            org.hetscope.cli.ctf.CtfCommand.class,
            org.hetscope.cli.memory.MemoryCommand.class,
            org.hetscope.cli.tasks.TasksCommand.class,
            org.hetscope.cli.capture.CaptureCommand.class,
            org.hetscope.cli.profiling.FlowsCommand.class,
            org.hetscope.cli.profiling.LanesCommand.class,
            org.hetscope.cli.profiling.CountersCommand.class,
            org.hetscope.cli.profiling.RooflineCommand.class,
            org.hetscope.cli.profiling.AdviseCommand.class,
            org.hetscope.cli.profiling.Otf2Command.class,
            org.hetscope.cli.sched.SchedCommand.class,
            CommandLine.HelpCommand.class,
    };

    @Override
    public void run() {
        commandLine(null).usage(System.out);
    }

    public static void main(String[] args) {
        int code = run(args);
        if (Boolean.getBoolean("hetscope.debug")) {
            // benchmarks read this line to check that the heap stays bounded as inputs grow
            long peak = 0;
            for (java.lang.management.MemoryPoolMXBean pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                    peak += Math.max(pool.getPeakUsage().getUsed(), pool.getUsage().getUsed());
                }
            }
            // With an AOT cache mapped, G1's pools may report nothing before the first collection: then the
            // heap in use now is the best figure there is
            Runtime rt = Runtime.getRuntime();
            peak = Math.max(peak, rt.totalMemory() - rt.freeMemory());
            System.err.printf("hetscope: peak heap %.1f MiB%n", peak / 1048576.0);
        }
        System.exit(code);
    }

    /** Runs the command line and returns its exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        // Every command that opens a store says so when the store holds only the start of its trace.
        org.hetscope.store.Store.setWarnings(w -> System.err.println("hetscope: warning: " + w));
        CommandLine cl = commandLine(args.length > 0 ? args[0] : null);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("hetscope: " + org.hetscope.store.Store.nameDamagedStore(ErrorText.of(ex)));
            if (Boolean.getBoolean("hetscope.debug")) {
                ex.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        TemporaryImport.reset();
        try {
            int code = cl.execute(args);
            // a trace read into a temporary store was damaged: the command worked on what was intact
            return code == 0 && TemporaryImport.damaged() ? 3 : code;
        } catch (OutOfMemoryError e) {
            // picocli hands Errors on; an import says more itself (ImportCommand), any other command gets this
            System.err.println("hetscope: out of memory; " + OutOfMemory.advice(null));
            return 1;
        }
    }

    /** The command line with the subcommand called {@code first}, or with all of them if none is. */
    static CommandLine commandLine(String first) {
        CommandLine cl = new CommandLine(new Main());
        Class<?> only = null;
        for (Class<?> c : SUBCOMMANDS) {
            Command command = c.getAnnotation(Command.class);
            if (first != null && c != CommandLine.HelpCommand.class && command != null
                    && (command.name().equals(first) || java.util.Arrays.asList(command.aliases()).contains(first))) {
                only = c;
            }
        }
        for (Class<?> c : SUBCOMMANDS) {
            if (only == null || c == only) {
                cl.addSubcommand(c);
            }
        }
        // '@' starts a time on the trace's own clock (TraceTime), not the name of a file of arguments; set after
        // the subcommands are added, as picocli passes it only to those it already has
        cl.setExpandAtFiles(false);
        return cl;
    }
}
