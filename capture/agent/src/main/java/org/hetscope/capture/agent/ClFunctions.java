package org.hetscope.capture.agent;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenCL entry points of JOCL's {@code org.jocl.CL} that the agent traces, each with the small number that
 * {@code api_call} events carry (the CTF metadata maps the numbers back to names with an enumeration).
 * The numbering is part of the trace format: append new names, never reorder.
 */
public final class ClFunctions {
    private ClFunctions() {}

    /** Id of a function that is not in {@link #NAMES}. */
    public static final int UNKNOWN = 0xFFFF;

    public static final List<String> NAMES = List.of(
            "clBuildProgram",
            "clCompileProgram",
            "clCreateBuffer",
            "clCreateCommandQueue",
            "clCreateCommandQueueWithProperties",
            "clCreateContext",
            "clCreateContextFromType",
            "clCreateFromGLBuffer",
            "clCreateFromGLRenderbuffer",
            "clCreateFromGLTexture",
            "clCreateFromGLTexture2D",
            "clCreateFromGLTexture3D",
            "clCreateImage",
            "clCreateImage2D",
            "clCreateImage3D",
            "clCreateKernel",
            "clCreateKernelsInProgram",
            "clCreatePipe",
            "clCreateProgramWithBinary",
            "clCreateProgramWithBuiltInKernels",
            "clCreateProgramWithSource",
            "clCreateSampler",
            "clCreateSamplerWithProperties",
            "clCreateSubBuffer",
            "clCreateSubDevices",
            "clCreateUserEvent",
            "clEnqueueAcquireGLObjects",
            "clEnqueueBarrier",
            "clEnqueueBarrierWithWaitList",
            "clEnqueueCopyBuffer",
            "clEnqueueCopyBufferRect",
            "clEnqueueCopyBufferToImage",
            "clEnqueueCopyImage",
            "clEnqueueCopyImageToBuffer",
            "clEnqueueFillBuffer",
            "clEnqueueFillImage",
            "clEnqueueMapBuffer",
            "clEnqueueMapImage",
            "clEnqueueMarker",
            "clEnqueueMarkerWithWaitList",
            "clEnqueueMigrateMemObjects",
            "clEnqueueNDRangeKernel",
            "clEnqueueNativeKernel",
            "clEnqueueReadBuffer",
            "clEnqueueReadBufferRect",
            "clEnqueueReadImage",
            "clEnqueueReleaseGLObjects",
            "clEnqueueSVMFree",
            "clEnqueueSVMMap",
            "clEnqueueSVMMemFill",
            "clEnqueueSVMMemcpy",
            "clEnqueueSVMUnmap",
            "clEnqueueTask",
            "clEnqueueUnmapMemObject",
            "clEnqueueWaitForEvents",
            "clEnqueueWriteBuffer",
            "clEnqueueWriteBufferRect",
            "clEnqueueWriteImage",
            "clFinish",
            "clFlush",
            "clGetCommandQueueInfo",
            "clGetContextInfo",
            "clGetDeviceIDs",
            "clGetDeviceInfo",
            "clGetEventInfo",
            "clGetEventProfilingInfo",
            "clGetGLContextInfoAPPLE",
            "clGetGLObjectInfo",
            "clGetGLTextureInfo",
            "clGetImageInfo",
            "clGetKernelArgInfo",
            "clGetKernelInfo",
            "clGetKernelWorkGroupInfo",
            "clGetMemObjectInfo",
            "clGetPipeInfo",
            "clGetPlatformIDs",
            "clGetPlatformInfo",
            "clGetProgramBuildInfo",
            "clGetProgramInfo",
            "clGetSamplerInfo",
            "clGetSupportedImageFormats",
            "clLinkProgram",
            "clReleaseCommandQueue",
            "clReleaseContext",
            "clReleaseDevice",
            "clReleaseEvent",
            "clReleaseKernel",
            "clReleaseMemObject",
            "clReleaseProgram",
            "clReleaseSampler",
            "clRetainCommandQueue",
            "clRetainContext",
            "clRetainDevice",
            "clRetainEvent",
            "clRetainKernel",
            "clRetainMemObject",
            "clRetainProgram",
            "clRetainSampler",
            "clSVMAlloc",
            "clSVMFree",
            "clSetCommandQueueProperty",
            "clSetEventCallback",
            "clSetKernelArg",
            "clSetKernelArgSVMPointer",
            "clSetKernelExecInfo",
            "clSetMemObjectDestructorCallback",
            "clSetPrintfCallback",
            "clSetUserEventStatus",
            "clUnloadCompiler",
            "clUnloadPlatformCompiler",
            "clWaitForEvents"
    );

    private static final Map<String, Integer> IDS = new HashMap<>();

    static {
        for (int i = 0; i < NAMES.size(); i++) {
            IDS.put(NAMES.get(i), i);
        }
    }

    public static int id(String name) {
        return IDS.getOrDefault(name, UNKNOWN);
    }

    public static boolean traced(String name) {
        return IDS.containsKey(name);
    }
}
