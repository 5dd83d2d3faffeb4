package org.hetscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hetscope} command: one subcommand per job. */
@Command(name = "hetscope", mixinStandardHelpOptions = true, version = "hetscope 0.1.0",
        description = "Read, store, analyse and show traces of heterogeneous programs.",
        subcommands = {
            ImportCommand.class,
            org.hetscope.cli.kernel.KernelCommand.class,
            SqlCommand.class,
            org.hetscope.cli.mining.MineCommand.class,
            InfoCommand.class,
            StatsCommand.class,
            GpuCommand.class,
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
            CommandLine.HelpCommand.class,
        })
public final class Main implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("hetscope: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            if (Boolean.getBoolean("hetscope.debug")) {
                ex.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        return cl.execute(args);
    }
}
