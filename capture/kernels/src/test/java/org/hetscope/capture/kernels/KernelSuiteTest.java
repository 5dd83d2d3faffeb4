package org.hetscope.capture.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.run.CounterReport;
import org.hetscope.capture.kernels.run.CounterResult;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kernel suite on the OpenCL device (PoCL in CI): every instrumented variant leaves the same outputs as the
 * original kernel, counters equal the Java model of each algorithm, and for every work-item the path rebuilt
 * from the reduced trace equals the naive trace's path, with all three collectors giving the same traces.
 */
class KernelSuiteTest {

    static List<SuiteKernel> suite() {
        return Suite.all(1);
    }

    private static List<byte[]> outputs(List<KernelArgument> args) {
        List<byte[]> out = new ArrayList<>();
        for (KernelArgument a : args) {
            if (a instanceof KernelArgument.Host h) {
                out.add(h.bytes().clone());
            }
        }
        return out;
    }

    private static void assertSameOutputs(List<byte[]> expected, List<KernelArgument> args, String what) {
        List<byte[]> got = outputs(args);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), what + ": buffer " + i + " differs from the original");
        }
    }

    static Map<String, Long> byName(CounterResult r) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (CounterReport.Row row : CounterReport.rows(r)) {
            String key = row.construct() == null ? row.label() : row.construct() + "@" + row.line();
            if (row.value() != 0) {
                m.merge(key, row.value(), Long::sum);
            }
        }
        return m;
    }

    @ParameterizedTest
    @MethodSource("suite")
    void countersMatchTheJavaModelAndOutputsAreUnchanged(SuiteKernel k) {
        KernelRunner runner = TestDevice.runner(k);
        List<KernelArgument> plainArgs = k.args().get();
        runner.runPlain(plainArgs, k.range());
        List<byte[]> expected = outputs(plainArgs);

        List<KernelArgument> args = k.args().get();
        CounterResult atomic = runner.count(args, k.range(), CounterPlan.Mode.ATOMIC);
        assertSameOutputs(expected, args, "counters");
        assertEquals(k.expected().get(), byName(atomic), "counters of " + k.name());

        List<KernelArgument> slabArgs = k.args().get();
        CounterResult slab = runner.count(slabArgs, k.range(), CounterPlan.Mode.SLAB);
        assertSameOutputs(expected, slabArgs, "slab counters");
        assertArrayEquals(atomic.totals(), slab.totals(), "slab totals equal atomic totals");
    }

    @ParameterizedTest
    @MethodSource("suite")
    void reducedTracesRebuildTheNaivePathsWithEveryCollector(SuiteKernel k) {
        KernelRunner runner = TestDevice.runner(k);
        List<KernelArgument> plainArgs = k.args().get();
        runner.runPlain(plainArgs, k.range());
        List<byte[]> expected = outputs(plainArgs);

        int[][] naivePaths = null;
        int[][] firstRecords = null;
        for (int points = 0; points < 3; points++) {
            boolean reduced = points > 0;
            firstRecords = null;
            // all three collectors on the reduced set; two-phase alone for the others (PoCL compiles slowly)
            List<TraceOptions.Strategy> strategies = points == 1 ? List.of(TraceOptions.Strategy.values())
                    : List.of(TraceOptions.Strategy.TWO_PHASE);
            for (TraceOptions.Strategy s : strategies) {
                List<KernelArgument> args = k.args().get();
                TraceOptions opt = TraceOptions.of(s, reduced);
                if (points == 2) {
                    opt = opt.withTripCounts();
                }
                if (firstRecords != null) {
                    // exactly the room the two-phase pass measured: nothing may be lost, nothing is spare
                    long total = 0;
                    long chunks = 0;
                    for (int[] rec : firstRecords) {
                        total += rec.length;
                        chunks += (rec.length + 3) / 4;
                    }
                    opt = opt.withCapacity(total).withChunks(4, chunks);
                }
                TraceResult r = runner.trace(args, k.range(), opt);
                String what = k.name() + " " + s + (points == 2 ? " trip counts" : reduced ? " reduced" : " naive");
                assertSameOutputs(expected, args, what);
                assertTrue(r.valid(), what + " valid");
                assertEquals(0, r.lost(), what + " lost");
                assertEquals(List.of(), r.failures(), what + " reconstruction failures");
                if (s == TraceOptions.Strategy.TWO_PHASE) {
                    firstRecords = r.records();
                    assertEquals(java.util.Arrays.stream(r.records()).mapToLong(x -> x.length).sum(),
                            r.totalRecords());
                } else {
                    for (int p = 0; p < r.producers(); p++) {
                        assertArrayEquals(firstRecords[p], r.records()[p], what + " records of work-item " + p
                                + " equal the two-phase records");
                    }
                }
                if (!reduced) {
                    naivePaths = r.paths();
                } else {
                    for (int p = 0; p < r.producers(); p++) {
                        assertArrayEquals(naivePaths[p], r.paths()[p], what + " path of work-item " + p);
                    }
                }
            }
        }
    }
}
