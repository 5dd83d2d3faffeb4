package org.hetscope.capture.kernels;

import static org.hetscope.capture.kernels.run.KernelArgument.intValue;
import static org.hetscope.capture.kernels.run.KernelArgument.ints;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.instrument.CounterKind;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.instrument.CounterSite;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.Parser;
import org.hetscope.capture.kernels.run.CounterReport;
import org.hetscope.capture.kernels.run.CounterResult;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.NdRange;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.jocl.CL;
import org.jocl.Pointer;
import org.junit.jupiter.api.Test;

/** The worked examples of docs/seeds/gpu-kernel-instrumentation.md section 5, on the OpenCL device. */
class KnnSpecTest {

    private static Map<String, Long> expectedAndCheck(SuiteKernel k, CounterResult r) {
        Map<String, Long> expected = k.expected().get();
        assertEquals(expected, KernelSuiteTest.byName(r));
        return expected;
    }

    /** Spec test 1 (and 9): the paper's numbers, in Fig. 3's counter order, with both publication paths. */
    @Test
    void paperSizesGiveTheNumbersOfFigure4() {
        SuiteKernel k = Suite.knn(5000, 784, 5120, 256);
        KernelRunner runner = TestDevice.runner(k);
        CounterResult r = runner.count(k.args().get(), k.range(), CounterPlan.Mode.ATOMIC);
        long[] expected = {5000, 7_840_000, 3_920_000, 5000, 120};
        assertArrayEquals(expected, r.totals());
        List<CounterSite> sites = r.plan().counters();
        assertEquals(CounterKind.GLOBAL_STORE, sites.get(0).memory());
        assertEquals(CounterKind.GLOBAL_LOAD, sites.get(1).memory());
        assertEquals(List.of("while", "if", "else"), sites.subList(2, 5).stream().map(CounterSite::construct).toList());
        expectedAndCheck(k, r);
        CounterResult slab = runner.count(k.args().get(), k.range(), CounterPlan.Mode.SLAB);
        assertArrayEquals(expected, slab.totals(), "the no-64-bit-atomics slab path gives the same totals");

        String annotated = CounterReport.annotate(k.file().toString(), k.source(), r);
        assertTrue(annotated.contains("/* ### global_memory stores : 5000 */"), annotated);
        assertTrue(annotated.contains("/* ### global_memory loads : 7840000 */"));
        String[] lines = annotated.split("\n");
        int whileLine = indexOf(lines, "while (i < dataSize)");
        assertTrue(lines[whileLine + 1].contains("/* ### visits : 3920000 */"), lines[whileLine + 1]);
        int ifLine = indexOf(lines, "if (computeId < setSize)");
        assertTrue(lines[ifLine + 1].contains("/* ### visits : 5000 */"));
        int elseLine = indexOf(lines, "} else {");
        assertTrue(lines[elseLine + 1].contains("/* ### visits : 120 */"));
        assertFalse(annotated.contains("floating-point"), "the integer kNN kernel has no FLOP counter");
    }

