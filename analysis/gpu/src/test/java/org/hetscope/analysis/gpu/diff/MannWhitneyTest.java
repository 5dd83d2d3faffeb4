package org.hetscope.analysis.gpu.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The U test against a brute-force pair count, closed-form exact p-values and a reference implementation. */
class MannWhitneyTest {
    /** U by definition: pairs (x, y) with x > y, plus half those with x = y. */
    static double bruteU(long[] x, long[] y) {
        double u = 0;
        for (long a : x) {
            for (long b : y) {
                u += a > b ? 1 : a == b ? 0.5 : 0;
            }
        }
        return u;
    }

    @Test
    void uEqualsThePairCountOnRandomSamplesWithTies() {
        Random r = new Random(29);
        for (int round = 0; round < 300; round++) {
            long[] x = new long[1 + r.nextInt(80)];
            long[] y = new long[1 + r.nextInt(80)];
            int range = 1 + r.nextInt(round % 3 == 0 ? 5 : 100_000);
            for (int i = 0; i < x.length; i++) {
                x[i] = r.nextInt(range);
            }
            for (int i = 0; i < y.length; i++) {
                y[i] = r.nextInt(range) + (round % 2);
            }
            MannWhitney.Result t = MannWhitney.test(x, y);
            assertEquals(bruteU(x, y), t.u(), 0, "round " + round);
            assertTrue(t.pValue() >= 0 && t.pValue() <= 1);
            // swapping the samples gives U' = n1 n2 - U and the same p-value
            MannWhitney.Result s = MannWhitney.test(y, x);
            assertEquals(x.length * (double) y.length - t.u(), s.u(), 0);
            assertEquals(t.pValue(), s.pValue(), 1e-12);
        }
    }

    @Test
    void exactPValuesOfFullySeparatedSamplesAreTwoOverTheOrderings() {
        // all of x below all of y: U = 0, and of the C(n1 + n2, n1) equally likely orderings one is as extreme
        // on each side
        MannWhitney.Result t = MannWhitney.test(new long[] {1, 2, 3}, new long[] {4, 5, 6});
        assertTrue(t.exact());
        assertEquals(0, t.u());
        assertEquals(2.0 / 20, t.pValue(), 1e-15);
        assertEquals(2.0 / 252, MannWhitney.test(new long[] {1, 2, 3, 4, 5}, new long[] {6, 7, 8, 9, 10}).pValue(),
                1e-15);
        // 30 against 30 (the largest exact case): 2 / C(60, 30)
        long[] x = new long[30];
        long[] y = new long[30];
        for (int i = 0; i < 30; i++) {
            x[i] = i;
            y[i] = 100 + i;
        }
        assertEquals(2 / 1.1826458156486142e17, MannWhitney.test(x, y).pValue(), 1e-28);
    }

    @Test
    void exactDistributionAgainstEnumeration() {
        // all C(12, 5) orderings of 5 against 7 distinct values enumerated: P(U <= u) by counting
        int n1 = 5;
        int n2 = 7;
        int[] count = new int[n1 * n2 + 1];
        int total = 0;
        for (int mask = 0; mask < 1 << (n1 + n2); mask++) {
            if (Integer.bitCount(mask) != n1) {
                continue;
            }
            total++;
            int u = 0;
            int ysBelow = 0;
            for (int bit = 0; bit < n1 + n2; bit++) {
                if ((mask >> bit & 1) != 0) {
                    u += ysBelow;
                } else {
                    ysBelow++;
                }
            }
            count[u]++;
        }
        for (int u = 0; u <= n1 * n2; u++) {
            double le = 0;
            double ge = 0;
            for (int v = 0; v <= n1 * n2; v++) {
                le += v <= u ? count[v] : 0;
                ge += v >= u ? count[v] : 0;
            }
            double expected = Math.min(1, 2 * Math.min(le, ge) / total);
            assertEquals(expected, MannWhitney.exactP(u, n1, n2), 1e-14, "u = " + u);
        }
    }

    @Test
    void textbookExamplesAgainstScipy() {
        // scipy.stats.mannwhitneyu (1.17), method 'exact': U = 38, p = 0.33219579697907864
        MannWhitney.Result t = MannWhitney.test(new long[] {1, 4, 7, 9, 12, 13, 20},
                new long[] {2, 3, 5, 6, 8, 10, 11, 14, 15, 16, 17, 18, 19, 21, 22});
        assertTrue(t.exact());
        assertEquals(38, t.u());
        assertEquals(0.33219579697907864, t.pValue(), 1e-12);
        // with ties (normal approximation, tie and continuity corrections); scipy 'asymptotic': U = 35,
        // p = 0.0013177525925383792
        MannWhitney.Result tied = MannWhitney.test(new long[] {3, 4, 2, 6, 2, 5, 5, 5, 7, 8, 1, 2, 2, 9, 4},
                new long[] {9, 7, 5, 10, 6, 8, 8, 7, 11, 12, 5, 6, 4, 10, 9});
        assertFalse(tied.exact());
        assertEquals(35, tied.u());
        assertEquals(0.0013177525925383792, tied.pValue(), 1e-10);
    }

    @Test
    void largeTiedSamplesAgainstScipy() {
        // x_i = 37 i mod 101 (i = 1..150), y_j = 53 j mod 97 + shift (j = 1..170): many ties, normal approximation.
        // scipy.stats.mannwhitneyu(x, y, method='asymptotic'): shift 5: U = 12124.5, p = 0.44918136636041406;
        // shift 15: U = 9735.5, p = 0.0002627665774164506
        long[] x = new long[150];
        for (int i = 1; i <= 150; i++) {
            x[i - 1] = 37L * i % 101;
        }
        long[][] expected = {{5, 24249}, {15, 19471}};
        double[] p = {0.44918136636041406, 0.0002627665774164506};
        for (int c = 0; c < 2; c++) {
            long[] y = new long[170];
            for (int j = 1; j <= 170; j++) {
                y[j - 1] = 53L * j % 97 + expected[c][0];
            }
            MannWhitney.Result t = MannWhitney.test(x, y);
            assertFalse(t.exact());
            assertEquals(expected[c][1] / 2.0, t.u());
            assertEquals(p[c], t.pValue(), 1e-12 + 1e-9 * p[c]);
        }
    }

    @Test
    void aSampleAgainstItselfHasPOne() {
        long[] x = {5, 1, 9, 9, 3, 7, 7, 7, 2};
        assertEquals(1, MannWhitney.test(x, x.clone()).pValue());
        long[] distinct = {4, 8, 15, 16, 23, 42};
        assertEquals(1, MannWhitney.test(distinct, distinct.clone()).pValue());
        assertEquals(1, MannWhitney.test(new long[] {7, 7, 7}, new long[] {7, 7}).pValue());
        assertEquals(1, MannWhitney.test(new long[] {3}, new long[] {9}).pValue());
    }

    @Test
    void erfcAtKnownPoints() {
        assertEquals(1, MannWhitney.erfc(0), 1e-15);
        assertEquals(0.15729920705028513, MannWhitney.erfc(1), 1e-14);
        assertEquals(0.004677734981047266, MannWhitney.erfc(2), 1e-15);
        assertEquals(2.209049699858544e-05, MannWhitney.erfc(3), 1e-17);
        assertEquals(1.5374597944280349e-12, MannWhitney.erfc(5), 1e-24);
    }
}
