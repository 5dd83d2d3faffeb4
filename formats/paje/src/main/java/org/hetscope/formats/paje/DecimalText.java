package org.hetscope.formats.paje;

import org.hetscope.model.Nanos;

/** Exact parsing of Paje number fields straight from the input bytes, without building Strings; one per reader. */
final class DecimalText {

    private static final long[] LONG_POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L,
        10_000_000L, 100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L,
        10_000_000_000_000L, 100_000_000_000_000L, 1_000_000_000_000_000L, 10_000_000_000_000_000L,
        100_000_000_000_000_000L, 1_000_000_000_000_000_000L};

    private static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    // What the last scan read: the digits as one integer, how many are significant, how many follow the point.
    private long mantissa;
    private int significantDigits;
    private int fractionDigits;
    private boolean negative;

    /** Reads {@code [sign] digits [. digits]}; false when the text is anything else (an exponent, no digit). */
    private boolean scan(byte[] buf, int off, int len) {
        int i = off;
        int end = off + len;
        negative = false;
        if (i < end && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        int first = i;
        // Zeros before the first other digit are not significant, also after the point ("0.000123").
        while (i < end && buf[i] == '0') {
            i++;
        }
        int significantFrom = i;
        long v = 0;
        int d;
        while (i < end && (d = buf[i] - '0') >= 0 && d <= 9) {
            v = v * 10 + d;
            i++;
        }
        int digits = i - significantFrom;
        int intEnd = i;
        int frac = 0;
        if (i < end && buf[i] == '.') {
            int fracStart = ++i;
            if (v == 0) {
                while (i < end && buf[i] == '0') {
                    i++;
                }
            }
            int fracSignificant = i;
            // Eight digits at a time where the field has them (a time's nanoseconds are nine).
            while (end - i >= 8) {
                long w = ByteWords.at(buf, i);
                if ((w & 0xF0F0F0F0F0F0F0F0L) != 0x3030303030303030L
                        || ((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) != 0x3030303030303030L) {
                    break;
                }
                v = v * 100_000_000L + eightDigits(w - 0x3030303030303030L);
                i += 8;
            }
            while (i < end && (d = buf[i] - '0') >= 0 && d <= 9) {
                v = v * 10 + d;
                i++;
            }
            digits += i - fracSignificant;
            frac = i - fracStart;
            if (intEnd == first && frac == 0) {
                return false; // "." or "-." : no digit
            }
        } else if (intEnd == first) {
            return false; // no digit
        }
        if (i != end) {
            return false;
        }
        mantissa = v;
        significantDigits = digits;
        fractionDigits = frac;
        return true;
    }

    /** The value of eight decimal digits, one per byte (0-9), the first in the lowest byte. */
    private static long eightDigits(long w) {
        w = (w * 10 + (w >>> 8)) & 0x00FF00FF00FF00FFL; // pairs: d0*10+d1 in bytes 0, 2, 4, 6
        w = (w * 100 + (w >>> 16)) & 0x0000FFFF0000FFFFL; // quads in 16-bit lanes 0 and 2
        return (w * 10_000 + (w >>> 32)) & 0xFFFFFFFFL;
    }

    /**
     * A decimal time text times 10^shift, as an exact integer (ms with shift 6 gives ns). Texts with more
     * fraction digits than {@code shift} or with an exponent go through {@link Nanos#fromDecimal}, which rounds
     * half-even.
     */
    long scaled(byte[] buf, int off, int len, int shift) {
        rounded = false;
        if (!scan(buf, off, len)) {
            return slow(buf, off, len, shift);
        }
        long v = mantissa;
        int f = fractionDigits;
        if (significantDigits > 18 || significantDigits + shift - f > 18) {
            return slow(buf, off, len, shift);
        }
        if (f > shift) {
            // More decimals than the unit needs (StarPU: ms with 9 decimals): exact when they are zeros,
            // otherwise rounded half-even and flagged.
            long p = LONG_POW10[f - shift];
            long q = v / p;
            long r = v % p;
            if (r != 0) {
                rounded = true;
                long half = p / 2;
                if (r > half || (r == half && (q & 1) == 1)) {
                    q++;
                }
            }
            return negative ? -q : q;
        }
        for (int k = f; k < shift; k++) {
            v *= 10;
        }
        return negative ? -v : v;
    }

    private long slow(byte[] buf, int off, int len, int shift) {
        char[] chars = new char[len];
        for (int k = 0; k < len; k++) {
            chars[k] = (char) (buf[off + k] & 0xff);
        }
        long v = Nanos.fromDecimal(chars, 0, len, shift);
        rounded = Nanos.lastRounded();
        return v;
    }

    private boolean rounded;

    /** Whether the last {@link #scaled} call had to round digits below the target unit. */
    boolean lastRounded() {
        return rounded;
    }

    /** A decimal number as the nearest double (same result as {@link Double#parseDouble}). */
    double toDouble(byte[] buf, int off, int len) {
        // Both the mantissa (< 2^53) and the power of ten are exact doubles: one division rounds correctly.
        if (!scan(buf, off, len) || significantDigits > 15 || fractionDigits > 22) {
            return Double.parseDouble(new String(buf, off, len, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        double d = fractionDigits > 0 ? mantissa / POW10[fractionDigits] : mantissa;
        return negative ? -d : d;
    }
}
