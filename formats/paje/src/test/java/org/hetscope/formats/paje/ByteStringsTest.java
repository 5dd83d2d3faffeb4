package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The string table against a plain map of Strings, on texts of every length up to 40 bytes. */
class ByteStringsTest {

    /** Copies {@code text} to the end of a buffer, so that lookups also run where 8 bytes cannot be read. */
    private static byte[] atEnd(byte[] text, int pad) {
        byte[] buf = new byte[pad + text.length];
        for (int i = 0; i < pad; i++) {
            buf[i] = (byte) 'x';
        }
        System.arraycopy(text, 0, buf, pad, text.length);
        return buf;
    }

    @Test
    void sameBytesGiveTheSameStringAndOtherBytesAnother() {
        Random rnd = new Random(7);
        ByteStrings table = new ByteStrings();
        Map<String, String> reference = new HashMap<>();
        for (int n = 0; n < 200_000; n++) {
            // Few bytes from a small alphabet with zero bytes: many repeats, and texts that differ only by
            // trailing zero bytes or length.
            int len = rnd.nextInt(41);
            byte[] text = new byte[len];
            for (int i = 0; i < len; i++) {
                int c = rnd.nextInt(4);
                text[i] = c == 0 ? 0 : (byte) ('a' + c);
            }
            if (len > 3 && rnd.nextBoolean()) {
                len = 3;
                text = java.util.Arrays.copyOf(text, 3);
            }
            int pad = rnd.nextInt(12);
            byte[] buf = atEnd(text, pad);
            String got = table.get(buf, pad, len);
            String expected = new String(text, StandardCharsets.UTF_8);
            assertEquals(expected, got);
            String first = reference.putIfAbsent(expected, got);
            if (first != null) {
                assertSame(first, got, "a repeated text must give the String of its first lookup");
            }
        }
        assertTrue(reference.size() > 10_000, "the test must have grown the table: " + reference.size());
    }

    @Test
    void aFieldOfNewTextsStopsRememberingAndAResolvedMeaningStaysWithItsText() {
        ByteStrings table = new ByteStrings();
        byte[] s = "state".getBytes(StandardCharsets.UTF_8);
        int slot = table.slot(s, 0, s.length);
        table.mean(slot, "resolved");
        for (int i = 0; i < ByteStrings.SETTLE_ENTRIES - 2; i++) {
            byte[] b = ("job" + i).getBytes(StandardCharsets.UTF_8);
            assertEquals("job" + i, table.get(b, 0, b.length));
        }
        int again = table.slot(s, 0, s.length);
        assertEquals("resolved", table.meaning(again), "the meaning must move with its entry when the table grows");
        // Every text was new: the first new text past the settle size makes the table stop looking texts up.
        byte[] last = "job-last".getBytes(StandardCharsets.UTF_8);
        assertTrue(table.slot(last, 0, last.length) >= 0);
        assertTrue(table.slot(last, 0, last.length) >= 0);
        byte[] after = "job-after".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, table.slot(after, 0, after.length));
        assertEquals("job-after", table.string(-1));
        assertEquals(-1, table.slot(last, 0, last.length));
        assertEquals("job-last", table.string(-1));
        assertNotSame(table.get(last, 0, last.length), table.get(last, 0, last.length));
    }

    @Test
    void theTablesOfOneReaderShareOneAllowance() {
        ByteStrings.Allowance allowance = new ByteStrings.Allowance();
        allowance.entries = 5;
        ByteStrings a = new ByteStrings(allowance);
        ByteStrings b = new ByteStrings(allowance);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 3; i++) {
                byte[] t = ("text" + i).getBytes(StandardCharsets.UTF_8);
                assertTrue(a.slot(t, 0, t.length) >= 0, "a's three texts fit");
                assertEquals("text" + i, a.string(a.slot(t, 0, t.length)));
            }
            for (int i = 0; i < 3; i++) {
                byte[] t = ("text" + i).getBytes(StandardCharsets.UTF_8);
                int slot = b.slot(t, 0, t.length);
                // two of b's three: five in all
                assertEquals(i < 2, slot >= 0, "text" + i);
                assertEquals("text" + i, b.string(slot));
            }
        }
        assertEquals(0, allowance.entries);
    }
}
