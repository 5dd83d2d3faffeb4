package org.hetscope.cli.sched;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.sched.Scheduling;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope sched STORE}: CPU busy time, thread states and the longest waits for a CPU of a kernel trace. */
@Command(name = "sched", description = "Scheduling of a kernel trace (sched_switch/wakeup): busy time per CPU; "
        + "running, runnable (waiting for a CPU) and blocked time per thread; the longest waits and who woke them; system calls.")
public final class SchedCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "20",
            description = "Processes and threads to list, most running first (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--waits", paramLabel = "N", defaultValue = "10",
            description = "Longest waits for a CPU to list (default: ${DEFAULT-VALUE}).")
    int waits;

    @Option(names = "--syscalls", paramLabel = "N", defaultValue = "15",
            description = "System calls to list, most total time first (default: ${DEFAULT-VALUE}).")
    int syscalls;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            Scheduling sched = new Scheduling(store);
            if (!sched.present()) {
                System.err.println("hetscope: " + file + " has no scheduler states (import a kernel trace with "
                        + "sched_switch events: LTTng kernel, or perf converted to CTF)");
                return 1;
            }
            TablePrinter.print(System.out, output.style(),
                    List.of(sched.cpus(), sched.processes(threads), sched.threads(threads), sched.latencies(waits),
                            sched.systemCalls(syscalls)), org.hetscope.cli.TraceTime.traceBounds(store)[0]);
        }
        return 0;
    }
}
