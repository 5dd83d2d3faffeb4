package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    /**
     * Long fractions (read eight digits at a time), leading zeros, signs, and fields followed in the buffer by more
     * digits, which must not be read as part of the field.
     */
    @Test
    void longFractionsLeadingZerosAndNeighbouringDigits() {
        Random rnd = new Random(11);
        DecimalText d = new DecimalText();
        for (int i = 0; i < 200_000; i++) {
            StringBuilder b = new StringBuilder(switch (rnd.nextInt(6)) {
                case 0 -> "-";
                case 1 -> "+";
                default -> "";
            });
            for (int k = rnd.nextInt(4); k > 0; k--) {
                b.append('0');
            }
            int intDigits = rnd.nextInt(5);
            for (int k = 0; k < intDigits; k++) {
                b.append((char) ('0' + rnd.nextInt(10)));
            }
            int fracDigits = rnd.nextInt(25);
            if (fracDigits > 0 || b.isEmpty() || !Character.isDigit(b.charAt(b.length() - 1))) {
                b.append('.');
                boolean zeros = rnd.nextBoolean();
                for (int k = 0; k < fracDigits; k++) {
                    b.append(zeros && k < 5 ? '0' : (char) ('0' + rnd.nextInt(10)));
                }
            }
            String s = b.toString();
            if (s.replaceAll("[^0-9]", "").isEmpty()) {
                continue;
            }
            String around = "9" + s + "12345678";
            byte[] bytes = around.getBytes(StandardCharsets.US_ASCII);
            for (int shift : new int[] {6, 9}) {
                BigDecimal exact = new BigDecimal(s).movePointRight(shift);
                long expected = exact.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
                assertEquals(expected, d.scaled(bytes, 1, s.length(), shift), s + " shift " + shift);
                assertEquals(exact.stripTrailingZeros().scale() > 0, d.lastRounded(), s);
            }
            assertEquals(Double.parseDouble(s), d.toDouble(bytes, 1, s.length()), s);
        }
    }

    @Test
    void textsThatAreNoPlainDecimalAreRefused() {
        DecimalText d = new DecimalText();
        for (String s : new String[] {"1.2.3", "12345678.1234567a", "1.12345678x", "--1", "1-", "0x10", "1 2"}) {
            byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
            assertThrows(NumberFormatException.class, () -> d.toDouble(bytes, 0, bytes.length), s);
            assertThrows(IllegalArgumentException.class, () -> d.scaled(bytes, 0, bytes.length, 9), s);
        }
    }
}
