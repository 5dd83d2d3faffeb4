package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_buffer_region;
import org.jocl.cl_image_desc;
import org.jocl.cl_image_format;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * The memory objects beside plain buffers: a buffer split into two sub-buffers (written separately, one scaled
 * by a kernel, the parent read back whole), rectangle transfers, and a 2-D RGBA float image written, filled,
 * copied to another image and to a buffer, and read back. Arguments: floats per half (default 65536), image
 * width and height (default 64 32).
 */
public final class SubBuffersAndImages {
    private static final String SOURCE = """
            __kernel void scale(__global float* x, float f) { x[get_global_id(0)] *= f; }
            """;

    public static void main(String[] args) {
        int half = args.length > 0 ? Integer.parseInt(args[0]) : 65536;
        int w = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int h = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        long halfBytes = (long) half * Sizeof.cl_float;
        long pixel = 4L * Sizeof.cl_float; // CL_RGBA x CL_FLOAT
        long imageBytes = w * h * pixel;
        try (OpenCl cl = new OpenCl(false)) {
            cl_program program = cl.build(SOURCE);
            cl_kernel kernel = cl.kernel(program, "scale");

            cl_mem whole = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_WRITE, 2 * halfBytes, null,
                    null));
            cl_mem lo = c("clCreateSubBuffer", clCreateSubBuffer(whole, CL_MEM_READ_WRITE,
                    CL_BUFFER_CREATE_TYPE_REGION, new cl_buffer_region(0, halfBytes), null));
            cl_mem hi = c("clCreateSubBuffer", clCreateSubBuffer(whole, CL_MEM_READ_WRITE,
                    CL_BUFFER_CREATE_TYPE_REGION, new cl_buffer_region(halfBytes, halfBytes), null));
            float[] a = new float[half];
            float[] b = new float[half];
            for (int i = 0; i < half; i++) {
                a[i] = i % 97;
                b[i] = 1000 + i % 89;
            }
            c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, lo, true, 0, halfBytes, Pointer.to(a), 0, null,
                    null));
            CallLog.transfer("HtoD", halfBytes);
            c("clEnqueueWriteBuffer", clEnqueueWriteBuffer(cl.queue, hi, true, 0, halfBytes, Pointer.to(b), 0, null,
                    null));
            CallLog.transfer("HtoD", halfBytes);
            OpenCl.memArg(kernel, 0, lo);
            OpenCl.arg(kernel, 1, Sizeof.cl_float, Pointer.to(new float[] {2f}));
            c("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(cl.queue, kernel, 1, null, new long[] {half}, null, 0,
                    null, null));
            CallLog.kernel();
            float[] back = new float[2 * half];
            c("clEnqueueReadBuffer", clEnqueueReadBuffer(cl.queue, whole, true, 0, 2 * halfBytes, Pointer.to(back),
                    0, null, null));
            CallLog.transfer("DtoH", 2 * halfBytes);
            for (int i = 0; i < half; i += 1009) {
                CallLog.check(back[i] == 2 * a[i] && back[half + i] == b[i], "sub-buffers at " + i);
            }

            // a 16-byte x 8-row rectangle of the parent, as if it were 256-byte rows
            long[] region = {16, 8, 1};
            long rect = region[0] * region[1];
            float[] patch = new float[(int) rect / Sizeof.cl_float];
            java.util.Arrays.fill(patch, 5f);
            c("clEnqueueWriteBufferRect", clEnqueueWriteBufferRect(cl.queue, whole, true, new long[] {32, 2, 0},
                    new long[] {0, 0, 0}, region, 256, 0, 16, 0, Pointer.to(patch), 0, null, null));
            CallLog.transfer("HtoD", rect);
            c("clEnqueueCopyBufferRect", clEnqueueCopyBufferRect(cl.queue, whole, whole, new long[] {32, 2, 0},
                    new long[] {64, 2, 0}, region, 256, 0, 256, 0, 0, null, null));
            CallLog.transfer("DtoD", rect);
            float[] patchBack = new float[patch.length];
            c("clEnqueueReadBufferRect", clEnqueueReadBufferRect(cl.queue, whole, true, new long[] {64, 2, 0},
                    new long[] {0, 0, 0}, region, 256, 0, 16, 0, Pointer.to(patchBack), 0, null, null));
            CallLog.transfer("DtoH", rect);
            CallLog.check(patchBack[patch.length - 1] == 5f, "rectangle copy");

            cl_image_format format = new cl_image_format();
            format.image_channel_order = CL_RGBA;
            format.image_channel_data_type = CL_FLOAT;
            cl_image_desc desc = new cl_image_desc();
            desc.image_type = CL_MEM_OBJECT_IMAGE2D;
            desc.image_width = w;
            desc.image_height = h;
            cl_mem image = c("clCreateImage", clCreateImage(cl.context, CL_MEM_READ_WRITE, format, desc, null, null));
            cl_mem image2 = c("clCreateImage", clCreateImage(cl.context, CL_MEM_READ_WRITE, format, desc, null,
                    null));
            long[] origin = {0, 0, 0};
            long[] all = {w, h, 1};
            FloatBuffer pixels = ByteBuffer.allocateDirect((int) imageBytes).order(ByteOrder.nativeOrder())
                    .asFloatBuffer();
            for (int i = 0; i < pixels.capacity(); i++) {
                pixels.put(i, i % 251);
            }
            c("clEnqueueWriteImage", clEnqueueWriteImage(cl.queue, image, true, origin, all, 0, 0,
                    Pointer.to(pixels), 0, null, null));
            CallLog.transfer("HtoD", imageBytes);
            // fill the left half of the first row with (9, 9, 9, 9)
            long[] strip = {w / 2, 1, 1};
            c("clEnqueueFillImage", clEnqueueFillImage(cl.queue, image, Pointer.to(new float[] {9f, 9f, 9f, 9f}),
                    origin, strip, 0, null, null));
            CallLog.transfer("fill", strip[0] * pixel);
            c("clEnqueueCopyImage", clEnqueueCopyImage(cl.queue, image, image2, origin, origin, all, 0, null, null));
            CallLog.transfer("DtoD", imageBytes);
            cl_mem flat = c("clCreateBuffer", clCreateBuffer(cl.context, CL_MEM_READ_WRITE, imageBytes, null, null));
            c("clEnqueueCopyImageToBuffer", clEnqueueCopyImageToBuffer(cl.queue, image2, flat, origin, all, 0, 0,
                    null, null));
            CallLog.transfer("DtoD", imageBytes);
            c("clEnqueueCopyBufferToImage", clEnqueueCopyBufferToImage(cl.queue, flat, image, 0, origin, all, 0,
                    null, null));
            CallLog.transfer("DtoD", imageBytes);
            FloatBuffer read = ByteBuffer.allocateDirect((int) imageBytes).order(ByteOrder.nativeOrder())
                    .asFloatBuffer();
            c("clEnqueueReadImage", clEnqueueReadImage(cl.queue, image, true, origin, all, 0, 0, Pointer.to(read), 0,
                    null, null));
            CallLog.transfer("DtoH", imageBytes);
            CallLog.check(read.get(0) == 9f && read.get(read.capacity() - 1) == pixels.get(pixels.capacity() - 1),
                    "image round trip");
            c("clFinish", clFinish(cl.queue));

            c("clReleaseMemObject", clReleaseMemObject(flat));
            c("clReleaseMemObject", clReleaseMemObject(image2));
            c("clReleaseMemObject", clReleaseMemObject(image));
            c("clReleaseMemObject", clReleaseMemObject(lo));
            c("clReleaseMemObject", clReleaseMemObject(hi));
            c("clReleaseMemObject", clReleaseMemObject(whole));
            c("clReleaseKernel", clReleaseKernel(kernel));
            c("clReleaseProgram", clReleaseProgram(program));
        }
        CallLog.report();
        System.out.println("sub-buffers and images ok: half bytes=" + halfBytes + " image bytes=" + imageBytes);
    }
}
