package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/** c = a + b on n floats: two writes, one kernel, one read. Argument: n (default 1M). */
public final class VectorAdd {
    private static final String SOURCE = """
            __kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
                int i = get_global_id(0);
                if (i < n) c[i] = a[i] + b[i];
            }
            """;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        float[] a = new float[n];
        float[] b = new float[n];
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
            b[i] = 2f * i;
        }
        long bytes = (long) n * Sizeof.cl_float;
        try (OpenCl cl = new OpenCl(false)) {
            cl_program program = cl.build(SOURCE);
            cl_kernel kernel = cl.kernel(program, "vadd");
            cl_mem da = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_ONLY, bytes, null, null));
            cl_mem db = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_ONLY, bytes, null, null));
            cl_mem dc = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, bytes, null, null));
            c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, da, true, 0, bytes, Pointer.to(a), 0, null, null));
            CallLog.transfer("HtoD", bytes);
            c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, db, true, 0, bytes, Pointer.to(b), 0, null, null));
            CallLog.transfer("HtoD", bytes);
            OpenCl.memArg(kernel, 0, da);
            OpenCl.memArg(kernel, 1, db);
            OpenCl.memArg(kernel, 2, dc);
            OpenCl.arg(kernel, 3, Sizeof.cl_int, Pointer.to(new int[] {n}));
            c("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(cl.queue, kernel, 1, null, new long[] {n},
                    new long[] {64}, 0, null, null));
            CallLog.kernel();
            c("clEnqueueReadBuffer", clEnqueueReadBuffer(cl.queue, dc, true, 0, bytes, Pointer.to(out), 0, null, null));
            CallLog.transfer("DtoH", bytes);
            c("clFinish", clFinish(cl.queue));
            for (int i = 0; i < n; i += Math.max(1, n / 1000)) {
                CallLog.check(out[i] == 3f * i, "c[" + i + "] = " + out[i]);
            }
            c("clReleaseMemObject", clReleaseMemObject(da));
            c("clReleaseMemObject", clReleaseMemObject(db));
            c("clReleaseMemObject", clReleaseMemObject(dc));
            c("clReleaseKernel", clReleaseKernel(kernel));
            c("clReleaseProgram", clReleaseProgram(program));
        }
        CallLog.report();
        System.out.println("vector add ok: n=" + n);
    }
}
