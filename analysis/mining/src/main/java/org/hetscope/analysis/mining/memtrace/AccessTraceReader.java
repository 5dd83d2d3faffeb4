package org.hetscope.analysis.mining.memtrace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.hetscope.model.TraceFormatException;

/**
 * Streams the thesis' memory-access traces (Tables 2.1, 5.1, A.1) from text: fields separated by blanks or commas,
 * {@code #} comments and header lines (before the first row) ignored, gzip accepted. The layout is recognised from
 * the first row (6, 7 or 8 fields; the 8-field NoC layout has the access type third). PCs and data addresses are
 * hexadecimal with or without {@code 0x}; cycles, pages, hops, nodes and latencies are decimal. When a symbol table
 * is given, events without a function get one from it.
 */
public final class AccessTraceReader {
    /** What a read saw: rows delivered, rows skipped as malformed, and the first problem with its line. */
    public record Report(Path file, TraceLayout layout, long events, long skipped, String firstProblem) {}

    private final SymbolTable symbols;
    private final boolean strict;

    /**
     * @param symbols function names for PCs, or null
     * @param strict  true: the first malformed row stops the read with a {@link TraceFormatException}; false: it is
     *                counted and skipped
     */
    public AccessTraceReader(SymbolTable symbols, boolean strict) {
        this.symbols = symbols;
        this.strict = strict;
    }

    public Report stream(Path file, Consumer<AccessEvent> out) throws IOException, TraceFormatException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8),
                1 << 16)) {
            TraceLayout layout = null;
            long lineNo = 0;
            long events = 0;
            long skipped = 0;
            String first = null;
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                String[] f = s.split("[\\s,]+");
                if (layout == null) {
                    if (!Character.isDigit(f[0].charAt(0))) {
                        continue; // a header row
                    }
                    layout = switch (f.length) {
                        case 6 -> TraceLayout.RAW;
                        case 7 -> TraceLayout.SYMBOLISED;
                        case 8 -> TraceLayout.NOC;
                        default -> throw new TraceFormatException(file, "line " + lineNo, "expected 6, 7 or 8 "
                                + "fields (Table 2.1, A.1 or 5.1 layout), found " + f.length);
                    };
                }
                try {
                    AccessEvent e = parse(layout, f);
                    if (e.function() == null && symbols != null) {
                        e = e.withFunction(symbols.function(e.pc()));
                    }
                    out.accept(e);
                    events++;
                } catch (IllegalArgumentException ex) {
                    String problem = file + ": line " + lineNo + ": " + ex.getMessage();
                    if (strict) {
                        throw new TraceFormatException(file, "line " + lineNo, ex.getMessage());
                    }
                    skipped++;
                    if (first == null) {
                        first = problem;
                    }
                }
            }
            return new Report(file, layout, events, skipped, first);
        } catch (java.io.EOFException | java.util.zip.ZipException e) {
            throw new TraceFormatException(file, "end", "truncated or corrupt gzip data: " + e.getMessage());
        }
    }

    /**
     * Reads a whole trace and returns the execution trace ET: the per-CPU streams merged by (t, cpu, input order).
     */
    public List<AccessEvent> read(Path file, List<Report> reports) throws IOException, TraceFormatException {
        List<AccessEvent> events = new ArrayList<>();
        Report report = stream(file, events::add);
        if (reports != null) {
            reports.add(report);
        }
        events.sort(Comparator.comparingLong(AccessEvent::t).thenComparingInt(AccessEvent::cpu));
        return events;
    }

    static AccessEvent parse(TraceLayout layout, String[] f) {
        if (f.length != layout.fields()) {
            throw new IllegalArgumentException("expected " + layout.fields() + " fields as in the first row ("
                    + layout + "), found " + f.length);
        }
        return switch (layout) {
            case RAW, SYMBOLISED -> new AccessEvent(intField(f[0], "cpu"), decimal(f[1], "cycle"), hex(f[2], "pc"),
                    AccessType.parse(f[3]), hex(f[4], "data address"), null, null, null, decimal(f[5], "latency"),
                    layout == TraceLayout.SYMBOLISED ? f[6] : null);
            case NOC -> new AccessEvent(intField(f[1], "cpu"), decimal(f[0], "cycle"), hex(f[4], "pc"),
                    AccessType.parse(f[2]), null, decimal(f[3], "page"), intField(f[5], "hops"),
                    intField(f[6], "node"), decimal(f[7], "latency"), null);
        };
    }

    private static long decimal(String s, String what) {
        try {
            long v = Long.parseLong(s);
            if (v < 0) {
                throw new IllegalArgumentException("negative " + what + " '" + s + "'");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad " + what + " '" + s + "'");
        }
    }

    private static int intField(String s, String what) {
        long v = decimal(s, what);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " too large '" + s + "'");
        }
        return (int) v;
    }

    private static long hex(String s, String what) {
        String h = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        try {
            if (h.isEmpty() || h.length() > 16) {
                throw new NumberFormatException();
            }
            return Long.parseUnsignedLong(h, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad " + what + " '" + s + "' (hexadecimal expected)");
        }
    }
}
