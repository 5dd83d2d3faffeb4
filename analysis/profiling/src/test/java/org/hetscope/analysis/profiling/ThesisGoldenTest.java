package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The golden numbers of spec §4.4, computed from the thesis tables with hetscope's statistics code. */
class ThesisGoldenTest {

    static List<String[]> rows(String resource) throws IOException {
        try (InputStream in = ThesisGoldenTest.class.getResourceAsStream(resource)) {
            List<String[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    out.add(line.split(",", -1));
                }
            }
            return out.subList(1, out.size()); // header
        }
    }

    static double[] column(List<String[]> rows, int c) {
        return rows.stream().mapToDouble(r -> Double.parseDouble(r[c])).toArray();
    }

    @Test
    void nwWorkGroupSpeedups() throws IOException {
        List<String[]> t = rows("table-4-2-nw.csv");
        double p1 = Double.parseDouble(t.get(0)[4]);
        double p2 = Double.parseDouble(t.get(1)[4]);
        double p3 = Double.parseDouble(t.get(2)[4]);
        double p4 = Double.parseDouble(t.get(3)[4]);
        assertEquals(8.62, Math.round(-Statistics.overheadPercent(p2, p1) * 100) / 100.0);
        assertEquals(8.6155, -Statistics.overheadPercent(p2, p1), 5e-5);
        assertEquals(40.46, -Statistics.overheadPercent(p4, p3), 0.005);
    }

    @Test
    void nwWorkGroupAdvisorBounds() throws IOException {
        List<String[]> t = rows("table-4-2-nw.csv");
        int wave = 64; // Vega 56
        for (String[] r : t) {
            long wg = Long.parseLong(r[1]);
            boolean flagged = wg % wave != 0;
            switch (r[0]) {
                case "P1" -> {
                    assertTrue(flagged);
                    assertEquals(0.5, Advisor.activeLaneBound(wg, wave));
                    assertTrue(Double.parseDouble(r[6]) / 100 < Advisor.activeLaneBound(wg, wave));
                }
                case "P3" -> {
                    assertTrue(flagged);
                    assertEquals(0.25, Advisor.activeLaneBound(wg, wave));
                }
                default -> assertFalse(flagged);
            }
        }
    }

    @Test
    void overheadsAndCfd() throws IOException {
        List<String[]> a1 = rows("table-a1-runtimes.csv");
        assertEquals(18, a1.size());
        for (String[] r : a1) {
            double control = Double.parseDouble(r[1]);
            double tr = Statistics.overheadPercent(Double.parseDouble(r[3]), control);
            double pr = Statistics.overheadPercent(Double.parseDouble(r[5]), control);
            double tp = Statistics.overheadPercent(Double.parseDouble(r[7]), control);
            assertEquals(Double.parseDouble(r[9]), tr, 0.006, r[0] + " tracing %");
            assertEquals(Double.parseDouble(r[10]), pr, 0.006, r[0] + " profiling %");
            assertEquals(Double.parseDouble(r[11]), tp, 0.006, r[0] + " trace+prof %");
            assertTrue(pr < tr && pr < tp, r[0] + ": profiling alone has the smallest overhead");
            if (r[0].equals("cfd")) {
                assertEquals(17.91, Double.parseDouble(r[7]) / control, 0.01);
            }
        }
        assertEquals(1440, a1.size() * 4 * 20);
    }

    @Test
    void correlationsWithKernelCountsDurationAndEvents() throws IOException {
        List<String[]> a1 = rows("table-a1-runtimes.csv");
        List<String[]> a2 = rows("table-a2-counters.csv");
        for (int i = 0; i < a1.size(); i++) {
            assertEquals(a1.get(i)[0], a2.get(i)[0]);
        }
        double[] control = column(a1, 1);
        double[] tracing = new double[control.length];
        double[] profiling = new double[control.length];
        double[] both = new double[control.length];
        for (int i = 0; i < control.length; i++) {
            tracing[i] = Statistics.overheadPercent(Double.parseDouble(a1.get(i)[3]), control[i]);
            profiling[i] = Statistics.overheadPercent(Double.parseDouble(a1.get(i)[5]), control[i]);
            both[i] = Statistics.overheadPercent(Double.parseDouble(a1.get(i)[7]), control[i]);
        }
        double[] nKernels = column(a2, 8);
        double[] duration = column(a2, 7);
        double[] nEvents = column(a2, 9);
        double r = Statistics.pearson(tracing, nKernels);
        assertEquals(0.562, r, 0.001);
        assertEquals(0.55, r, 0.02);
        assertEquals(-0.582, Statistics.pearson(tracing, duration), 0.001);
        double events = Statistics.pearson(tracing, nEvents);
        assertEquals(0.541, events, 0.001);
        assertTrue(events < r);
        assertEquals(0.927, Statistics.pearson(profiling, nKernels), 0.001);
        assertEquals(0.953, Statistics.pearson(both, nKernels), 0.001);
    }

    @Test
    void outlierRuleAndPercentiles() {
        double[] x = new double[20];
        for (int i = 0; i < 19; i++) {
            x[i] = 1.0 + i * 0.01;
        }
        x[19] = 100; // far above mean + 3 sd
        double[] y = Statistics.replaceOutliers(x);
        assertEquals(Statistics.percentile(x, 0.85), y[19]);
        // R type 7 on 1..20 (brute force: h = 19 * 0.85 = 16.15)
        double[] seq = new double[20];
        for (int i = 0; i < 20; i++) {
            seq[i] = i + 1;
        }
        assertEquals(17.15, Statistics.percentile(seq, 0.85), 1e-12);
        assertEquals(Math.sqrt((20.0 * 20 - 1) / 12), Statistics.populationSd(seq), 1e-12);
    }
}
