package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * System calls and interrupt handlers of an LTTng kernel trace as the store keeps them, slices and skip rows, against
 * a recount by separate code from babeltrace2's text: the whole {@code bug446190} trace, and copies of it that
 * babeltrace2's trimmer cut inside calls and handlers (exits whose entry was cut off, entries whose exit was). A call
 * is its thread's (the one switched in last on the CPU of the event) and a thread has one call at a time; handlers
 * nest per CPU. What is still open at the end of the trace ends there, unfinished and counted.
 */
class KernelPairingTest {
    private static final Pattern FIELD = Pattern.compile("(\\w+) = (\"[^\"]*\"|-?\\w+)");
    private static final String[] SOFTIRQS = {"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
        "SCHED", "HRTIMER", "RCU"};

    /** What the recount expects: slices as text, and per skip detail its count and the time of its first item. */
    private static final class Expected {
        final Set<String> calls = new HashSet<>();
        final Set<String> handlers = new HashSet<>();
        final Map<String, Long> counts = new TreeMap<>();
        final Map<String, Long> firstAt = new HashMap<>();

        void skip(String detail, Long ts) {
            counts.merge(detail, 1L, Long::sum);
            firstAt.putIfAbsent(detail, ts);
        }
    }

    @Test
    void wholeTrace(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 not installed");
        Expected x = check(Fixtures.ctf("bug446190"), tmp);
        assertTrue(x.calls.size() > 1000 && x.handlers.size() > 2000, x.calls.size() + " " + x.handlers.size());
        assertTrue(x.counts.get("system call entry") > 0, "the trace ends inside calls: " + x.counts);
    }

    @Test
    void traceCutInsideCallsAndHandlers(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 not installed");
        Path whole = Fixtures.ctf("bug446190");
        List<Babeltrace.Line> lines = Babeltrace.read(whole);
        assertNotNull(lines);
        long first = lines.get(0).ns();
        long last = lines.get(lines.size() - 1).ns();
        // cut inside a handler near a third and near two thirds of the trace: its exit, then its entry, is lost
        long begin = insideHandler(lines, first + (last - first) / 3);
        long end = insideHandler(lines, first + 2 * (last - first) / 3);
        Path cut = trim(whole, tmp.resolve("cut"), begin, end);
        Expected x = check(cut, tmp);
        for (String detail : List.of("system call entry", "system call exit", "interrupt handler entry",
                "interrupt handler exit")) {
            assertTrue(x.counts.getOrDefault(detail, 0L) > 0, "the cut breaks " + detail + " pairs: " + x.counts);
        }
        assertTrue(x.calls.size() > 100 && x.handlers.size() > 500, x.calls.size() + " " + x.handlers.size());
    }

    /** Halfway through the first interrupt handler that starts at or after {@code from}. */
    private static long insideHandler(List<Babeltrace.Line> lines, long from) {
        Map<String, Long> entries = new HashMap<>();
        for (Babeltrace.Line l : lines) {
            if (l.ns() < from) {
                continue;
            }
            String cpu = l.text().replaceFirst(".*cpu_id = (\\d+).*", "$1");
            if (l.text().startsWith("irq_handler_entry:")) {
                entries.putIfAbsent(cpu, l.ns());
            } else if (l.text().startsWith("irq_handler_exit:") && entries.containsKey(cpu)
                    && l.ns() - entries.get(cpu) >= 2) {
                return entries.get(cpu) + (l.ns() - entries.get(cpu)) / 2;
            }
        }
        throw new AssertionError("no handler after " + from);
    }

    /** babeltrace2's trimmer: the events of [begin, end] written as a new CTF trace; the folder of its metadata. */
    private static Path trim(Path trace, Path out, long begin, long end) throws Exception {
        Process p = new ProcessBuilder("babeltrace2", trace.toString(), "--begin=" + seconds(begin),
                "--end=" + seconds(end), "-o", "ctf", "-w", out.toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, said);
        try (Stream<Path> files = Files.walk(out)) {
            return files.filter(f -> f.getFileName().toString().equals("metadata")).findFirst().orElseThrow()
                    .getParent();
        }
    }

    private static String seconds(long ns) {
        return ns / 1_000_000_000L + "." + String.format("%09d", ns % 1_000_000_000L);
    }

