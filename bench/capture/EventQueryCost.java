import static org.jocl.CL.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;

/**
 * What device-time collection costs without the agent: tiny kernel launches with no event, with an event kept and
 * released afterwards, and with the event's four profiling times read before the release (what the agent's
 * collector does per command). Run: java --enable-native-access=ALL-UNNAMED -cp jocl-2.0.5.jar
 * bench/capture/EventQueryCost.java [launches]
 */
public class EventQueryCost {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30000;
        CL.setExceptionsEnabled(true);
        cl_platform_id[] ps = new cl_platform_id[1];
        clGetPlatformIDs(1, ps, null);
        cl_device_id[] ds = new cl_device_id[1];
        clGetDeviceIDs(ps[0], CL_DEVICE_TYPE_ALL, 1, ds, null);
        cl_context_properties cp = new cl_context_properties();
        cp.addProperty(CL_CONTEXT_PLATFORM, ps[0]);
        cl_context ctx = clCreateContext(cp, 1, ds, null, null, null);
        cl_command_queue q = clCreateCommandQueue(ctx, ds[0], CL_QUEUE_PROFILING_ENABLE, null);
        cl_program p = clCreateProgramWithSource(ctx, 1,
                new String[] {"__kernel void inc(__global int* x){x[get_global_id(0)]+=1;}"}, null, null);
        clBuildProgram(p, 0, null, null, null, null);
        cl_kernel k = clCreateKernel(p, "inc", null);
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, null, null);
        clSetKernelArg(k, 0, Sizeof.cl_mem, Pointer.to(m));
        Pointer value = Pointer.toBuffer(ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()));
        System.out.println("| mode | launch loop, us/launch | after clFinish, us/event |");
        System.out.println("|---|---|---|");
        for (int rep = 0; rep < 3; rep++) {
            for (String mode : new String[] {"no event", "event kept, released", "event kept, 4 times read, released"}) {
                cl_event[] evs = new cl_event[n];
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    cl_event e = mode.equals("no event") ? null : new cl_event();
                    clEnqueueNDRangeKernel(q, k, 1, null, new long[] {256}, new long[] {64}, 0, null, e);
                    evs[i] = e;
                }
                clFinish(q);
                long t1 = System.nanoTime();
                for (int i = 0; i < n && evs[i] != null; i++) {
                    if (mode.contains("read")) {
                        for (int t = 0; t < 4; t++) {
                            clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_QUEUED + t, 8, value, null);
                        }
                    }
                    clReleaseEvent(evs[i]);
                }
                long t2 = System.nanoTime();
                if (rep == 2) {
                    System.out.printf("| %s | %.2f | %.2f |%n", mode, (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n);
                }
            }
        }
    }
}
