package org.hetscope.capture.kernels.run;

import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clSetKernelArg;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.hetscope.capture.kernels.cfg.UnsupportedKernelException;
import org.hetscope.capture.kernels.instrument.CounterInstrumenter;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.instrument.KernelScope;
import org.hetscope.capture.kernels.instrument.TraceCollector;
import org.hetscope.capture.kernels.instrument.TraceInstrumenter;
import org.hetscope.capture.kernels.instrument.TracePlan;
import org.hetscope.capture.kernels.instrument.Tracepoints;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.CType;
import org.hetscope.capture.kernels.lang.Parser;
import org.hetscope.capture.kernels.lang.Preprocessor;
import org.hetscope.capture.kernels.trace.CorruptTraceException;
import org.hetscope.capture.kernels.trace.PathReconstructor;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

/**
 * The Java API: runs one OpenCL C kernel plain, with counters, or traced, on an {@link OpenClSession}.
 * Arguments are given as the user's kernel declares them; instrumentation arguments are added in front.
 * A kernel the instrumenter cannot handle runs uninstrumented with a warning instead of failing.
 */
public final class KernelRunner {
    private static final Logger LOG = Logger.getLogger(KernelRunner.class.getName());
    private static final int CANARY = 0x5eed_cafe;

    private final OpenClSession session;
    private final Ast.TranslationUnit unit;
    private final String kernel;
    private final String source;
    private final Map<String, Object> plans = new HashMap<>();
    private KernelScope scope;
    private UnsupportedKernelException unsupported;

    public KernelRunner(OpenClSession session, String file, String source, String kernel) {
        this(session, Parser.parse(new Preprocessor().run(file, source)), source, kernel);
    }

    public KernelRunner(OpenClSession session, Ast.TranslationUnit unit, String source, String kernel) {
        this.session = session;
        this.unit = unit;
        this.source = source;
        this.kernel = kernel;
        try {
            scope = KernelScope.of(unit, kernel);
        } catch (UnsupportedKernelException e) {
            unsupported = e;
        }
    }

    public Ast.TranslationUnit unit() {
        return unit;
    }

    /** The kernel scope, or null when the kernel cannot be instrumented. */
    public KernelScope scope() {
        return scope;
    }

    public OpenClSession session() {
        return session;
    }

    /** Why the kernel cannot be instrumented, or null. */
    public UnsupportedKernelException unsupported() {
        return unsupported;
    }

    // ---- argument binding

    private final class Bound implements AutoCloseable {
        final List<cl_mem> mems = new ArrayList<>();
        final List<cl_mem> owned = new ArrayList<>();
        final List<KernelArgument> args;

        Bound(List<KernelArgument> args) {
            Ast.FunctionDef f = unit.function(kernel);
            if (args.size() != f.params().size()) {
                throw new IllegalArgumentException("kernel " + kernel + " takes " + f.params().size()
                        + " arguments, " + args.size() + " given");
            }
            this.args = args;
            for (KernelArgument a : args) {
                switch (a) {
                    case KernelArgument.Host h -> {
                        cl_mem m = session.buffer(h.bytes());
                        owned.add(m);
                        mems.add(m);
                    }
                    case KernelArgument.Device d -> mems.add(d.mem());
                    default -> mems.add(null);
                }
            }
        }

        void set(cl_kernel k, int offset) {
            for (int i = 0; i < args.size(); i++) {
                int idx = i + offset;
                switch (args.get(i)) {
                    case KernelArgument.Host h -> clSetKernelArg(k, idx, Sizeof.cl_mem, Pointer.to(mems.get(i)));
                    case KernelArgument.Device d -> clSetKernelArg(k, idx, Sizeof.cl_mem, Pointer.to(d.mem()));
                    case KernelArgument.Scalar s -> clSetKernelArg(k, idx, s.bytes().length, Pointer.to(s.bytes()));
                    case KernelArgument.Local l -> clSetKernelArg(k, idx, l.bytes(), null);
                }
            }
        }

        long size(int i) {
            return switch (args.get(i)) {
                case KernelArgument.Host h -> h.bytes().length;
                case KernelArgument.Device d -> d.bytes();
                default -> 0;
            };
        }

        /** Buffers the kernel may write: non-const __global pointer parameters. */
        List<Integer> writable() {
            List<Integer> out = new ArrayList<>();
            Ast.FunctionDef f = unit.function(kernel);
            for (int i = 0; i < args.size(); i++) {
                Ast.VarDecl p = f.params().get(i);
                if (mems.get(i) != null && p.type() instanceof CType.Pointer ptr
                        && ptr.space() == org.hetscope.capture.kernels.lang.Space.GLOBAL && !p.isConst()) {
                    out.add(i);
                }
            }
            return out;
        }

