package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import java.nio.ByteBuffer;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * A transfer-heavy pipeline over {@code stages} blocks: write a block (non-blocking, with an event the program
 * owns), scale it with a kernel, copy it to a second buffer, read it back, and wait on the events; then fill and
 * map/unmap a buffer. Arguments: stages (default 16), block ints (default 262144).
 */
public final class TransferPipeline {
    private static final String SOURCE = """
            __kernel void scale(__global float* x, float f) { x[get_global_id(0)] *= f; }
            """;

    public static void main(String[] args) {
        int stages = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 262144;
        long bytes = (long) n * Sizeof.cl_float;
        // JOCL allows non-blocking transfers only from direct buffers
        java.nio.FloatBuffer in = ByteBuffer.allocateDirect((int) bytes).order(java.nio.ByteOrder.nativeOrder())
                .asFloatBuffer();
        java.nio.FloatBuffer out = ByteBuffer.allocateDirect((int) bytes).order(java.nio.ByteOrder.nativeOrder())
                .asFloatBuffer();
        try (OpenCl cl = new OpenCl(false)) {
            cl_program program = cl.build(SOURCE);
            cl_kernel kernel = cl.kernel(program, "scale");
            cl_mem work = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_WRITE, bytes, null, null));
            cl_mem copy = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_WRITE, bytes, null, null));
            OpenCl.memArg(kernel, 0, work);
            OpenCl.arg(kernel, 1, Sizeof.cl_float, Pointer.to(new float[] {3f}));
            for (int s = 0; s < stages; s++) {
                for (int i = 0; i < n; i++) {
                    in.put(i, s + i % 100);
                }
                cl_event written = new cl_event();
                c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, work, false, 0, bytes, Pointer.to(in), 0,
                        null, written));
                CallLog.transfer("HtoD", bytes);
                cl_event ran = new cl_event();
                c("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(cl.queue, kernel, 1, null, new long[] {n}, null,
                        1, new cl_event[] {written}, ran));
                CallLog.kernel();
                c("clEnqueueCopyBuffer", clEnqueueCopyBuffer(cl.queue, work, copy, 0, 0, bytes, 1,
                        new cl_event[] {ran}, null));
                CallLog.transfer("DtoD", bytes);
                cl_event read = new cl_event();
                c("clEnqueueReadBuffer", clEnqueueReadBuffer(cl.queue, copy, false, 0, bytes, Pointer.to(out), 0,
                        null, read));
                CallLog.transfer("DtoH", bytes);
                c("clWaitForEvents", clWaitForEvents(1, new cl_event[] {read}));
                for (int i = 0; i < n; i += 4099) {
                    CallLog.check(out.get(i) == 3f * in.get(i), "stage " + s + " x[" + i + "]");
                }
                c("clReleaseEvent", clReleaseEvent(written));
                c("clReleaseEvent", clReleaseEvent(ran));
                c("clReleaseEvent", clReleaseEvent(read));
            }
            c("clEnqueueFillBuffer", clEnqueueFillBuffer(cl.queue, work, Pointer.to(new float[] {7f}),
                    Sizeof.cl_float, 0, bytes, 0, null, null));
            CallLog.transfer("fill", bytes);
            ByteBuffer mapped = c("clEnqueueMapBuffer", clEnqueueMapBuffer(cl.queue, work, true, CL_MAP_READ, 0,
                    bytes, 0, null, null, null));
            CallLog.transfer("map", bytes);
            CallLog.check(mapped.order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer().get(n - 1) == 7f, "fill");
            c("clEnqueueUnmapMemObject", clEnqueueUnmapMemObject(cl.queue, work, mapped, 0, null, null));
            CallLog.transfer("unmap", bytes);
            c("clFinish", clFinish(cl.queue));
            c("clReleaseMemObject", clReleaseMemObject(work));
            c("clReleaseMemObject", clReleaseMemObject(copy));
            c("clReleaseKernel", clReleaseKernel(kernel));
            c("clReleaseProgram", clReleaseProgram(program));
        }
        CallLog.report();
        System.out.println("transfer pipeline ok: stages=" + stages + " block bytes=" + bytes);
    }
}