    private static int indexOf(String[] lines, String snippet) {
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(snippet)) {
                return i;
            }
        }
        throw new AssertionError(snippet);
    }

    /** Spec test 2 (counters) and the per-work-item extension: min and max with the work-item reaching them. */
    @Test
    void smallKnnCountersPerWorkItem() {
        SuiteKernel k = Suite.knn(50, 8, 64, 16);
        CounterResult r = TestDevice.runner(k).count(k.args().get(), k.range(), CounterPlan.Mode.SLAB);
        assertArrayEquals(new long[] {50, 800, 400, 50, 14}, r.totals());
        // while visits: 8 on every active work-item (first: 0), 0 on inactive ones (first: 50)
        assertEquals(0, r.min()[2]);
        assertEquals(50, r.minItem()[2]);
        assertEquals(8, r.max()[2]);
        assertEquals(0, r.maxItem()[2]);
        assertEquals(1, r.max()[4]);
        assertEquals(50, r.maxItem()[4]);
        for (int item = 0; item < 64; item++) {
            long loads = r.perItem()[item * 5 + 1];
            assertEquals(item < 50 ? 16 : 0, loads, "loads of work-item " + item);
        }
        String json = CounterReport.json(r, "compute");
        assertTrue(json.contains("\"kind\":\"load\",\"space\":\"global\""), json);
        assertTrue(json.contains("\"construct\":\"while\""));
        assertTrue(json.contains("\"max\":8,\"max_work_item\":0"), json);
    }

    /** Spec test 2 (traces): 6 naive sites and 1028 records, 2 reduced sites and 450 records (-56.2 %). */
    @Test
    void smallKnnTraceSizesAndReconstruction() {
        SuiteKernel k = Suite.knn(50, 8, 64, 16);
        KernelRunner runner = TestDevice.runner(k);
        TraceResult naive = runner.trace(k.args().get(), k.range(), TraceOptions.of(TraceOptions.Strategy.TWO_PHASE,
                false));
        TraceResult reduced = runner.trace(k.args().get(), k.range(),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true));
        assertEquals(6, runner.scope().cfg().blocks().size());
        assertEquals(6, naive.plan().points().sites());
        assertEquals(2, reduced.plan().points().sites());
        assertEquals(1028, naive.totalRecords());
        assertEquals(450, reduced.totalRecords());
        assertEquals("56.2", String.format(java.util.Locale.ROOT, "%.1f",
                100.0 * (1 - reduced.totalRecords() / (double) naive.totalRecords())));
        for (int p = 0; p < 64; p++) {
            assertArrayEquals(naive.paths()[p], reduced.paths()[p], "work-item " + p);
            assertEquals(p < 50 ? 20 : 2, naive.paths()[p].length);
            assertEquals(p < 50 ? 9 : 0, reduced.records()[p].length);
        }
        // trip counts: one pair of records per active work-item's loop instead of 8 continue records
        TraceResult trips = runner.trace(k.args().get(), k.range(),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true).withTripCounts());
        assertEquals(50 * 3, trips.totalRecords());
        for (int p = 0; p < 64; p++) {
            assertArrayEquals(naive.paths()[p], trips.paths()[p], "trip counts, work-item " + p);
        }
        // spec test 7: a shared buffer of capacity 10 loses 440 of the 450 reduced records
        TraceResult small = runner.trace(k.args().get(), k.range(),
                TraceOptions.of(TraceOptions.Strategy.SHARED, true).withCapacity(10));
        assertEquals(440, small.lost());
        assertFalse(small.valid());
        TraceResult sub = runner.trace(k.args().get(), k.range(),
                TraceOptions.of(TraceOptions.Strategy.SUBBUFFER, true).withChunks(4, 1000));
        for (int p = 0; p < 64; p++) {
            assertArrayEquals(reduced.records()[p], sub.records()[p]);
        }
    }

    /** Spec test 5: an input changed between the passes is reported, and no slice is overrun. */
    @Test
    void twoPhaseDetectsANonDeterministicKernel() throws Exception {
        Path file = SuiteKernel.dir().resolve("knn_sizes.cl");
        KernelRunner runner = new KernelRunner(TestDevice.session(), file.toString(), Files.readString(file),
                "compute");
        List<KernelArgument> args = List.of(ints(Suite.randomInts(1, 50 * 9, 256)), ints(Suite.randomInts(2, 9, 256)),
                ints(new int[64]), intValue(50), ints(8));
        TraceOptions opt = TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true).withCanaries((session, buffers) ->
                CL.clEnqueueWriteBuffer(session.queue(), buffers.get(4), true, 0, 4, Pointer.to(new int[] {9}), 0,
                        null, null));
        TraceResult r = runner.trace(args, NdRange.of(64, 16), opt);
        assertFalse(r.valid());
        assertEquals(50, r.nondeterministic().size());
        assertEquals(0L, r.nondeterministic().getFirst());
        assertTrue(r.canariesIntact(), "no record written outside its slice");
        for (int p = 0; p < 50; p++) {
            assertEquals(9, r.records()[p].length, "the counted 9 records kept, the 10th refused");
        }
        TraceResult same = runner.trace(args, NdRange.of(64, 16),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true).withCanaries(null));
        assertTrue(same.valid());
        assertTrue(same.canariesIntact());
    }

    /** JOCL programs pass their own cl_mem buffers; two-phase snapshots and restores them on the device. */
    @Test
    void deviceBuffersOfAJoclProgram() {
        SuiteKernel k = Suite.knn(50, 8, 64, 16);
        KernelRunner runner = TestDevice.runner(k);
        List<KernelArgument> host = k.args().get();
        runner.runPlain(host, k.range());
        int[] expected = KernelArgument.asInts((KernelArgument.Host) host.get(2));
        var session = TestDevice.session();
        List<KernelArgument> fresh = k.args().get();
        List<org.jocl.cl_mem> mems = new java.util.ArrayList<>();
        List<KernelArgument> device = new java.util.ArrayList<>();
        for (KernelArgument a : fresh) {
            if (a instanceof KernelArgument.Host h) {
                org.jocl.cl_mem m = session.buffer(h.bytes());
                mems.add(m);
                device.add(new KernelArgument.Device(m, h.bytes().length));
            } else {
                device.add(a);
            }
        }
        CounterResult c = runner.count(device, k.range(), CounterPlan.Mode.ATOMIC);
        assertArrayEquals(new long[] {50, 800, 400, 50, 14}, c.totals());
        TraceResult t = runner.trace(device, k.range(), TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true));
        assertEquals(450, t.totalRecords());
        int[] res = new int[64];
        session.read(mems.get(2), res);
        assertArrayEquals(expected, res);
        mems.forEach(CL::clReleaseMemObject);
    }

    /** A helper shared by two kernels (and declared by a prototype) is instrumented for the kernel run only. */
    @Test
    void sharedHelperAndPrototype() throws Exception {
        Path file = SuiteKernel.dir().resolve("two_kernels.cl");
        String src = Files.readString(file);
        for (String name : List.of("first", "second")) {
            KernelRunner runner = new KernelRunner(TestDevice.session(), file.toString(), src, name);
            List<KernelArgument> args = name.equals("first")
                    ? List.of(KernelArgument.floats(new float[64]), KernelArgument.floatValue(3f))
                    : List.of(KernelArgument.floats(new float[64]));
            CounterResult r = runner.count(args, NdRange.of(64, 16), CounterPlan.Mode.ATOMIC);
            Map<String, Long> got = KernelSuiteTest.byName(r);
            long calls = name.equals("first") ? 64 : 32;
            assertEquals(calls, got.get("function@4"), name);
            assertEquals(calls, got.get(Suite.GL), name);
            assertEquals(name.equals("first") ? calls : 2 * calls, got.get(Suite.FLOP), name);
            TraceResult t = runner.trace(args, NdRange.of(64, 16), TraceOptions.of(TraceOptions.Strategy.TWO_PHASE,
                    true));
            assertTrue(t.valid());
        }
    }

    /** Spec test 6: no tracepoint fires: zero records, a one-element buffer, empty traces, success. */
    @Test
    void zeroEvents() {
        SuiteKernel k = Suite.knn(0, 8, 64, 16);
        TraceResult r = TestDevice.runner(k).trace(k.args().get(), k.range(),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true));
        assertTrue(r.valid());
        assertEquals(0, r.totalRecords());
        for (int p = 0; p < 64; p++) {
            assertEquals(0, r.records()[p].length);
            assertArrayEquals(new int[] {0, 5}, r.paths()[p]);
        }
    }

    /** Spec test 3: the StarPU gemm tile kernel at n = ld = 96. */
    @Test
    void gemmTileCounters() {
        SuiteKernel k = Suite.matmul(3);
        CounterResult r = TestDevice.runner(k).count(k.args().get(), k.range(), CounterPlan.Mode.ATOMIC);
        Map<String, Long> got = KernelSuiteTest.byName(r);
        assertEquals(884_736L, got.get("for@2"));
        assertEquals(1_778_688L, got.get(Suite.GL));
        assertEquals(9_216L, got.get(Suite.GS));
        assertEquals(1_778_688L, got.get(Suite.FLOP));
    }

    /** Spec test 4: five user arguments move to indices 1-5 behind the counter buffer. */
    @Test
    void argumentsShiftByOne() {
        SuiteKernel k = Suite.knn(50, 8, 64, 16);
        CounterPlan plan = TestDevice.runner(k).counterPlan(CounterPlan.Mode.ATOMIC);
        Ast.FunctionDef f = Parser.parse("instrumented.cl", plan.source()).function("compute");
        assertEquals(List.of("hs_counters", "trainingSet", "data", "res", "setSize", "dataSize"),
                f.params().stream().map(Ast.VarDecl::name).toList());
        assertEquals("__global ulong*", f.params().getFirst().type().display());
    }

    /** Spec test 8: counts are placed per basic block, so a return before an access does not count it. */
    @Test
    void earlyReturnDoesNotOvercount() throws Exception {
        Path file = SuiteKernel.dir().resolve("early.cl");
        KernelRunner runner = new KernelRunner(TestDevice.session(), file.toString(), Files.readString(file), "early");
        int n = 100;
        CounterResult r = runner.count(List.of(ints(new int[128]), ints(new int[128]), intValue(n)),
                NdRange.of(128, 32), CounterPlan.Mode.ATOMIC);
        long returning = 0;
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                returning++;
            }
        }
        Map<String, Long> got = KernelSuiteTest.byName(r);
        assertEquals(n + (n - returning), got.get(Suite.GS));
        assertEquals(n - returning, got.get(Suite.GL));
    }

    /** A kernel with goto runs uninstrumented, with a warning naming the line, and still computes its result. */
    @Test
    void unsupportedKernelRunsUninstrumentedWithAWarning() throws Exception {
        Path file = SuiteKernel.dir().resolve("goto.cl");
        KernelRunner runner = new KernelRunner(TestDevice.session(), file.toString(), Files.readString(file),
                "clampneg");
        int[] data = {-3, 4, -1, 7, 0, -9, 2, 5};
        KernelArgument.Host buf = ints(data);
        CounterResult r = runner.count(List.of(buf, intValue(6)), NdRange.of(8, 0), CounterPlan.Mode.ATOMIC);
        assertFalse(r.instrumented());
        assertNull(r.plan());
        assertNotNull(r.warning());
        assertTrue(r.warning().contains("goto.cl:4:9"), r.warning());
        assertArrayEquals(new int[] {0, 4, 0, 7, 0, 0, 2, 5}, KernelArgument.asInts(buf));
    }

    /** Cycles without a recorded edge of their own (for (;;), continue, while (1), do) still rebuild exactly. */
    @Test
    void loopsWithoutOwnRecordedEdgeRebuild() throws Exception {
        Path file = SuiteKernel.dir().resolve("loops.cl");
        KernelRunner runner = new KernelRunner(TestDevice.session(), file.toString(), Files.readString(file), "loops");
        assertTrue(runner.tracepoints(true).blockPoints().cardinality() > 0, "the for (;;) cycle gets a block point");
        TraceResult naive = runner.trace(List.of(ints(new int[96]), intValue(3)), NdRange.of(96, 32),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, false));
        TraceResult reduced = runner.trace(List.of(ints(new int[96]), intValue(3)), NdRange.of(96, 32),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true));
        assertTrue(reduced.totalRecords() < naive.totalRecords());
        for (int p = 0; p < 96; p++) {
            assertArrayEquals(naive.paths()[p], reduced.paths()[p], "work-item " + p);
        }
    }
}
