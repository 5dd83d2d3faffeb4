package org.hetscope.capture.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a trace with babeltrace2 (the reference CTF implementation, a separate program) and gives its events as
 * name + fields parsed from the text output, so tests check the agent's output with code that shares nothing
 * with its writer.
 */
final class Babeltrace {
    /** {@code ts}: the event's clock value in cycles (ns of the agent's clock) when read with cycles, else -1. */
    record Event(String name, long streamKey, Map<String, String> fields, long ts) {
        long num(String key) {
            String v = fields.get(key);
            if (v == null) {
                throw new IllegalArgumentException("no field " + key + " in " + this);
            }
            return v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
        }
    }

    private static final Pattern LINE = Pattern.compile("^\\[([^]]*)] \\([^)]*\\) (?:\\S+ )?(\\w+): \\{ ([^}]*) }, \\{ (.*) }$");
    private static final Pattern FIELD = Pattern.compile(
            "(\\w+) = (\\( \"([^\"]*)\" : container = -?\\d+ \\)|\"((?:[^\"\\\\]|\\\\.)*)\"|\\[[^]]*]|[^,]+)");

    static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/babeltrace2"));
    }

    static List<Event> read(Path trace) throws Exception {
        return read(trace, false);
    }

    /** With {@code cycles}, babeltrace2 prints each event's raw clock value, which {@link Event#ts} then holds. */
    static List<Event> read(Path trace, boolean cycles) throws Exception {
        List<Event> events = new ArrayList<>();
        forEach(trace, cycles, events::add);
        return events;
    }

    /**
     * Hands each event to {@code sink} as it is parsed, holding none: a trace recorded for a fixed time on a fast
     * machine can hold millions of events, more than a test heap keeps as parsed maps.
     */
    static void forEach(Path trace, boolean cycles, java.util.function.Consumer<Event> sink) throws Exception {
        Path out = Files.createTempFile("bt2", ".txt");
        Path err = Files.createTempFile("bt2", ".err");
        try {
            List<String> cmd = cycles ? List.of("babeltrace2", "--clock-cycles", trace.toString())
                    : List.of("babeltrace2", trace.toString());
            Process p = new ProcessBuilder(cmd)
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("babeltrace2 did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("babeltrace2 failed on " + trace + ": " + Files.readString(err));
            }
            try (java.io.BufferedReader lines = Files.newBufferedReader(out)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    Matcher m = LINE.matcher(line);
                    if (!m.matches()) {
                        throw new IllegalStateException("unexpected babeltrace2 line: " + line);
                    }
                    Map<String, String> ctx = fields(m.group(3));
                    long key = ctx.containsKey("thread_id") ? Long.parseLong(ctx.get("thread_id"))
                            : -Long.parseLong(ctx.get("queue"));
                    sink.accept(new Event(m.group(2), key, fields(m.group(4)),
                            cycles ? Long.parseLong(m.group(1).trim()) : -1));
                }
            }
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(text);
        while (m.find()) {
            String v = m.group(3) != null ? m.group(3) : m.group(4) != null ? m.group(4) : m.group(2).trim();
            f.putIfAbsent(m.group(1), v);
        }
        return f;
    }
}
