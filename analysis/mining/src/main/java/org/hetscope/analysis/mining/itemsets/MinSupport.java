package org.hetscope.analysis.mining.itemsets;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A support threshold: an absolute count, or a percentage p of the N transactions, converted to the count
 * ceil(p * N / 100) (exactly, in decimal). Every threshold is "at least" (hetscope rule, spec section 3).
 */
public record MinSupport(BigDecimal value, boolean percent) {
    public MinSupport {
        if (value.signum() < 0 || (percent && value.compareTo(BigDecimal.valueOf(100)) > 0)) {
            throw new IllegalArgumentException("support threshold out of range: " + value + (percent ? "%" : ""));
        }
        if (!percent && value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("an absolute support must be a whole count: " + value);
        }
    }

    public static MinSupport atLeast(long n) {
        return new MinSupport(BigDecimal.valueOf(n), false);
    }

    public static MinSupport percent(String p) {
        return new MinSupport(new BigDecimal(p), true);
    }

    /** Parses {@code 12} (count) or {@code 2.5%} (percentage). */
    public static MinSupport parse(String text) {
        String s = text.strip();
        try {
            if (s.endsWith("%")) {
                return percent(s.substring(0, s.length() - 1).strip());
            }
            return atLeast(new BigDecimal(s).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a support threshold (N or P%): " + text);
        }
    }

    /** The smallest support count that passes, for {@code n} transactions; never below 1. */
    public int count(int n) {
        BigDecimal c = percent
                ? value.multiply(BigDecimal.valueOf(n)).divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING)
                : value;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, c.longValue()));
    }

    @Override
    public String toString() {
        return value.toPlainString() + (percent ? "%" : "");
    }
}