    /** Imports {@code trace} into a store and compares its calls, handlers and skip rows with the recount. */
    private static Expected check(Path trace, Path tmp) throws Exception {
        List<Babeltrace.Line> lines = Babeltrace.read(trace);
        assertNotNull(lines, "babeltrace2 reads " + trace);
        Expected x = recount(lines);

        Path db = tmp.resolve(trace.getFileName() + ".duckdb");
        StoreWriter w = StoreWriter.create(db);
        new CtfTraceFormat().read(trace, w, Progress.NONE);
        w.commit();
        Set<String> calls = new HashSet<>();
        Set<String> handlers = new HashSet<>();
        Map<String, Long> counts = new TreeMap<>();
        try (Store s = Store.open(db)) {
            for (Object[] r : s.query("SELECT th.tid, s.name, s.ts, s.dur, s.args LIKE '%\"unfinished\":true%' "
                    + "FROM slice s JOIN track t ON s.track_id = t.id JOIN track p ON t.parent_id = p.id "
                    + "JOIN thread th ON p.thread_id = th.id WHERE s.source_category = 'syscall'").rows()) {
                calls.add(r[0] + " " + r[1] + " " + r[2] + " " + r[3] + (Boolean.TRUE.equals(r[4]) ? " unfinished" : ""));
            }
            for (Object[] r : s.query("SELECT p.name, s.name, s.ts, s.dur, s.depth, s.args LIKE '%\"unfinished\":true%' "
                    + "FROM slice s JOIN track t ON s.track_id = t.id JOIN track p ON t.parent_id = p.id "
                    + "WHERE s.source_category = 'interrupt'").rows()) {
                handlers.add(r[0] + " " + r[1] + " " + r[2] + " " + r[3] + " " + r[4]
                        + (Boolean.TRUE.equals(r[5]) ? " unfinished" : ""));
            }
            for (Object[] r : s.query("SELECT reason, detail, location, count FROM skipped WHERE detail IN "
                    + "('system call entry', 'system call exit', 'interrupt handler entry', 'interrupt handler exit', "
                    + "'system call events')").rows()) {
                String detail = (String) r[1];
                String reason = detail.equals("system call events") ? "unknown_thread"
                        : detail.endsWith("entry") ? "unended_slice" : "unmatched_end";
                assertEquals(reason, r[0], detail);
                counts.put(detail, ((Number) r[3]).longValue());
                Long at = x.firstAt.get(detail);
                String where = (String) r[2];
                if (detail.equals("system call events")) {
                    assertEquals("start of trace", where);
                } else if (at == null) {
                    assertEquals("end of trace", where, detail);
                } else {
                    assertTrue(where.endsWith(" at " + at + " ns"), detail + ": " + where + ", expected at " + at);
                }
            }
        }
        assertEquals(x.calls, calls, trace + ": system calls");
        assertEquals(x.handlers, handlers, trace + ": interrupt handlers");
        assertEquals(x.counts, counts, trace + ": skip rows");
        return x;
    }

    private static Expected recount(List<Babeltrace.Line> lines) {
        Expected x = new Expected();
        long end = Long.MIN_VALUE;
        Map<Long, Long> running = new HashMap<>(); // cpu -> tid switched in last
        Map<Long, String[]> calls = new HashMap<>(); // tid -> {name, start}
        Map<Long, ArrayDeque<String[]>> handlers = new TreeMap<>(); // cpu -> {label, start}, innermost first
        for (Babeltrace.Line l : lines) {
            end = Math.max(end, l.ns());
            String text = l.text();
            String name = text.substring(0, text.indexOf(':'));
            boolean entry = name.startsWith("sys_") || name.matches("(compat_)?syscall_entry_\\w+");
            boolean exit = name.equals("exit_syscall") || name.matches("(compat_)?syscall_exit_\\w+");
            boolean handler = name.matches("(irq_handler|softirq)_(entry|exit)");
            if (!entry && !exit && !handler && !name.equals("sched_switch")) {
                continue;
            }
            Map<String, String> f = new HashMap<>();
            Matcher m = FIELD.matcher(text);
            while (m.find()) {
                f.put(m.group(1), m.group(2).replace("\"", ""));
            }
            long cpu = Long.parseLong(f.get("cpu_id"));
            long ts = l.ns();
            if (name.equals("sched_switch")) {
                running.put(cpu, Long.parseLong(f.get("next_tid")));
            } else if (handler) {
                ArrayDeque<String[]> stack = handlers.computeIfAbsent(cpu, c -> new ArrayDeque<>());
                if (name.endsWith("_entry")) {
                    String label = name.startsWith("irq") ? "irq " + f.get("irq") + " " + f.get("name")
                            : "softirq " + SOFTIRQS[Integer.parseInt(f.get("vec"))];
                    stack.push(new String[] {label, Long.toString(ts)});
                } else if (stack.isEmpty()) {
                    x.skip("interrupt handler exit", ts);
                } else {
                    String[] h = stack.pop();
                    x.handlers.add(handler(cpu, h, ts, stack.size(), false));
                }
            } else {
                long tid = running.getOrDefault(cpu, -1L);
                if (tid <= 0) {
                    x.counts.merge("system call events", 1L, Long::sum); // whose call it is is unknown
                    continue;
                }
                String[] open = calls.remove(tid);
                if (entry) {
                    if (open != null) {
                        x.skip("system call entry", ts);
                        x.calls.add(call(tid, open, ts, true));
                    }
                    String call = name.replaceFirst("^(sys_|(compat_)?syscall_entry_)", "");
                    calls.put(tid, new String[] {call, Long.toString(ts)});
                } else if (open == null) {
                    x.skip("system call exit", ts);
                } else {
                    x.calls.add(call(tid, open, ts, false));
                }
            }
        }
        for (var c : calls.entrySet()) {
            x.skip("system call entry", null);
            x.calls.add(call(c.getKey(), c.getValue(), end, true));
        }
        for (var h : handlers.entrySet()) {
            ArrayDeque<String[]> stack = h.getValue();
            while (!stack.isEmpty()) {
                x.skip("interrupt handler entry", null);
                String[] open = stack.pop();
                x.handlers.add(handler(h.getKey(), open, end, stack.size(), true));
            }
        }
        return x;
    }

    private static String call(long tid, String[] open, long end, boolean unfinished) {
        long start = Long.parseLong(open[1]);
        return tid + " " + open[0] + " " + start + " " + (end - start) + (unfinished ? " unfinished" : "");
    }

    private static String handler(long cpu, String[] open, long end, int depth, boolean unfinished) {
        long start = Long.parseLong(open[1]);
        return "CPU " + cpu + " " + open[0] + " " + start + " " + (end - start) + " " + depth
                + (unfinished ? " unfinished" : "");
    }
}
