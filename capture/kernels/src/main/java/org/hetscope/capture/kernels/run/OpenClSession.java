package org.hetscope.capture.kernels.run;

import static org.jocl.CL.*;

import java.util.HashMap;
import java.util.Map;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;
import org.jocl.cl_queue_properties;

/**
 * An OpenCL device opened through JOCL with a profiling command queue, and a cache of built programs (PoCL
 * compiles slowly, so each distinct source is built once per session). The device is the first one found,
 * or the one named by {@code HETSCOPE_OPENCL_DEVICE} (index in platform-then-device order).
 */
public final class OpenClSession implements AutoCloseable {
    private final cl_device_id device;
    private final cl_context context;
    private final cl_command_queue queue;
    private final Map<String, cl_program> programs = new HashMap<>();
    private final String name;
    private final String vendor;
    private final String version;
    private final String extensions;
    private final int computeUnits;
    private final long memory;

    private OpenClSession(cl_device_id device) {
        this.device = device;
        context = clCreateContext(null, 1, new cl_device_id[] {device}, null, null, null);
        cl_queue_properties props = new cl_queue_properties();
        props.addProperty(CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        queue = clCreateCommandQueueWithProperties(context, device, props, null);
        name = info(CL_DEVICE_NAME);
        vendor = info(CL_DEVICE_VENDOR);
        version = info(CL_DEVICE_VERSION);
        extensions = info(CL_DEVICE_EXTENSIONS);
        int[] cu = new int[1];
        clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, Sizeof.cl_uint, Pointer.to(cu), null);
        computeUnits = cu[0];
        long[] mem = new long[1];
        clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, Sizeof.cl_ulong, Pointer.to(mem), null);
        memory = mem[0];
    }

    /** Opens the default device; fails with a clear message when no OpenCL platform is installed. */
    public static OpenClSession open() {
        CL.setExceptionsEnabled(true);
        int wanted = Integer.parseInt(System.getenv().getOrDefault("HETSCOPE_OPENCL_DEVICE", "0"));
        int[] np = new int[1];
        try {
            clGetPlatformIDs(0, null, np);
        } catch (CLException | UnsatisfiedLinkError e) {
            throw new IllegalStateException("no OpenCL platform (install an ICD, e.g. pocl-opencl-icd): "
                    + e.getMessage(), e);
        }
        cl_platform_id[] platforms = new cl_platform_id[np[0]];
        clGetPlatformIDs(np[0], platforms, null);
        int index = 0;
        for (cl_platform_id p : platforms) {
            int[] nd = new int[1];
            try {
                clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, null, nd);
            } catch (CLException e) {
                continue;
            }
            cl_device_id[] devices = new cl_device_id[nd[0]];
            clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd[0], devices, null);
            for (cl_device_id d : devices) {
                if (index++ == wanted) {
                    return new OpenClSession(d);
                }
            }
        }
        throw new IllegalStateException("no OpenCL device number " + wanted + " (found " + index + ")");
    }

    private String info(int param) {
        long[] size = new long[1];
        clGetDeviceInfo(device, param, 0, null, size);
        byte[] buf = new byte[(int) size[0]];
        clGetDeviceInfo(device, param, buf.length, Pointer.to(buf), null);
        return new String(buf, 0, Math.max(0, buf.length - 1), java.nio.charset.StandardCharsets.UTF_8).trim();
    }

    public String deviceName() {
        return name;
    }

    public String vendor() {
        return vendor;
    }

    public String version() {
        return version;
    }

    public int computeUnits() {
        return computeUnits;
    }

    public long memoryBytes() {
        return memory;
    }

    public boolean hasExtension(String ext) {
        return (" " + extensions + " ").contains(" " + ext + " ");
    }

    public cl_context context() {
        return context;
    }

    public cl_command_queue queue() {
        return queue;
    }

    /** Builds (or takes from the cache) a program; a build failure gives the compiler log. */
    public cl_program program(String source) {
        cl_program p = programs.get(source);
        if (p != null) {
            return p;
        }
        p = clCreateProgramWithSource(context, 1, new String[] {source}, null, null);
        try {
            clBuildProgram(p, 1, new cl_device_id[] {device}, "", null, null);
        } catch (CLException e) {
            long[] size = new long[1];
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, null, size);
            byte[] log = new byte[(int) size[0]];
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
            clReleaseProgram(p);
            throw new KernelBuildException(new String(log, java.nio.charset.StandardCharsets.UTF_8).trim(), source);
        }
        programs.put(source, p);
        return p;
    }

    public cl_kernel kernel(String source, String name) {
        return clCreateKernel(program(source), name, null);
    }

    public cl_mem buffer(long bytes) {
        return clCreateBuffer(context, CL_MEM_READ_WRITE, Math.max(1, bytes), null, null);
    }

    public cl_mem buffer(byte[] data) {
        if (data.length == 0) {
            return buffer(1);
        }
        return clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.length, Pointer.to(data), null);
    }

    public void write(cl_mem mem, byte[] data) {
        if (data.length > 0) {
            clEnqueueWriteBuffer(queue, mem, true, 0, data.length, Pointer.to(data), 0, null, null);
        }
    }

    public void read(cl_mem mem, byte[] data) {
        if (data.length > 0) {
            clEnqueueReadBuffer(queue, mem, true, 0, data.length, Pointer.to(data), 0, null, null);
        }
    }

    public void read(cl_mem mem, int[] data) {
        if (data.length > 0) {
            clEnqueueReadBuffer(queue, mem, true, 0, (long) data.length * 4, Pointer.to(data), 0, null, null);
        }
    }

    public void copy(cl_mem from, cl_mem to, long bytes) {
        if (bytes > 0) {
            clEnqueueCopyBuffer(queue, from, to, 0, 0, bytes, 0, null, null);
        }
    }

    public void fill(cl_mem mem, int value, long bytes) {
        if (bytes > 0) {
            clEnqueueFillBuffer(queue, mem, Pointer.to(new int[] {value}), 4, 0, bytes, 0, null, null);
        }
    }

    /** Device start and end of one kernel execution, from the profiling event, in nanoseconds. */
    public record Timing(long start, long end) {
        public long duration() {
            return end - start;
        }
    }

    public Timing launch(cl_kernel kernel, long[] global, long[] local) {
        cl_event ev = new cl_event();
        clEnqueueNDRangeKernel(queue, kernel, global.length, null, global, local, 0, null, ev);
        clWaitForEvents(1, new cl_event[] {ev});
        long[] start = new long[1];
        long[] end = new long[1];
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(start), null);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(end), null);
        clReleaseEvent(ev);
        return new Timing(start[0], end[0]);
    }

    public void finish() {
        clFinish(queue);
    }

    @Override
    public void close() {
        programs.values().forEach(CL::clReleaseProgram);
        programs.clear();
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
}
