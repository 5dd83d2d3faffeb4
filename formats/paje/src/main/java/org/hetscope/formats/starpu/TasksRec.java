package org.hetscope.formats.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hetscope.model.Nanos;

/** Reads StarPU's tasks.rec into {@link TaskRecord}s; times are milliseconds turned exactly into nanoseconds. */
public final class TasksRec {
    private TasksRec() {}

    public static List<TaskRecord> read(Path file, StarpuProblems problems) throws IOException {
        List<TaskRecord> out = new ArrayList<>();
        read(file, problems, out::add);
        return out;
    }

    /**
     * Hands each task to {@code out} in file order, without keeping them: a tasks.rec has one record per task.
     * Problems go to {@code problems} (a throw-away one when the file is read again).
     */
    public static void read(Path file, StarpuProblems problems, Consumer<TaskRecord> out) throws IOException {
        // names, models, footprints, parameters, handles and modes repeat from task to task: one String each
        Map<String, String> shared = new HashMap<>();
        java.util.function.UnaryOperator<String> one = v -> v == null || shared.size() >= SHARED_MAX ? v
                : shared.computeIfAbsent(v, k -> k);
        RecFile.read(file, problems, r -> {
            try {
                String job = r.get("JobId");
                if (job == null) {
                    problems.add("tasks.rec record without JobId", file, r.line(), null);
                    return;
                }
                List<String> handles = words(r.get("Handles")).stream().map(one).toList();
                List<String> modes = words(r.get("Modes")).stream().map(one).toList();
                List<Long> sizes = words(r.get("Sizes")).stream().map(Long::parseLong).toList();
                if (modes.size() != handles.size()) {
                    problems.add("tasks.rec Handles and Modes differ in length", file, r.line(), "JobId " + job);
                }
                out.accept(new TaskRecord(one.apply(r.get("Name")), one.apply(r.get("Model")), Long.parseLong(job),
                        longOrNull(r.get("SubmitOrder")), intOrNull(r.get("Priority")),
                        words(r.get("DependsOn")).stream().map(Long::parseLong).toList(),
                        words(r.get("DepLabels")), intOrNull(r.get("WorkerId")), intOrNull(r.get("MemoryNode")),
                        ms(r.get("SubmitTime")), ms(r.get("StartTime")), ms(r.get("EndTime")), handles, modes, sizes,
                        one.apply(r.get("Footprint")), one.apply(r.get("Parameters")), r.line()));
            } catch (IllegalArgumentException e) {
                problems.add("tasks.rec record with a bad number", file, r.line(), e.getMessage());
            }
        });
    }

    /** Distinct texts shared at most (a trace whose parameters differ from task to task stops sharing). */
    private static final int SHARED_MAX = 1 << 16;

    static List<String> words(String s) {
        return s == null || s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }

    private static Long longOrNull(String s) {
        return s == null ? null : Long.parseLong(s.trim());
    }

    private static Integer intOrNull(String s) {
        return s == null ? null : Integer.parseInt(s.trim());
    }

    static Long ms(String s) {
        return s == null ? null : Nanos.fromDecimal(s.trim().toCharArray(), 0, s.trim().length(), 6);
    }
}
