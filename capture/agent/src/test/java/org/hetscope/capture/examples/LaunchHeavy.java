package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * Many tiny kernels in a loop (the worst case for a tracer): each adds 1 to 256 ints. Arguments: launches
 * (default 20000), and optionally {@code exit-after=N} or {@code throw-after=N} to end the program abruptly
 * (System.exit, or an uncaught exception) after N launches, without finishing the queue.
 */
public final class LaunchHeavy {
    private static final String SOURCE = """
            __kernel void inc(__global int* x) { x[get_global_id(0)] += 1; }
            """;

    public static void main(String[] args) {
        int launches = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        int exitAfter = -1;
        int throwAfter = -1;
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("exit-after=")) {
                exitAfter = Integer.parseInt(args[i].substring(11));
            } else if (args[i].startsWith("throw-after=")) {
                throwAfter = Integer.parseInt(args[i].substring(12));
            }
        }
        int n = 256;
        int[] host = new int[n];
        long bytes = (long) n * Sizeof.cl_int;
        long t0 = System.nanoTime();
        OpenCl cl = new OpenCl(true);
        cl_program program = cl.build(SOURCE);
        cl_kernel kernel = cl.kernel(program, "inc");
        cl_mem buf = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                Pointer.to(host), null));
        OpenCl.memArg(kernel, 0, buf);
        long[] global = {n};
        long[] local = {64};
        long loop0 = System.nanoTime();
        for (int i = 0; i < launches; i++) {
            if (i == exitAfter) {
                CallLog.report();
                System.exit(3);
            }
            if (i == throwAfter) {
                CallLog.report();
                throw new IllegalStateException("deliberate crash after " + i + " launches");
            }
            c("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(cl.queue, kernel, 1, null, global, local, 0, null,
                    null));
            CallLog.kernel();
        }
        c("clFinish", clFinish(cl.queue));
        long loop1 = System.nanoTime();
        c("clEnqueueReadBuffer", clEnqueueReadBuffer(cl.queue, buf, true, 0, bytes, Pointer.to(host), 0, null, null));
        CallLog.transfer("DtoH", bytes);
        for (int i = 0; i < n; i++) {
            CallLog.check(host[i] == launches, "x[" + i + "] = " + host[i] + ", expected " + launches);
        }
        c("clReleaseMemObject", clReleaseMemObject(buf));
        c("clReleaseKernel", clReleaseKernel(kernel));
        c("clReleaseProgram", clReleaseProgram(program));
        cl.close();
        long t1 = System.nanoTime();
        CallLog.report();
        // seconds: set-up, launches and clean-up; launch_loop_s: from the first launch to the end of clFinish
        System.out.println("launch heavy ok: launches=" + launches + " seconds=" + (t1 - t0) / 1e9
                + " launch_loop_s=" + (loop1 - loop0) / 1e9);
    }
}
