package org.hetscope.formats.paje.starpu;

import org.hetscope.model.SkipReason;

import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads StarPU's dag.dot: task nodes {@code "task_<JobId>"} with their labels, and the edges between them, handed
 * over as they are read (a DAG has about as many edges as tasks).
 */
public final class DagDot {
    /** Receives each edge, as JobIds. */
    public interface Edges {
        void edge(long fromJob, long toJob);
    }

    private static final Pattern EDGE = Pattern.compile("\"task_(\\d+)\"\\s*->\\s*\"task_(\\d+)\"");
    private static final Pattern NODE = Pattern.compile("^\\s*\"task_(\\d+)\"\\s*\\[(.*)\\]");

    private DagDot() {}

    /** Hands each edge to {@code edges} in file order; lines it cannot read go to {@code problems}. */
    public static void read(Path file, StarpuProblems problems, Edges edges) throws IOException {
        try (TextLines r = new TextLines(file, problems)) {
            String line;
            while ((line = r.next()) != null) {
                long no = r.number();
                try {
                    Matcher e = EDGE.matcher(line);
                    if (e.find()) {
                        edges.edge(Long.parseLong(e.group(1)), Long.parseLong(e.group(2)));
                        continue;
                    }
                    Matcher n = NODE.matcher(line);
                    if (n.find()) {
                        Long.parseLong(n.group(1)); // a node: its number must be one (labels are not used)
                    } else if (line.contains("task_")) {
                        problems.add(SkipReason.DAMAGED_RECORD, "dag.dot line not understood", file, no,
                                line.length() > 80 ? line.trim().substring(0, Math.min(80, line.trim().length()))
                                        + "..." : line.trim());
                    }
                } catch (NumberFormatException tooLong) {
                    problems.add(SkipReason.DAMAGED_RECORD, "dag.dot task number out of range", file, no,
                            line.trim());
                }
            }
        }
    }
}
