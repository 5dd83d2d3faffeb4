package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Exact time parsing against BigDecimal, and doubles against Double.parseDouble. */
class DecimalTextTest {
    @Test
    void scaledTimesAreExactOrRoundedHalfEvenLikeBigDecimal() {
        Random rnd = new Random(7);
        DecimalText d = new DecimalText();
        for (int i = 0; i < 200_000; i++) {
            int intDigits = rnd.nextInt(7);
            int fracDigits = rnd.nextInt(12);
            StringBuilder b = new StringBuilder(rnd.nextInt(10) == 0 ? "-" : "");
            b.append(intDigits == 0 ? "0" : Long.toString(1 + (long) (rnd.nextDouble() * Math.pow(10, intDigits))));
            if (fracDigits > 0) {
                b.append('.');
                for (int k = 0; k < fracDigits; k++) {
                    b.append(rnd.nextInt(10) < 6 ? '0' : (char) ('0' + rnd.nextInt(10)));
                }
            }
            String s = b.toString();
            for (int shift : new int[] {6, 9}) {
                BigDecimal exact = new BigDecimal(s).movePointRight(shift);
                long expected = exact.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
                byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
                assertEquals(expected, d.scaled(bytes, 0, bytes.length, shift), s + " shift " + shift);
                assertEquals(exact.stripTrailingZeros().scale() > 0, d.lastRounded(), s);
            }
            byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
            assertEquals(Double.parseDouble(s), d.toDouble(bytes, 0, bytes.length), s);
        }
    }
}
