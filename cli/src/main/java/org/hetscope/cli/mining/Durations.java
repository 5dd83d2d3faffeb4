package org.hetscope.cli.mining;

import java.math.BigDecimal;

/** Parses window lengths: a bare integer (trace units: cycles or ns) or a number with ns, us, ms or s. */
final class Durations {
    private Durations() {}

    static long parse(String text) {
        String s = text.strip();
        long scale = 1;
        String num = s;
        for (String[] unit : new String[][] {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}}) {
            if (s.endsWith(unit[0])) {
                num = s.substring(0, s.length() - unit[0].length());
                scale = Long.parseLong(unit[1]);
                break;
            }
        }
        try {
            long v = new BigDecimal(num.strip()).multiply(BigDecimal.valueOf(scale)).longValueExact();
            if (v <= 0) {
                throw new IllegalArgumentException("a window length must be positive: " + text);
            }
            return v;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a window length (N, or N with ns/us/ms/s): " + text);
        }
    }
}
