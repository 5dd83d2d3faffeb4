package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** The one reading of times and durations on the command line (issue 24, defect 5). */
class TraceTimeTest {
    @Test
    void everyUnitAndBareNanoseconds() {
        assertEquals(new TraceTime(41_400_000_000L, false), TraceTime.parse("41.4s"));
        assertEquals(new TraceTime(250_000_000L, false), TraceTime.parse("250ms"));
        assertEquals(new TraceTime(10_000L, false), TraceTime.parse("10us"));
        assertEquals(new TraceTime(10_000L, false), TraceTime.parse("10\u00b5s")); // micro sign
        assertEquals(new TraceTime(10_000L, false), TraceTime.parse("10\u03bcs")); // Greek mu
        assertEquals(new TraceTime(5L, false), TraceTime.parse("5ns"));
        assertEquals(new TraceTime(5L, false), TraceTime.parse("5"));
        assertEquals(new TraceTime(0L, false), TraceTime.parse("0"));
        assertEquals(new TraceTime(1_500_000L, false), TraceTime.parse(" 1.5 ms "));
        assertEquals(new TraceTime(500_000_000L, false), TraceTime.parse(".5s"));
    }

    @Test
    void atIsTheTracesOwnClock() {
        TraceTime t = TraceTime.parse("@1700000000000000000");
        assertTrue(t.absolute());
        assertEquals(1_700_000_000_000_000_000L, t.resolve(1_600_000_000_000_000_000L));
        assertEquals(83_000_000L, TraceTime.parse("@83ms").resolve(35_000_000L));
        // relative: an offset from the trace start
        assertFalse(TraceTime.parse("83ms").absolute());
        assertEquals(118_000_000L, TraceTime.parse("83ms").resolve(35_000_000L));
    }

    @Test
    void durationsShareTheNumbers() {
        assertEquals(20_000_000L, TraceTime.parseDuration("20ms"));
        assertEquals(30_000L, TraceTime.parseDuration("30us"));
        assertEquals(7L, TraceTime.parseDuration("7"));
        assertEquals(0L, new TraceTime.DurationConverter().convert("0"));
        TypeConversionException zero = assertThrows(TypeConversionException.class,
                () -> new TraceTime.LengthConverter().convert("0ms"));
        assertTrue(zero.getMessage().contains("more than zero"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TraceTime.parseDuration("@5ms"));
    }

    @Test
    void negativeGarbageAndImpossibleValuesAreRefusedWithAReason() {
        assertMessage("-5ms", "cannot be negative");
        assertMessage("@-5", "cannot be negative");
        assertMessage("5m", "is not a time");
        assertMessage("1e9", "is not a time");
        assertMessage("", "is not a time");
        assertMessage("ms", "is not a time");
        assertMessage("1.2.3s", "is not a time");
        assertMessage("0.5ns", "finer than a nanosecond");
        assertMessage("1.0000000001s", "finer than a nanosecond");
        assertMessage("99999999999s", "too large");
        assertMessage("9223372036854775808", "too large");
        // the message says what is accepted
        assertMessage("soon", "41.4s, 250ms, 10us, 5ns");
    }

    private static void assertMessage(String text, String part) {
        TypeConversionException e = assertThrows(TypeConversionException.class,
                () -> new TraceTime.Converter().convert(text), text);
        assertTrue(e.getMessage().contains(part), text + ": " + e.getMessage());
    }

    @Test
    void unitsForPeople() {
        assertEquals("24.59 s", Units.duration(24_587_247_000L, true));
        assertEquals("436.8 \u00b5s", Units.duration(436_800, true));
        assertEquals("436.8 us", Units.duration(436_800, false));
        assertEquals("12 ns", Units.duration(12, true));
        assertEquals("0 ns", Units.duration(0, true));
        assertEquals("12.50 ns", Units.duration(12.5, true));
        assertEquals("1.000 ms", Units.duration(999_999, true)); // rounding picks the unit
        assertEquals("32.70 \u00b5s", Units.duration(32_700.0, true));
        assertEquals("7.068 s", Units.duration(7_068_334_956.4, true));
        assertEquals("-3.000 \u00b5s", Units.duration(-3000, true));
        assertEquals("12346 s", Units.duration(12_345_678_000_000L, true));
        assertEquals("81.105686 ms", Units.time(81_105_686L, true));
        assertEquals("24.587247 s", Units.time(24_587_247_000L, true));
        assertEquals("3 s", Units.time(3_000_000_000L, true));
        assertEquals("436.800 \u00b5s", Units.time(436_800L, true));
        assertEquals("-12 ns", Units.time(-12L, true));
        assertEquals("1023 B", Units.bytes(1023));
        assertEquals("29.47 MiB", Units.bytes(30_904_320));
        assertEquals("80.00 GiB", Units.bytes(85_899_345_920L));
        assertEquals("62.0 %", Units.percent(61.98));
    }
}
