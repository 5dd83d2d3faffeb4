package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NanosTest {

    @Test
    void goldenValuesOfTheSpec() {
        // shared/docs/seeds/gpu-runtime-tracing.md section 5
        assertEquals(4203669604595407L, Nanos.fromMicros("4203669604595.407"));
        assertEquals(8928948690719325L, Nanos.fromMicros("8928948690719.325"));
        assertEquals(320L, Nanos.fromMicros("0.320"));
        assertEquals(1712867402348628000L, Nanos.fromMicros("1712867402348628"));
        assertEquals("4203669604595.407", Nanos.toMicrosText(4203669604595407L));
        // the double route loses the nanosecond that the exact route keeps
        assertEquals(8928948690719324L, (long) (Double.parseDouble("8928948690719.325") * 1000));
    }

    @Test
    void fractionalMicroseconds() {
        assertEquals(1001L, Nanos.fromMicros("1.001"));
        assertEquals(1234567890123L, Nanos.fromMicros("1234567890.123"));
        assertEquals(-2500L, Nanos.fromMicros("-2.5"));
        assertEquals(1_000_000L, Nanos.fromMicros("1e3"));
        assertEquals(1500L, Nanos.fromMicros("1.5E0"));
        assertFalse(Nanos.lastRounded());
    }

    @Test
    void subNanosecondDigitsRoundHalfEven() {
        assertEquals(2L, Nanos.fromMicros("0.0015"));
        assertTrue(Nanos.lastRounded());
        assertEquals(2L, Nanos.fromMicros("0.0025"));
        assertEquals(3L, Nanos.fromMicros("0.00251"));
    }

    @Test
    void agreesWithBigDecimalOnRandomTexts() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            long whole = random.nextLong(0, 10_000_000_000_000L);
            int fracDigits = random.nextInt(0, 7);
            StringBuilder text = new StringBuilder().append(whole);
            if (fracDigits > 0) {
                text.append('.');
                for (int d = 0; d < fracDigits; d++) {
                    text.append((char) ('0' + random.nextInt(10)));
                }
            }
            long expected = new BigDecimal(text.toString()).movePointRight(3)
                    .setScale(0, RoundingMode.HALF_EVEN).longValueExact();
            assertEquals(expected, Nanos.fromMicros(text), text::toString);
        }
    }

    @Test
    void rejectsNonNumbers() {
        assertThrows(Nanos.BadNumber.class, () -> Nanos.fromMicros("abc"));
        assertThrows(Nanos.BadNumber.class, () -> Nanos.fromMicros(""));
        assertThrows(Nanos.BadNumber.class, () -> Nanos.fromMicros("1e"));
        assertThrows(Nanos.BadNumber.class, () -> Nanos.fromMicros("99999999999999999999999"));
    }
}
