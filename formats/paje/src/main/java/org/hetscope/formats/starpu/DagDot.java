package org.hetscope.formats.starpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads StarPU's dag.dot: task nodes {@code "task_<JobId>"} with their labels, and the edges between them. */
public final class DagDot {
    /** The graph: JobId to label, and edges as {from, to} JobIds. */
    public record Graph(Map<Long, String> nodes, List<long[]> edges) {}

    private static final Pattern EDGE = Pattern.compile("\"task_(\\d+)\"\\s*->\\s*\"task_(\\d+)\"");
    private static final Pattern NODE = Pattern.compile("^\\s*\"task_(\\d+)\"\\s*\\[(.*)\\]");
    private static final Pattern LABEL = Pattern.compile("label=\"?([^\",\\]]*)\"?");

    private DagDot() {}

    public static Graph read(Path file, StarpuProblems problems) throws IOException {
        Map<Long, String> nodes = new LinkedHashMap<>();
        List<long[]> edges = new ArrayList<>();
        long no = 0;
        try (java.io.BufferedReader r = StarpuProblems.open(file)) {
            String line;
            while ((line = r.readLine()) != null) {
                no++;
                problems.checkText(file, no, line);
                try {
                    Matcher e = EDGE.matcher(line);
                    if (e.find()) {
                        edges.add(new long[] {Long.parseLong(e.group(1)), Long.parseLong(e.group(2))});
                        continue;
                    }
                    Matcher n = NODE.matcher(line);
                    if (n.find()) {
                        Matcher l = LABEL.matcher(n.group(2));
                        nodes.put(Long.parseLong(n.group(1)), l.find() ? l.group(1) : null);
                    } else if (line.contains("task_")) {
                        problems.add("dag.dot line not understood", file, no, line.trim());
                    }
                } catch (NumberFormatException tooLong) {
                    problems.add(org.hetscope.model.TraceSink.DAMAGE + "dag.dot task number out of range", file, no,
                            line.trim());
                }
            }
        }
        return new Graph(nodes, edges);
    }
}
