package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_program;

/**
 * Host-side cost of tracing one call: sets a kernel argument {@code calls} times (no command reaches the device)
 * and prints the loop time. Argument: calls (default 1000000).
 */
public final class ApiCallLoop {
    private static final String SOURCE = "__kernel void k(int v, __global int* x) { x[0] = v; }";

    public static void main(String[] args) {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        try (OpenCl cl = new OpenCl(true)) {
            cl_program program = cl.build(SOURCE);
            cl_kernel kernel = cl.kernel(program, "k");
            int[] value = new int[1];
            Pointer p = Pointer.to(value);
            // warm up (JIT) before timing
            for (int i = 0; i < calls / 10; i++) {
                value[0] = i;
                c("clSetKernelArg", clSetKernelArg(kernel, 0, Sizeof.cl_int, p));
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                value[0] = i;
                c("clSetKernelArg", clSetKernelArg(kernel, 0, Sizeof.cl_int, p));
            }
            long t1 = System.nanoTime();
            c("clReleaseKernel", clReleaseKernel(kernel));
            c("clReleaseProgram", clReleaseProgram(program));
            CallLog.report();
            System.out.println("api call loop ok: calls=" + calls + " seconds=" + (t1 - t0) / 1e9);
        }
    }
}