        void readBack() {
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) instanceof KernelArgument.Host h) {
                    session.read(mems.get(i), h.bytes());
                }
            }
        }

        @Override
        public void close() {
            owned.forEach(org.jocl.CL::clReleaseMemObject);
        }
    }

    private static void setMem(cl_kernel k, int idx, cl_mem m) {
        clSetKernelArg(k, idx, Sizeof.cl_mem, Pointer.to(m));
    }

    private static void setUint(cl_kernel k, int idx, long v) {
        clSetKernelArg(k, idx, Sizeof.cl_uint, Pointer.to(new int[] {(int) v}));
    }

    // ---- plain

    /** Runs the kernel as written; host buffers receive the results. */
    public OpenClSession.Timing runPlain(List<KernelArgument> args, NdRange range) {
        try (Bound b = new Bound(args)) {
            cl_kernel k = session.kernel(source(), kernel);
            try {
                b.set(k, 0);
                OpenClSession.Timing t = session.launch(k, range.global(), range.local());
                b.readBack();
                return t;
            } finally {
                clReleaseKernel(k);
            }
        }
    }

    private String plainSource;

    /** The kernel as the compiler gets it uninstrumented: the preprocessed tokens, like every variant. */
    public String source() {
        if (plainSource == null) {
            plainSource = new org.hetscope.capture.kernels.instrument.Rewriter(unit.tokens()).render();
        }
        return plainSource;
    }

    // ---- counters

    public CounterPlan counterPlan(CounterPlan.Mode mode) {
        if (scope == null) {
            return null;
        }
        return (CounterPlan) plans.computeIfAbsent("counters:" + mode,
                k -> CounterInstrumenter.instrument(scope, mode));
    }

    /** Runs the counter-instrumented kernel; falls back to a plain run with a warning when unsupported. */
    public CounterResult count(List<KernelArgument> args, NdRange range, CounterPlan.Mode mode) {
        if (mode == CounterPlan.Mode.ATOMIC && !session.hasExtension("cl_khr_int64_base_atomics")) {
            mode = CounterPlan.Mode.SLAB;
        }
        if (scope == null) {
            String warning = "kernel " + kernel + " runs uninstrumented: " + unsupported.getMessage();
            LOG.warning(warning);
            OpenClSession.Timing t = runPlain(args, range);
            return new CounterResult(null, range, new long[0], null, null, null, null, null, t, warning);
        }
        CounterPlan plan = counterPlan(mode);
        int n = Math.max(1, plan.counters().size());
        long items = range.workItems();
        long slots = mode == CounterPlan.Mode.SLAB ? n * items : n;
        try (Bound b = new Bound(args)) {
            cl_mem counters = session.buffer(slots * 8);
            cl_kernel k = session.kernel(plan.source(), kernel);
            try {
                session.fill(counters, 0, slots * 8);
                setMem(k, 0, counters);
                b.set(k, 1);
                OpenClSession.Timing t = session.launch(k, range.global(), range.local());
                byte[] raw = new byte[(int) (slots * 8)];
                session.read(counters, raw);
                b.readBack();
                long[] values = new long[(int) slots];
                ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(values);
                int c = plan.counters().size();
                if (mode == CounterPlan.Mode.ATOMIC) {
                    return new CounterResult(plan, range, Arrays.copyOf(values, c), null, null, null, null, null, t,
                            null);
                }
                long[] totals = new long[c];
                long[] min = new long[c];
                long[] max = new long[c];
                long[] minItem = new long[c];
                long[] maxItem = new long[c];
                Arrays.fill(min, Long.MAX_VALUE);
                Arrays.fill(max, Long.MIN_VALUE);
                for (long item = 0; item < items; item++) {
                    for (int j = 0; j < c; j++) {
                        long v = values[(int) (item * n + j)];
                        totals[j] += v;
                        if (v < min[j]) {
                            min[j] = v;
                            minItem[j] = item;
                        }
                        if (v > max[j]) {
                            max[j] = v;
                            maxItem[j] = item;
                        }
                    }
                }
                return new CounterResult(plan, range, totals, values, min, max, minItem, maxItem, t, null);
            } finally {
                clReleaseKernel(k);
                clReleaseMemObject(counters);
            }
        }
    }

    // ---- traces

    public Tracepoints tracepoints(boolean reduced) {
        return tracepoints(reduced, false);
    }

    public Tracepoints tracepoints(boolean reduced, boolean trips) {
        if (scope == null) {
            throw unsupported;
        }
        return (Tracepoints) plans.computeIfAbsent("points:" + reduced + ":" + trips,
                k -> trips ? Tracepoints.withTripCounts(scope.cfg())
                        : reduced ? Tracepoints.reduced(scope.cfg()) : Tracepoints.naive(scope.cfg()));
    }

    public TracePlan tracePlan(boolean reduced, TraceCollector collector, int chunkRecords) {
        return tracePlan(reduced, false, collector, chunkRecords);
    }

    public TracePlan tracePlan(boolean reduced, boolean trips, TraceCollector collector, int chunkRecords) {
        Tracepoints points = tracepoints(reduced, trips);
        return (TracePlan) plans.computeIfAbsent("trace:" + reduced + ":" + trips + ":" + collector + ":"
                        + chunkRecords,
                k -> TraceInstrumenter.instrument(scope, points, collector, chunkRecords));
    }

    /** Traces one launch; throws {@link UnsupportedKernelException} when the kernel cannot be instrumented. */
    public TraceResult trace(List<KernelArgument> args, NdRange range, TraceOptions options) {
        if (scope == null) {
            throw unsupported;
        }
        try (Bound b = new Bound(args)) {
            return switch (options.strategy()) {
                case TWO_PHASE -> twoPhase(b, range, options);
                case SHARED -> shared(b, range, options);
                case SUBBUFFER -> subBuffer(b, range, options);
            };
        }
    }

    /**
     * The records each work-item writes when traced with these tracepoints, from the counting pass of two-phase
     * tracing alone: what sizes the single-pass strategies' buffers so that nothing is lost. The arguments are bound
     * afresh and never read back, so host buffers are left as they were; arguments already on the device would be
     * changed by the run and are refused.
     */
    public long[] recordCounts(List<KernelArgument> args, NdRange range, boolean reduced, boolean trips) {
        if (scope == null) {
            throw unsupported;
        }
        if (args.stream().anyMatch(a -> a instanceof KernelArgument.Device)) {
            throw new IllegalArgumentException("a counting pass would change the device buffers given");
        }
        int producers = Math.toIntExact(range.workItems());
        try (Bound b = new Bound(args)) {
            TracePlan countPlan = tracePlan(reduced, trips, TraceCollector.COUNT, 0);
            cl_mem countBuf = session.buffer((long) producers * 4);
            cl_kernel kc = session.kernel(countPlan.source(), kernel);
            try {
                setMem(kc, 0, countBuf);
                b.set(kc, 1);
                session.launch(kc, range.global(), range.local());
                int[] counts = new int[producers];
                session.read(countBuf, counts);
                long[] out = new long[producers];
                for (int p = 0; p < producers; p++) {
                    out[p] = Integer.toUnsignedLong(counts[p]);
                }
                return out;
            } finally {
                clReleaseKernel(kc);
                clReleaseMemObject(countBuf);
            }
        }
    }

    private TraceResult twoPhase(Bound b, NdRange range, TraceOptions options) {
        int producers = Math.toIntExact(range.workItems());
        List<Integer> writable = b.writable();
        List<cl_mem> snapshots = new ArrayList<>();
        List<cl_mem> temp = new ArrayList<>();
        try {
            for (int i : writable) {
                cl_mem s = session.buffer(b.size(i));
                session.copy(b.mems.get(i), s, b.size(i));
                snapshots.add(s);
                temp.add(s);
            }
            TracePlan countPlan = tracePlan(options.reduced(), options.tripCounts(), TraceCollector.COUNT, 0);
            cl_mem countBuf = session.buffer((long) producers * 4);
            temp.add(countBuf);
            cl_kernel kc = session.kernel(countPlan.source(), kernel);
            OpenClSession.Timing tCount;
            try {
                setMem(kc, 0, countBuf);
                b.set(kc, 1);
                tCount = session.launch(kc, range.global(), range.local());
            } finally {
                clReleaseKernel(kc);
            }
            long host0 = System.nanoTime();
            int[] counts = new int[producers];
            session.read(countBuf, counts);
            int guard = options.canaries() ? 1 : 0;
            // offsets[p] .. offsets[p + 1] - guard is producer p's slice; the last entry closes the last slice
            int[] offsets = new int[producers + 1];
            long total = 0;
            long slots = 0;
            for (int p = 0; p < producers; p++) {
                offsets[p] = Math.toIntExact(slots);
                total += Integer.toUnsignedLong(counts[p]);
                slots += Integer.toUnsignedLong(counts[p]) + guard;
            }
            offsets[producers] = Math.toIntExact(slots);
            // OpenCL forbids zero-size buffers: one element when nothing was recorded
            long recSlots = Math.max(1, slots);
            cl_mem rec = session.buffer(recSlots * 4);
            cl_mem off = session.buffer(intBytes(offsets));
            cl_mem written = session.buffer((long) producers * 4);
            temp.addAll(List.of(rec, off, written));
            // The runtime copies the user's buffers in before a launch; the trace buffers are touched here as
            // well, so that a CPU device does not take their first-touch page faults inside the recording pass.
            session.fill(rec, options.canaries() ? CANARY : 0, recSlots * 4);
            session.fill(written, 0, (long) producers * 4);
            for (int s = 0; s < writable.size(); s++) {
                int i = writable.get(s);
                session.copy(snapshots.get(s), b.mems.get(i), b.size(i));
            }
            session.finish();
            long hostNanos = System.nanoTime() - host0;
            if (options.betweenPasses() != null) {
                options.betweenPasses().run(session, b.mems);
                session.finish();
            }
            TracePlan recPlan = tracePlan(options.reduced(), options.tripCounts(), TraceCollector.RECORD, 0);
            cl_kernel kr = session.kernel(recPlan.source(), kernel);
            OpenClSession.Timing tRec;
            try {
                setMem(kr, 0, rec);
                setMem(kr, 1, off);
                setMem(kr, 2, written);
                setUint(kr, 3, guard);
                b.set(kr, 4);
                tRec = session.launch(kr, range.global(), range.local());
            } finally {
                clReleaseKernel(kr);
            }
            int[] wrote = new int[producers];
            session.read(written, wrote);
            for (int p = 0; p < producers; p++) {
                wrote[p] -= offsets[p]; // the kernel stores its final cursor
            }
            int[] all = new int[(int) recSlots];
            session.read(rec, all);
            b.readBack();
            List<Long> differ = new ArrayList<>();
            boolean canariesIntact = true;
            int[][] records = new int[producers][];
            for (int p = 0; p < producers; p++) {
                if (wrote[p] != counts[p]) {
                    differ.add((long) p);
                }
                int n = Math.min(wrote[p], counts[p]);
                records[p] = Arrays.copyOfRange(all, offsets[p], offsets[p] + n);
                if (options.canaries() && all[offsets[p] + counts[p]] != CANARY) {
                    canariesIntact = false;
                }
            }
            long bytes = recSlots * 4 + (2L * producers + 1) * 4;
            TraceResult r = finish(recPlan, options, range, records, total, 0, differ.isEmpty() && canariesIntact,
                    differ, tCount.duration() + tRec.duration(), tRec.duration(), hostNanos, bytes,
                    tCount.duration(), canariesIntact, tRec.start());
            return r;
        } finally {
            temp.forEach(org.jocl.CL::clReleaseMemObject);
        }
    }

    private TraceResult shared(Bound b, NdRange range, TraceOptions options) {
        int producers = Math.toIntExact(range.workItems());
        long cap = options.sharedCapacity(producers);
        TracePlan plan = tracePlan(options.reduced(), options.tripCounts(), TraceCollector.SHARED, 0);
        cl_mem rec = session.buffer(cap * 12);
        cl_mem head = session.buffer(4);
        cl_kernel k = session.kernel(plan.source(), kernel);
        try {
            session.fill(head, 0, 4);
            setMem(k, 0, rec);
            setMem(k, 1, head);
            setUint(k, 2, cap);
            b.set(k, 3);
            OpenClSession.Timing t = session.launch(k, range.global(), range.local());
            int[] h = new int[1];
            session.read(head, h);
            long used = Math.min(Integer.toUnsignedLong(h[0]), cap);
            int[] all = new int[(int) (used * 3)];
            session.read(rec, all);
            b.readBack();
            long lost = Integer.toUnsignedLong(h[0]) - used;
            // per-producer streams: sort each producer's (seq, id) pairs by seq
            int[] perProducer = new int[producers];
            for (long r = 0; r < used; r++) {
                perProducer[all[(int) (3 * r)]]++;
            }
            long[][] keyed = new long[producers][];
            for (int p = 0; p < producers; p++) {
                keyed[p] = new long[perProducer[p]];
            }
            int[] fill = new int[producers];
            for (long r = 0; r < used; r++) {
                int p = all[(int) (3 * r)];
                keyed[p][fill[p]++] = ((long) all[(int) (3 * r + 1)] << 32) | Integer.toUnsignedLong(all[(int) (3 * r + 2)]);
            }
            int[][] records = new int[producers][];
            for (int p = 0; p < producers; p++) {
                Arrays.sort(keyed[p]);
                records[p] = new int[keyed[p].length];
                for (int j = 0; j < keyed[p].length; j++) {
                    records[p][j] = (int) keyed[p][j];
                }
            }
            return finish(plan, options, range, records, used, lost, lost == 0, List.of(), t.duration(),
                    t.duration(), 0, cap * 12 + 4, 0, true, t.start());
        } finally {
            clReleaseKernel(k);
            clReleaseMemObject(rec);
            clReleaseMemObject(head);
        }
    }

    private TraceResult subBuffer(Bound b, NdRange range, TraceOptions options) {
        int producers = Math.toIntExact(range.workItems());
        int c = options.chunkRecords();
        long chunks = options.chunks(producers);
        int stride = c + 3;
        TracePlan plan = tracePlan(options.reduced(), options.tripCounts(), TraceCollector.SUBBUFFER, c);
        cl_mem pool = session.buffer(chunks * stride * 4);
        cl_mem next = session.buffer(4);
        cl_mem lostBuf = session.buffer(4);
        cl_kernel k = session.kernel(plan.source(), kernel);
        try {
            session.fill(next, 0, 4);
            session.fill(lostBuf, 0, 4);
            setMem(k, 0, pool);
            setMem(k, 1, next);
            setUint(k, 2, chunks);
            setMem(k, 3, lostBuf);
            b.set(k, 4);
            OpenClSession.Timing t = session.launch(k, range.global(), range.local());
            int[] nx = new int[1];
            int[] ls = new int[1];
            session.read(next, nx);
            session.read(lostBuf, ls);
            long used = Math.min(Integer.toUnsignedLong(nx[0]), chunks);
            int[] all = new int[(int) (used * stride)];
            session.read(pool, all);
            b.readBack();
            List<List<int[]>> byProducer = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                byProducer.add(new ArrayList<>());
            }
            long total = 0;
            for (int ch = 0; ch < used; ch++) {
                int base = ch * stride;
                byProducer.get(all[base]).add(new int[] {all[base + 1], base});
                total += all[base + 2];
            }
            int[][] records = new int[producers][];
            for (int p = 0; p < producers; p++) {
                List<int[]> list = byProducer.get(p);
                list.sort((x, y) -> Integer.compare(x[0], y[0]));
                int n = 0;
                for (int[] e : list) {
                    n += all[e[1] + 2];
                }
                int[] out = new int[n];
                int w = 0;
                for (int[] e : list) {
                    int fill = all[e[1] + 2];
                    System.arraycopy(all, e[1] + 3, out, w, fill);
                    w += fill;
                }
                records[p] = out;
            }
            long lost = Integer.toUnsignedLong(ls[0]);
            return finish(plan, options, range, records, total, lost, lost == 0, List.of(), t.duration(),
                    t.duration(), 0, chunks * stride * 4 + 8, 0, true, t.start());
        } finally {
            clReleaseKernel(k);
            clReleaseMemObject(pool);
            clReleaseMemObject(next);
            clReleaseMemObject(lostBuf);
        }
    }

    private static byte[] intBytes(int[] v) {
        ByteBuffer bb = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bb.asIntBuffer().put(v);
        return bb.array();
    }

    private TraceResult finish(TracePlan plan, TraceOptions options, NdRange range, int[][] records, long total,
                               long lost, boolean valid, List<Long> nondeterministic, long kernelNanos,
                               long recordNanos, long hostNanos, long bytes, long countNanos,
                               boolean canariesIntact, long recordStart) {
        int[][] paths = new int[records.length][];
        List<String> failures = new ArrayList<>();
        if (lost == 0 && nondeterministic.isEmpty()) {
            for (int p = 0; p < records.length; p++) {
                try {
                    paths[p] = PathReconstructor.path(plan.points(), records[p]);
                } catch (CorruptTraceException e) {
                    failures.add("work-item " + p + ": " + e.getMessage());
                }
            }
        }
        return new TraceResult(plan, options, range, records, paths, total, lost, valid, nondeterministic, failures,
                kernelNanos, recordNanos, hostNanos, bytes, countNanos, canariesIntact, recordStart);
    }
}
