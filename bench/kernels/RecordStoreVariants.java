import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hetscope.capture.kernels.run.OpenClSession;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

/**
 * Where the cost of a two-phase record goes on the OpenCL device: hand-written variants of vadd's recording pass
 * (one record per work-item below n), launched interleaved with the plain kernel, medians of device times.
 * Every variant takes the same buffers, so only the code differs.
 * Usage: java -cp CLASSPATH RecordStoreVariants.java ITEMS REPS
 */
public class RecordStoreVariants {
    static final String PID64 = "size_t hs_pid(void) { return (get_global_id(0) - get_global_offset(0))"
            + " + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1)"
            + " * (get_global_id(2) - get_global_offset(2))); }\n";
    static final String PID32 = "uint hs_pid(void) { return (uint) (get_global_id(0) - get_global_offset(0))"
            + " + (uint) get_global_size(0) * ((uint) (get_global_id(1) - get_global_offset(1))"
            + " + (uint) get_global_size(1) * (uint) (get_global_id(2) - get_global_offset(2))); }\n";
    static final String PARAMS = "__global uint *hs_rec, __global const uint *hs_off, __global const uint *hs_cnt,"
            + " __global uint *hs_written, __global const float *a, __global const float *b, __global float *c,"
            + " int n";
    static final String RESTRICTED = PARAMS.replace("uint *hs_", "uint * restrict hs_");
    static final String BODY = "int i = get_global_id(0); if (((i < n) ? (TP, 1) : 0)) { c[i] = a[i] + b[i]; }";

    static String kernel(String prelude, String params, String entry, String tp, String exit) {
        return prelude + "__kernel void k(" + params + ") { " + entry + " " + BODY.replace("TP", tp) + " " + exit
                + " }";
    }

    static Map<String, String> variants() {
        Map<String, String> v = new LinkedHashMap<>();
        String guarded = "(hs_k < hs_lim ? (hs_out[hs_k] = 2u) : 0u), hs_k++";
        String slicePointer = "uint hs_k = 0; uint hs_lim = hs_cnt[hs_p];"
                + " __global uint *hs_out = hs_rec + hs_off[hs_p];";
        v.put("plain", kernel("", PARAMS, "", "0", ""));
        v.put("before 6adf47f", kernel(PID64, PARAMS, "size_t hs_p = hs_pid(); " + slicePointer, guarded,
                "hs_written[hs_p] = hs_k;"));
        v.put("6adf47f cursor", kernel(PID64, PARAMS, "uint hs_c = hs_off[hs_pid()];"
                + " uint hs_end = hs_off[hs_pid() + 1];", "(hs_c < hs_end ? (hs_rec[hs_c] = 2u) : 0u), hs_c++",
                "hs_written[hs_pid()] = hs_c;"));
        v.put("32-bit id", kernel(PID32, PARAMS, "uint hs_p = hs_pid(); " + slicePointer, guarded,
                "hs_written[hs_p] = hs_k;"));
        v.put("no written store", kernel(PID64, PARAMS, "size_t hs_p = hs_pid(); " + slicePointer, guarded, ""));
        v.put("restrict", kernel(PID64, RESTRICTED, "size_t hs_p = hs_pid(); " + slicePointer, guarded,
                "hs_written[hs_p] = hs_k;"));
        v.put("signed 32-bit index", kernel(PID64, PARAMS, "size_t hs_p = hs_pid(); int hs_k = 0;"
                + " int hs_o = (int) hs_off[hs_p]; int hs_lim = (int) hs_cnt[hs_p];",
                "(hs_k < hs_lim ? (hs_rec[hs_o + hs_k] = 2u) : 0u), hs_k++", "hs_written[hs_p] = hs_k;"));
        v.put("scalar (volatile) store", kernel(PID64, PARAMS, "size_t hs_p = hs_pid(); uint hs_k = 0;"
                + " uint hs_lim = hs_cnt[hs_p]; volatile __global uint *hs_out = hs_rec + hs_off[hs_p];", guarded,
                "hs_written[hs_p] = hs_k;"));
        // not a valid trace layout: the same store to a contiguous address, to separate address from store cost
        v.put("contiguous address", kernel(PID64, PARAMS, "size_t hs_p = hs_pid(); uint hs_k = 0;"
                + " uint hs_lim = hs_cnt[hs_p]; __global uint *hs_out = hs_rec + hs_p;", guarded,
                "hs_written[hs_p] = hs_k;"));
        return v;
    }

    public static void main(String[] argv) {
        int items = Integer.parseInt(argv[0]);
        int reps = Integer.parseInt(argv[1]);
        int n = (int) (items * 1000L / 1024);
        int[] off = new int[items + 1];
        int[] cnt = new int[items];
        for (int p = 0; p < items; p++) {
            cnt[p] = p < n ? 1 : 0;
            off[p + 1] = off[p] + cnt[p];
        }
        try (OpenClSession s = OpenClSession.open()) {
            long bytes = (long) items * 4;
            cl_mem[] mems = {s.buffer(Math.max(items, 1) * 4L), s.buffer(ints(off)), s.buffer(ints(cnt)),
                s.buffer(bytes), s.buffer(bytes), s.buffer(bytes), s.buffer(bytes)};
            for (cl_mem m : List.of(mems[0], mems[3], mems[4], mems[5], mems[6])) {
                s.fill(m, 0, bytes);
            }
            s.finish();
            Map<String, cl_kernel> kernels = new LinkedHashMap<>();
            variants().forEach((name, src) -> {
                cl_kernel k = s.kernel(src, "k");
                for (int i = 0; i < mems.length; i++) {
                    CL.clSetKernelArg(k, i, Sizeof.cl_mem, Pointer.to(mems[i]));
                }
                CL.clSetKernelArg(k, mems.length, Sizeof.cl_int, Pointer.to(new int[] {n}));
                kernels.put(name, k);
            });
            Map<String, List<Long>> times = new LinkedHashMap<>();
            for (int r = 0; r < reps + 3; r++) {
                for (Map.Entry<String, cl_kernel> e : kernels.entrySet()) {
                    long t = s.launch(e.getValue(), new long[] {items}, new long[] {64}).duration();
                    if (r >= 3) {
                        times.computeIfAbsent(e.getKey(), x -> new ArrayList<>()).add(t);
                    }
                }
            }
            double plain = median(times.get("plain"));
            times.forEach((name, t) -> System.out.printf(Locale.ROOT, "%-24s %9.1f us  %.2fx%n", name,
                    median(t) / 1e3, median(t) / plain));
            kernels.values().forEach(CL::clReleaseKernel);
            for (cl_mem m : mems) {
                CL.clReleaseMemObject(m);
            }
        }
    }

    static byte[] ints(int[] v) {
        ByteBuffer bb = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bb.asIntBuffer().put(v);
        return bb.array();
    }

    static double median(List<Long> v) {
        long[] a = v.stream().mapToLong(Long::longValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2.0;
    }
}
