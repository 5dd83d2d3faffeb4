package org.hetscope.formats.opencl;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.CtfProblem;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * The {@code opencl} trace format: a CTF trace folder written by hetscope's OpenCL capture agent
 * ({@code env.tracer_name = "hetscope-opencl-agent"}), decoded with hetscope's CTF reader and mapped by
 * {@link OpenclMapper}. Other CTF traces are left to the generic {@code ctf} format.
 */
public final class OpenclTraceFormat implements TraceFormat {

    @Override
    public String name() {
        return "opencl";
    }

    /** Above the generic {@code ctf} format (0), which accepts the same folders. */
    @Override
    public int priority() {
        return 10;
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        return AgentTraceDetector.traceDir(input) != null;
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        Path dir = AgentTraceDetector.traceDir(input);
        if (dir == null) {
            throw new TraceFormatException(input, "metadata", "not a trace of the hetscope OpenCL agent "
                    + "(no env.tracer_name = \"" + AgentTraceDetector.TRACER_NAME + "\")");
        }
        try (CtfTrace trace = CtfTrace.open(dir); CtfTrace.Cursor cursor = trace.cursor()) {
            Map<String, String> env = trace.metadata().get(0).env;
            String command = env.getOrDefault("command", "");
            long pid = parse(env.get("pid"));
            sink.info("opencl.tracer", env.getOrDefault("tracer_name", "") + " " + env.getOrDefault("tracer_major", "")
                    + "." + env.getOrDefault("tracer_minor", ""));
            sink.info("opencl.command", command);
            sink.info("clock", "host System.nanoTime (CLOCK_MONOTONIC); device times aligned per device");
            OpenclMapper m = new OpenclMapper(sink, dir.toString(), pid, processName(command, pid));
            progress.start("OpenCL agent trace " + dir.getFileName(), trace.streamBytes());
            long n = 0;
            while (cursor.next()) {
                CtfEvent e = cursor.event();
                try {
                    m.map(e);
                } catch (IllegalArgumentException missingField) {
                    // the event class lacks a field the agent writes: the metadata was damaged (or edited)
                    sink.skipped(SkipReason.DAMAGED_RECORD, "event " + e.name() + " not as the agent writes it",
                            dir.resolve("metadata") + ": " + missingField.getMessage(), 1);
                }
                if ((++n & 0x3FFF) == 0) {
                    progress.advance(n * 48);
                }
            }
            m.finish();
            for (CtfProblem p : trace.problems()) {
                sink.skipped(SkipReason.DAMAGED_PACKET, p.reason(), p.where(), 1);
            }
        }
    }

    private static long parse(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String processName(String command, long pid) {
        String[] parts = command.trim().split("\\s+");
        String last = parts.length == 0 || parts[parts.length - 1].isEmpty() ? "java" : parts[parts.length - 1];
        for (String p : parts) {
            if (p.matches("[a-zA-Z_$][\\w$]*(\\.[a-zA-Z_$][\\w$]*)+") && !p.startsWith("-")) {
                last = p;
            }
        }
        return last + " (pid " + pid + ")";
    }
}
