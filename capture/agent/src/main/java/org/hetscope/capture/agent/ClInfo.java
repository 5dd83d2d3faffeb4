package org.hetscope.capture.agent;

import java.nio.charset.StandardCharsets;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;

/**
 * The OpenCL queries the agent makes for itself (device properties, build logs, event profiling). They run while
 * the calling thread's depth is above 0, so they never show up as the program's calls; errors give defaults.
 */
final class ClInfo {
    private ClInfo() {}

    static String platformString(cl_platform_id p, int param) {
        try {
            long[] size = new long[1];
            CL.clGetPlatformInfo(p, param, 0, null, size);
            byte[] b = new byte[(int) size[0]];
            CL.clGetPlatformInfo(p, param, b.length, Pointer.to(b), null);
            return cString(b);
        } catch (RuntimeException e) {
            return "";
        }
    }

    static String deviceString(cl_device_id d, int param) {
        try {
            long[] size = new long[1];
            CL.clGetDeviceInfo(d, param, 0, null, size);
            byte[] b = new byte[(int) size[0]];
            CL.clGetDeviceInfo(d, param, b.length, Pointer.to(b), null);
            return cString(b);
        } catch (RuntimeException e) {
            return "";
        }
    }

    static long deviceLong(cl_device_id d, int param, int size) {
        try {
            long[] v = new long[1];
            if (size == Sizeof.cl_uint) {
                int[] i = new int[1];
                CL.clGetDeviceInfo(d, param, Sizeof.cl_uint, Pointer.to(i), null);
                return i[0] & 0xFFFFFFFFL;
            }
            CL.clGetDeviceInfo(d, param, Sizeof.cl_ulong, Pointer.to(v), null);
            return v[0];
        } catch (RuntimeException e) {
            return 0;
        }
    }

    static long devicePlatform(cl_device_id d) {
        try {
            cl_platform_id p = new cl_platform_id();
            CL.clGetDeviceInfo(d, CL.CL_DEVICE_PLATFORM, Sizeof.cl_platform_id, Pointer.to(p), null);
            return p.getNativePointer();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /**
     * A {@code clGetMemObjectInfo} or (with {@code image}) {@code clGetImageInfo} value of {@code size} bytes
     * (4 for cl_uint/cl_mem_object_type, 8 for size_t, handles and flags), as a long; 0 when the query fails.
     */
    static long memLong(cl_mem m, int param, int size, boolean image) {
        try {
            if (size == Sizeof.cl_uint) {
                int[] i = new int[1];
                if (image) {
                    CL.clGetImageInfo(m, param, Sizeof.cl_uint, Pointer.to(i), null);
                } else {
                    CL.clGetMemObjectInfo(m, param, Sizeof.cl_uint, Pointer.to(i), null);
                }
                return i[0] & 0xFFFFFFFFL;
            }
            long[] v = new long[1];
            if (image) {
                CL.clGetImageInfo(m, param, Sizeof.cl_ulong, Pointer.to(v), null);
            } else {
                CL.clGetMemObjectInfo(m, param, Sizeof.cl_ulong, Pointer.to(v), null);
            }
            return v[0];
        } catch (RuntimeException e) {
            return 0;
        }
    }

    static cl_device_id[] contextDevices(cl_context c) {
        try {
            int[] n = new int[1];
            CL.clGetContextInfo(c, CL.CL_CONTEXT_NUM_DEVICES, Sizeof.cl_uint, Pointer.to(n), null);
            cl_device_id[] ds = new cl_device_id[n[0]];
            CL.clGetContextInfo(c, CL.CL_CONTEXT_DEVICES, (long) Sizeof.cl_device_id * n[0], Pointer.to(ds), null);
            return ds;
        } catch (RuntimeException e) {
            return new cl_device_id[0];
        }
    }

    static cl_device_id[] programDevices(cl_program p) {
        try {
            int[] n = new int[1];
            CL.clGetProgramInfo(p, CL.CL_PROGRAM_NUM_DEVICES, Sizeof.cl_uint, Pointer.to(n), null);
            cl_device_id[] ds = new cl_device_id[n[0]];
            CL.clGetProgramInfo(p, CL.CL_PROGRAM_DEVICES, (long) Sizeof.cl_device_id * n[0], Pointer.to(ds), null);
            return ds;
        } catch (RuntimeException e) {
            return new cl_device_id[0];
        }
    }

    static int buildStatus(cl_program p, cl_device_id d) {
        try {
            int[] s = new int[1];
            CL.clGetProgramBuildInfo(p, d, CL.CL_PROGRAM_BUILD_STATUS, Sizeof.cl_int, Pointer.to(s), null);
            return s[0];
        } catch (RuntimeException e) {
            return Integer.MIN_VALUE;
        }
    }

    static String buildLog(cl_program p, cl_device_id d) {
        try {
            long[] size = new long[1];
            CL.clGetProgramBuildInfo(p, d, CL.CL_PROGRAM_BUILD_LOG, 0, null, size);
            byte[] b = new byte[(int) size[0]];
            CL.clGetProgramBuildInfo(p, d, CL.CL_PROGRAM_BUILD_LOG, b.length, Pointer.to(b), null);
            return cString(b);
        } catch (RuntimeException e) {
            return "";
        }
    }

    static String kernelName(cl_kernel k) {
        try {
            long[] size = new long[1];
            CL.clGetKernelInfo(k, CL.CL_KERNEL_FUNCTION_NAME, 0, null, size);
            byte[] b = new byte[(int) size[0]];
            CL.clGetKernelInfo(k, CL.CL_KERNEL_FUNCTION_NAME, b.length, Pointer.to(b), null);
            return cString(b);
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** CL_EVENT_COMMAND_EXECUTION_STATUS: 0 complete, above 0 still pending, below 0 an error. */
    static int eventStatus(cl_event e, int[] scratch, Pointer to) {
        try {
            int r = CL.clGetEventInfo(e, CL.CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int, to, null);
            return r == CL.CL_SUCCESS ? scratch[0] : r;
        } catch (RuntimeException ex) {
            return Integer.MIN_VALUE;
        }
    }

    static long profiling(cl_event e, int param, java.nio.ByteBuffer scratch, Pointer to) {
        try {
            int r = CL.clGetEventProfilingInfo(e, param, Sizeof.cl_ulong, to, null);
            return r == CL.CL_SUCCESS ? scratch.getLong(0) : 0;
        } catch (RuntimeException ex) {
            return 0;
        }
    }

    /** The OpenCL result of the profiling query; the value is left in {@code scratch}. */
    static int profilingCode(cl_event e, int param, java.nio.ByteBuffer scratch, Pointer to) {
        try {
            scratch.putLong(0, 0);
            return CL.clGetEventProfilingInfo(e, param, Sizeof.cl_ulong, to, null);
        } catch (org.jocl.CLException ex) {
            return ex.getStatus();
        } catch (RuntimeException ex) {
            return Integer.MIN_VALUE;
        }
    }

    static void release(cl_event e) {
        try {
            CL.clReleaseEvent(e);
        } catch (RuntimeException ex) {
            // the program may have released it too often; nothing to do
        }
    }

    private static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }
}
