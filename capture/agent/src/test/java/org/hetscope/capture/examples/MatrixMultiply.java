package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/** C = A x B for n x n floats with 16 x 16 work-groups, run {@code reps} times. Arguments: n (256), reps (3). */
public final class MatrixMultiply {
    private static final String SOURCE = """
            __kernel void matmul(__global const float* a, __global const float* b, __global float* c, int n) {
                int row = get_global_id(1);
                int col = get_global_id(0);
                float acc = 0.0f;
                for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
                c[row * n + col] = acc;
            }
            """;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        float[] out = new float[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = (i + j) % 7;
                b[i * n + j] = (i == j) ? 2f : 0f;
            }
        }
        long bytes = (long) n * n * Sizeof.cl_float;
        try (OpenCl cl = new OpenCl(true)) {
            cl_program program = cl.build(SOURCE);
            cl_kernel kernel = cl.kernel(program, "matmul");
            cl_mem da = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    bytes, Pointer.to(a), null));
            cl_mem db = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_ONLY, bytes, null, null));
            cl_mem dc = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, bytes, null, null));
            c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, db, true, 0, bytes, Pointer.to(b), 0, null, null));
            CallLog.transfer("HtoD", bytes);
            OpenCl.memArg(kernel, 0, da);
            OpenCl.memArg(kernel, 1, db);
            OpenCl.memArg(kernel, 2, dc);
            OpenCl.arg(kernel, 3, Sizeof.cl_int, Pointer.to(new int[] {n}));
            for (int r = 0; r < reps; r++) {
                c("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(cl.queue, kernel, 2, null, new long[] {n, n},
                        new long[] {16, 16}, 0, null, null));
                CallLog.kernel();
            }
            c("clEnqueueReadBuffer", clEnqueueReadBuffer(cl.queue, dc, true, 0, bytes, Pointer.to(out), 0, null, null));
            CallLog.transfer("DtoH", bytes);
            for (int i = 0; i < n * n; i += 97) {
                CallLog.check(out[i] == 2f * a[i], "C[" + i + "]");
            }
            c("clReleaseMemObject", clReleaseMemObject(da));
            c("clReleaseMemObject", clReleaseMemObject(db));
            c("clReleaseMemObject", clReleaseMemObject(dc));
            c("clReleaseKernel", clReleaseKernel(kernel));
            c("clReleaseProgram", clReleaseProgram(program));
        }
        CallLog.report();
        System.out.println("matrix multiply ok: n=" + n + " reps=" + reps);
    }
}
