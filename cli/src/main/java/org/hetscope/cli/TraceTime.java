package org.hetscope.cli;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A time given on the command line, the one rule every command follows (docs/cli.md, "Times"):
 * <ul>
 *   <li>{@code 41.4s}, {@code 250ms}, {@code 10us} (or {@code 10µs}), {@code 5ns}: an offset from the trace start,
 *       the zero of the web UI's ruler and of every time a table shows;</li>
 *   <li>a bare number is nanoseconds, the unit of the store and of every {@code --csv}/{@code --json} column;</li>
 *   <li>{@code @} before it, e.g. {@code @1682725897226747000} or {@code @83ms}, is a time on the trace's own clock
 *       (the store's {@code ts}: epoch ns for most tracers), as {@code hetscope sql} shows it.</li>
 * </ul>
 * Negative values and fractions of a nanosecond are refused. Durations (bin widths, thresholds) use the same numbers
 * and units without the {@code @}: {@link DurationConverter}.
 *
 * @param ns the offset from the trace start, or with {@code absolute} the time on the trace's clock
 */
public record TraceTime(long ns, boolean absolute) {
    public TraceTime {
        if (ns < 0) {
            throw new IllegalArgumentException("a time cannot be negative");
        }
    }

    /** This time on the trace's clock, for a trace that starts at {@code traceStart}. */
    public long resolve(long traceStart) {
        return absolute ? ns : traceStart + ns;
    }

    @Override
    public String toString() {
        return absolute ? "@" + ns : Units.duration(ns, true);
    }

    /** Parses a time; the message of the exception says what is accepted. */
    public static TraceTime parse(String text) {
        String t = text.strip();
        boolean absolute = t.startsWith("@");
        long ns = nanos(absolute ? t.substring(1) : t, text, "time");
        return new TraceTime(ns, absolute);
    }

    /** Parses a duration: a number of nanoseconds, or a number with a unit (s, ms, us, µs, ns). */
    public static long parseDuration(String text) {
        return nanos(text.strip(), text, "duration");
    }

    private static final String[][] UNITS = {
            {"ns", "0"}, {"us", "3"}, {"\u00b5s", "3"}, {"\u03bcs", "3"}, {"ms", "6"}, {"s", "9"}};

    private static long nanos(String t, String original, String what) {
        int shift = 0;
        String number = t;
        for (String[] unit : UNITS) {
            if (t.toLowerCase(Locale.ROOT).endsWith(unit[0])) {
                number = t.substring(0, t.length() - unit[0].length()).strip();
                shift = Integer.parseInt(unit[1]);
                break;
            }
        }
        // Digits with at most one point: no sign, exponent or spaces inside, so "1e9" or "-5ms" are not guessed at
        if (!number.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
            if (number.startsWith("-")) {
                throw new IllegalArgumentException("'" + original + "': a " + what + " cannot be negative");
            }
            throw new IllegalArgumentException("'" + original + "' is not a " + what + ": give a number of ns, or "
                    + "a number with a unit (41.4s, 250ms, 10us, 5ns)" + (what.equals("time")
                    ? ", from the trace start; @ before it for the trace's own clock (@1700000000000000000)" : ""));
        }
        BigDecimal v = new BigDecimal(number).movePointRight(shift);
        try {
            BigInteger exact = v.toBigIntegerExact();
            return exact.longValueExact();
        } catch (ArithmeticException e) {
            if (v.signum() != 0 && v.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException("'" + original + "': finer than a nanosecond");
            }
            throw new IllegalArgumentException("'" + original + "': too large");
        }
    }

    /**
     * The trace's bounds [start, end] on its own clock: the earliest and latest time of any timed row (slice starts
     * and ends, instants, counter samples, residencies, transfers), the zero of every relative time and of the time
     * columns of tables, as the standard library's {@code hs_trace_bounds} defines them (docs/stdlib.md).
     */
    public static long[] traceBounds(Store store) {
        Table t = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds");
        Object[] b = t.rows().get(0);
        return b[0] == null ? new long[] {0, 0} : new long[] {(Long) b[0], (Long) b[1]};
    }

    /**
     * Warns on stderr when [from, to) reaches outside the trace's bounds: wholly outside, nothing is in it; partly,
     * the part outside counts as empty (idle, absent). Returns whether it warned.
     */
    public static boolean warnOutside(long from, long to, long[] bounds) {
        String window = "[" + relative(from, bounds[0]) + ", " + relative(to, bounds[0]) + ")";
        String trace = "the trace (0 to " + Units.duration(bounds[1] - bounds[0], true) + " from its start)";
        if (to <= bounds[0] || from >= bounds[1]) {
            System.err.println("hetscope: warning: the window " + window + " lies outside " + trace
                    + ": nothing happens in it (times are from the trace start; @ before a time for the trace's "
                    + "own clock)");
            return true;
        }
        if (from < bounds[0] || to > bounds[1]) {
            System.err.println("hetscope: warning: the window " + window + " reaches outside " + trace
                    + "; the part outside holds nothing");
            return true;
        }
        return false;
    }

    /** Warns on stderr when one instant lies outside the trace's bounds. Returns whether it warned. */
    public static boolean warnOutside(long at, long[] bounds) {
        if (at < bounds[0] || at > bounds[1]) {
            System.err.println("hetscope: warning: " + relative(at, bounds[0]) + " lies outside the trace (0 to "
                    + Units.duration(bounds[1] - bounds[0], true) + " from its start)");
            return true;
        }
        return false;
    }

    private static String relative(long t, long start) {
        return t < start ? "-" + Units.duration(start - t, true) : Units.duration(t - start, true);
    }

    /** picocli's converter for options and parameters of type {@link TraceTime}. */
    public static final class Converter implements ITypeConverter<TraceTime> {
        @Override
        public TraceTime convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** picocli's converter for durations (a {@code long} of ns): zero or more. */
    public static final class DurationConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** picocli's converter for lengths (bin widths, steps, windows): more than zero. */
    public static final class LengthConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = new DurationConverter().convert(value);
            if (v == 0) {
                throw new TypeConversionException("'" + value + "': a length must be more than zero");
            }
            return v;
        }
    }
}
