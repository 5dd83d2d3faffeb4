package org.hetscope.cli.tasks;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.tasks.CriticalPath;
import org.hetscope.analysis.tasks.TaskGraph;
import org.hetscope.analysis.tasks.WorkerIdle;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.cli.memory.StoreInput;
import org.hetscope.store.Store;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code hetscope tasks FILE critical-path}: the task graph of a task runtime. */
@Command(name = "tasks", description = "Task-graph analyses of task runtimes.",
        subcommands = {TasksCommand.Critical.class})
public final class TasksCommand implements Runnable {
    @Parameters(index = "0", paramLabel = "FILE", description = "Store file, or a Paje trace / StarPU folder.")
    Path file;

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** Critical path, its length against the makespan, idle per worker. */
    @Command(name = "critical-path", description = "Critical path of the DAG with task durations, its length "
            + "against the makespan, and the idle percentage of each worker.")
    static final class Critical implements Callable<Integer> {
        @ParentCommand TasksCommand parent;
        @Mixin OutputOptions output;

        @Override
        public Integer call() throws Exception {
            try (Store s = StoreInput.open(parent.file)) {
                if (s.scalarLong("SELECT count(*) FROM task") == 0) {
                    System.err.println("hetscope: " + parent.file + " has no tasks (no task-runtime data); hetscope"
                            + " tasks reads StarPU/Paje traces");
                    return 1;
                }
                TaskGraph g = TaskGraph.load(s);
                TablePrinter.print(System.out, output.style(), List.of(CriticalPath.summary(g),
                        CriticalPath.table(g), WorkerIdle.of(s)), org.hetscope.cli.TraceTime.traceBounds(s)[0]);
            }
            return 0;
        }
    }
}
