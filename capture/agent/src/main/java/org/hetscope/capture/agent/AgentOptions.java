package org.hetscope.capture.agent;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The agent's options, given as {@code -javaagent:hetscope-agent.jar=key=value,key=value}:
 * {@code out} (trace folder; default {@code hetscope-opencl-PID-TIME}), {@code chunk} (bytes per thread buffer,
 * default 256 KiB), {@code maxmb} (memory for unwritten events before new ones are counted as discarded, default
 * 256), {@code flushms} (how often partly filled buffers are written, default 100: about what a SIGKILL, which
 * runs no shutdown hook, loses), {@code verbose},
 * {@code device=off} (API calls only: no events are added to enqueues and no device times are read),
 * {@code cache} (folder for the instrumented JOCL class, default ~/.cache/hetscope/agent; {@code off}),
 * {@code ffm=N} (after N commands, default 200000, read device times by direct foreign-function calls into
 * libOpenCL instead of through JOCL: setting them up costs ~0.2 s of CPU, each JOCL query ~1.7 us; {@code ffm=off}
 * never).
 */
record AgentOptions(Path out, int chunkBytes, long maxBytes, long flushMs, boolean verbose, boolean device,
                    Path cache, long directAfter) {

    static AgentOptions parse(String args) {
        Path out = null;
        int chunk = 256 * 1024;
        long maxMb = 256;
        long flush = 100;
        boolean verbose = false;
        boolean device = true;
        long directAfter = 200_000;
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "hetscope", "agent");
        if (args != null && !args.isBlank()) {
            for (String part : args.split(",")) {
                int eq = part.indexOf('=');
                String k = (eq < 0 ? part : part.substring(0, eq)).trim();
                String v = eq < 0 ? "" : part.substring(eq + 1).trim();
                switch (k) {
                    case "out" -> out = Path.of(v);
                    case "chunk" -> chunk = Math.max(16 * 1024, Integer.parseInt(v));
                    case "maxmb" -> maxMb = Math.max(1, Long.parseLong(v));
                    case "flushms" -> flush = Math.max(10, Long.parseLong(v));
                    case "verbose" -> verbose = true;
                    case "device" -> device = !v.equals("off");
                    case "ffm" -> directAfter = v.equals("off") ? -1 : Long.parseLong(v);
                    case "cache" -> cache = v.equals("off") ? null : Path.of(v);
                    default -> throw new IllegalArgumentException("hetscope agent: unknown option '" + k
                            + "' (known: out, chunk, maxmb, flushms, verbose, device, cache, ffm)");
                }
            }
        }
        if (out == null) {
            String p = System.getProperty("hetscope.trace.out");
            out = p != null ? Path.of(p) : Path.of("hetscope-opencl-" + ProcessHandle.current().pid() + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new AgentOptions(out, chunk, maxMb * 1024 * 1024, flush, verbose, device, cache, directAfter);
    }
}
