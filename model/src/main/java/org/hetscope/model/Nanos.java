package org.hetscope.model;

/**
 * Exact conversions between decimal time texts and integer nanoseconds. A {@code double} never holds an
 * absolute timestamp: {@code 8928948690719.325} µs read through a double loses a nanosecond.
 */
public final class Nanos {
    private Nanos() {}

    /** Thrown for a decimal text that is not a number or that does not fit in a long. */
    public static final class BadNumber extends IllegalArgumentException {
        BadNumber(String message) {
            super(message);
        }
    }

    /**
     * Parses a JSON number text in microseconds ({@code 12}, {@code -3.5}, {@code 1.001}, {@code 1e3}) into exact
     * nanoseconds. Digits beyond the nanosecond are rounded half-even; {@link #lastRounded} tells when that
     * happened.
     */
    public static long fromMicros(char[] buf, int off, int len) {
        return fromDecimal(buf, off, len, 3);
    }

    public static long fromMicros(CharSequence text) {
        char[] chars = text.toString().toCharArray();
        return fromDecimal(chars, 0, chars.length, 3);
    }

    private static final ThreadLocal<boolean[]> ROUNDED = ThreadLocal.withInitial(() -> new boolean[1]);

    /** Whether the last conversion on this thread had to round digits below the nanosecond. */
    public static boolean lastRounded() {
        return ROUNDED.get()[0];
    }

    /**
     * Parses a decimal number text and multiplies it by 10^{@code shift}, exactly, rounding half-even to an
     * integer.
     */
    public static long fromDecimal(char[] buf, int off, int len, int shift) {
        int i = off;
        int end = off + len;
        boolean negative = false;
        if (i < end && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int fractionDigits = 0;
        boolean inFraction = false;
        boolean sawDigit = false;
        int firstDropped = -1;
        for (; i < end; i++) {
            char c = buf[i];
            if (c >= '0' && c <= '9') {
                sawDigit = true;
                if (digits < 18) {
                    if (mantissa != 0 || c != '0') {
                        digits++;
                    }
                    mantissa = mantissa * 10 + (c - '0');
                    if (inFraction) {
                        fractionDigits++;
                    }
                } else {
                    firstDropped = c - '0';
                }
            } else if (c == '.' && !inFraction) {
                inFraction = true;
            } else if (c == 'e' || c == 'E') {
                break;
            } else {
                throw new BadNumber("not a number: '" + new String(buf, off, len) + "'");
            }
        }
        if (!sawDigit) {
            throw new BadNumber("not a number: '" + new String(buf, off, len) + "'");
        }
        int exponent = 0;
        if (i < end) {
            i++;
            boolean expNegative = false;
            if (i < end && (buf[i] == '-' || buf[i] == '+')) {
                expNegative = buf[i] == '-';
                i++;
            }
            if (i >= end) {
                throw new BadNumber("bad exponent in '" + new String(buf, off, len) + "'");
            }
            for (; i < end; i++) {
                char c = buf[i];
                if (c < '0' || c > '9' || exponent > 100_000) {
                    throw new BadNumber("bad exponent in '" + new String(buf, off, len) + "'");
                }
                exponent = exponent * 10 + (c - '0');
            }
            if (expNegative) {
                exponent = -exponent;
            }
        }
        if (firstDropped >= 0) {
            // More than 18 significant digits: rare enough to take the exact slow path.
            return viaBigDecimal(buf, off, len, shift);
        }
        int scale = shift + exponent - fractionDigits;
        boolean rounded = false;
        long result;
        if (scale >= 0) {
            result = mantissa;
            for (int k = 0; k < scale; k++) {
                if (result > Long.MAX_VALUE / 10) {
                    throw new BadNumber("time out of range: '" + new String(buf, off, len) + "'");
                }
                result *= 10;
            }
        } else {
            int cut = -scale;
            if (cut > 18) {
                rounded = mantissa != 0;
                result = 0;
            } else {
                long pow = POW10[cut];
                long q = mantissa / pow;
                long r = mantissa % pow;
                long half = pow / 2;
                rounded = r != 0;
                if (r > half || (r == half && (q & 1) == 1)) {
                    q++;
                }
                result = q;
            }
        }
        ROUNDED.get()[0] = rounded;
        return negative ? -result : result;
    }

    private static long viaBigDecimal(char[] buf, int off, int len, int shift) {
        java.math.BigDecimal value;
        try {
            value = new java.math.BigDecimal(buf, off, len).movePointRight(shift);
        } catch (NumberFormatException e) {
            throw new BadNumber("not a number: '" + new String(buf, off, len) + "'");
        }
        java.math.BigDecimal whole = value.setScale(0, java.math.RoundingMode.HALF_EVEN);
        ROUNDED.get()[0] = whole.compareTo(value) != 0;
        try {
            return whole.longValueExact();
        } catch (ArithmeticException e) {
            throw new BadNumber("time out of range: '" + new String(buf, off, len) + "'");
        }
    }

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int k = 1; k < POW10.length; k++) {
            POW10[k] = POW10[k - 1] * 10;
        }
    }

    /** Writes nanoseconds as microseconds with three decimals: 4203669604595407 -> "4203669604595.407". */
    public static String toMicrosText(long ns) {
        String sign = ns < 0 ? "-" : "";
        long abs = Math.abs(ns);
        long frac = abs % 1000;
        return sign + (abs / 1000) + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
    }
}
