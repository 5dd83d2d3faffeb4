package org.hetscope.capture.agent;


import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.net.InetAddress;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Entry point of {@code -javaagent:hetscope-agent.jar[=options]}: opens the trace, starts the flusher and the
 * command collector, and has ByteBuddy weave the recording code into {@code org.jocl.CL} when it is loaded (the
 * woven class is cached on disk, see {@link ClassCache}).
 */
public final class Premain {
    private Premain() {}

    public static void premain(String args, Instrumentation inst) {
        try {
            start(AgentOptions.parse(args), inst);
        } catch (Exception e) {
            System.err.println("hetscope agent: not tracing: " + e.getMessage());
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        premain(args, inst);
    }

    static void start(AgentOptions o, Instrumentation inst) throws Exception {
        UUID uuid = UUID.randomUUID();
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("domain", "opencl");
        env.put("tracer_name", TraceMetadata.TRACER_NAME);
        env.put("tracer_major", TraceMetadata.FORMAT_MAJOR);
        env.put("tracer_minor", TraceMetadata.FORMAT_MINOR);
        env.put("hostname", hostname());
        env.put("pid", ProcessHandle.current().pid());
        env.put("java_version", System.getProperty("java.version"));
        env.put("command", ProcessHandle.current().info().commandLine().orElse(""));
        env.put("host_clock", "System.nanoTime");
        long directAfter = o.device() ? o.directAfter() : -1;
        // the path asked for; the collector stays with JOCL where the foreign-function API is missing
        env.put("device_queries", directAfter < 0 ? "jocl" : "jocl, foreign-function after " + directAfter
                + " commands");
        String metadata = TraceMetadata.text(uuid, clockOffset(), env);
        TraceWriter writer = new TraceWriter(o.out(), uuid, metadata, o.chunkBytes(), o.maxBytes(), o.flushMs());
        CommandCollector collector = new CommandCollector(writer, directAfter);
        Tracer.writer = writer;
        Tracer.collector = collector;
        Tracer.deviceTimes = o.device();
        writer.start();
        collector.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            long s0 = System.nanoTime();
            collector.stop();
            writer.close();
            if (o.verbose()) {
                System.err.println("hetscope agent: trace in " + o.out() + " (" + writer.packetsWritten()
                        + " packets, " + Tracer.COMMANDS.get() + " commands, shutdown "
                        + (System.nanoTime() - s0) / 1000000 + " ms)");
            }
        }, "hetscope-trace-shutdown"));
        install(inst, o);
    }

    private static void install(Instrumentation inst, AgentOptions o) {
        ClassCache cache = new ClassCache(o.cache());
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                                    byte[] bytes) {
                if (!"org/jocl/CL".equals(name)) {
                    return null;
                }
                try {
                    long t0 = System.nanoTime();
                    byte[] woven = cache.get(bytes);
                    boolean hit = woven != null;
                    if (!hit) {
                        woven = Weaver.weave(bytes, loader);
                        cache.put(bytes, woven);
                    }
                    if (o.verbose()) {
                        System.err.println("hetscope agent: instrumented org.jocl.CL in "
                                + (System.nanoTime() - t0) / 1000000 + " ms" + (hit ? " (cached)" : ""));
                    }
                    return woven;
                } catch (Throwable t) {
                    System.err.println("hetscope agent: cannot instrument org.jocl.CL, not tracing: " + t);
                    return null;
                }
            }
        });
    }

    /** Wall-clock ns at monotonic 0, taken from the tightest of a few paired readings. */
    private static long clockOffset() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long a = System.nanoTime();
            Instant now = Instant.now();
            long b = System.nanoTime();
            if (b - a < best) {
                best = b - a;
                offset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (a + (b - a) / 2);
            }
        }
        return offset;
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
