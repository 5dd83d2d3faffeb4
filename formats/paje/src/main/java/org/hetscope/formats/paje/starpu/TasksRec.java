package org.hetscope.formats.paje.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hetscope.model.SkipReason;
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
            String job = r.get("JobId");
            if (job == null) {
                problems.add(SkipReason.DAMAGED_RECORD, "tasks.rec record without JobId", file, r.line(), null);
                return;
            }
            TaskRecord task;
            String field = null;
            try {
                List<String> handles = words(r.get("Handles")).stream().map(one).toList();
                List<String> modes = words(r.get("Modes")).stream().map(one).toList();
                List<Long> sizes = r.longs("Sizes");
                if (modes.size() != handles.size()) {
                    problems.add(SkipReason.INCONSISTENT_STATE, "tasks.rec Handles and Modes differ in length", file,
                            r.line(), "JobId " + job);
                }
                long jobId = r.longValue("JobId");
                Long submitOrder = r.longValue("SubmitOrder");
                Integer priority = r.intValue("Priority");
                List<Long> dependsOn = r.longs("DependsOn");
                Integer worker = r.intValue("WorkerId");
                Integer node = r.intValue("MemoryNode");
                field = "SubmitTime";
                Long submit = ms(r.get(field));
                field = "StartTime";
                Long start = ms(r.get(field));
                field = "EndTime";
                Long end = ms(r.get(field));
                task = new TaskRecord(one.apply(r.get("Name")), one.apply(r.get("Model")), jobId, submitOrder,
                        priority, dependsOn, words(r.get("DepLabels")), worker, node, submit, start, end, handles,
                        modes, sizes, one.apply(r.get("Footprint")), one.apply(r.get("Parameters")), r.line());
            } catch (RecFile.BadField e) {
                problems.add(SkipReason.DAMAGED_RECORD, BAD_NUMBER, file, r.lineOf(e.field), e.getMessage());
                return;
            } catch (Nanos.BadNumber e) {
                problems.add(SkipReason.DAMAGED_RECORD, BAD_NUMBER, file, r.lineOf(field),
                        "field " + field + ": " + e.getMessage());
                return;
            }
            out.accept(task);
        });
    }

    /** The detail a record with a field that is not the number it must be counts with; the record is skipped. */
    static final String BAD_NUMBER = "tasks.rec record with a bad number";

    /** Distinct texts shared at most (a trace whose parameters differ from task to task stops sharing). */
    private static final int SHARED_MAX = 1 << 16;

    static List<String> words(String s) {
        return s == null || s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }

    static Long ms(String s) {
        return s == null ? null : Nanos.fromDecimal(s.trim().toCharArray(), 0, s.trim().length(), 6);
    }
}
