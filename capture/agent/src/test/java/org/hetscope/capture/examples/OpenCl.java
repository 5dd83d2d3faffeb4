package org.hetscope.capture.examples;

import static org.hetscope.capture.examples.CallLog.c;
import static org.jocl.CL.*;

import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;
import org.jocl.cl_queue_properties;

/**
 * The set-up every example shares: first platform, first device, a context, one command queue created without
 * profiling (the agent switches it on), and building a program. Every OpenCL call is counted in {@link CallLog}.
 */
final class OpenCl implements AutoCloseable {
    final cl_platform_id platform;
    final cl_device_id device;
    final cl_context context;
    final cl_command_queue queue;

    OpenCl(boolean legacyQueue) {
        CL.setExceptionsEnabled(true);
        int[] n = new int[1];
        c("clGetPlatformIDs", clGetPlatformIDs(0, null, n));
        cl_platform_id[] platforms = new cl_platform_id[n[0]];
        c("clGetPlatformIDs", clGetPlatformIDs(platforms.length, platforms, null));
        platform = platforms[0];
        c("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, null, n));
        cl_device_id[] devices = new cl_device_id[n[0]];
        c("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices.length, devices, null));
        device = devices[0];
        cl_context_properties props = new cl_context_properties();
        props.addProperty(CL_CONTEXT_PLATFORM, platform);
        context = c("clCreateContext", clCreateContext(props, 1, new cl_device_id[] {device}, null, null, null));
        if (legacyQueue) {
            queue = c("clCreateCommandQueue", clCreateCommandQueue(context, device, 0, null));
        } else {
            queue = c("clCreateCommandQueueWithProperties",
                    clCreateCommandQueueWithProperties(context, device, new cl_queue_properties(), null));
        }
    }

    cl_program build(String source) {
        cl_program p = c("clCreateProgramWithSource",
                clCreateProgramWithSource(context, 1, new String[] {source}, null, null));
        c("clBuildProgram", clBuildProgram(p, 0, null, null, null, null));
        return p;
    }

    cl_kernel kernel(cl_program p, String name) {
        return c("clCreateKernel", clCreateKernel(p, name, null));
    }

    static void arg(cl_kernel k, int index, long size, Pointer value) {
        c("clSetKernelArg", clSetKernelArg(k, index, size, value));
    }

    static void memArg(cl_kernel k, int index, org.jocl.cl_mem mem) {
        arg(k, index, Sizeof.cl_mem, Pointer.to(mem));
    }

    @Override
    public void close() {
        c("clReleaseCommandQueue", clReleaseCommandQueue(queue));
        c("clReleaseContext", clReleaseContext(context));
    }
}
