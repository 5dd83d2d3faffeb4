package org.hetscope.capture.agent.advice;

import java.nio.ByteBuffer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.Advice.AllArguments;
import net.bytebuddy.asm.Advice.Argument;
import net.bytebuddy.asm.Advice.Local;
import net.bytebuddy.asm.Advice.OnMethodEnter;
import net.bytebuddy.asm.Advice.OnMethodExit;
import net.bytebuddy.asm.Advice.Return;
import net.bytebuddy.asm.Advice.Thrown;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import org.hetscope.capture.agent.HostRecorder;
import org.hetscope.capture.agent.Hooks;
import org.hetscope.capture.agent.Tracer;
import org.hetscope.capture.agent.TraceMetadata;
import org.jocl.CL;
import org.jocl.Pointer;
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
 * The code ByteBuddy inlines at the start and end of JOCL's {@code CL.cl*} methods. Entry takes the start time
 * (or -1 for a nested call) and, for enqueues without an event, passes an event of the agent's own so that the
 * command's device times can be read later; exit hands everything to {@link Hooks}. Argument positions follow
 * JOCL 2.0's signatures (checked by the instrumentation's matchers).
 */
public final class Advices {
    private Advices() {}

    /** Any call returning an int status. */
    public static final class IntCall {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e) {
            Hooks.call(r, t, fn, ret, e);
        }
    }

    /** Any call returning an object (the status comes from the exception, or null means failure). */
    public static final class ObjectCall {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return(typing = Assigner.Typing.DYNAMIC) Object ret, @Thrown Throwable e) {
            Hooks.objectCall(r, t, fn, ret, e);
        }
    }

    public static final class GetPlatformIDs {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(1) cl_platform_id[] ps) {
            Hooks.platforms(r, t, fn, ret, e, ps);
        }
    }

    public static final class GetDeviceIDs {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(3) cl_device_id[] ds) {
            Hooks.devices(r, t, fn, ret, e, ds);
        }
    }

    /** clCreateContext: error code array at 5. */
    public static final class CreateContext {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 5, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return cl_context ret, @Thrown Throwable e, @Argument(5) int[] err) {
            Hooks.context(r, t, fn, ret, e, err);
        }
    }

    /** clCreateContextFromType: error code array at 4. */
    public static final class CreateContextFromType {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 4, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return cl_context ret, @Thrown Throwable e, @Argument(4) int[] err) {
            Hooks.context(r, t, fn, ret, e, err);
        }
    }

    /** clCreateCommandQueue(context, device, properties, errcode): profiling is switched on. */
    public static final class CreateCommandQueue {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("req") long req,
                          @Argument(value = 2, readOnly = false) long props,
                          @Argument(value = 3, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            req = props;
            if (Tracer.deviceTimes) {
                props = props | CL.CL_QUEUE_PROFILING_ENABLE;
            }
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("req") long req,
                         @FunctionId int fn, @Return cl_command_queue ret, @Thrown Throwable e,
                         @Argument(0) cl_context ctx, @Argument(1) cl_device_id dev, @Argument(2) long props,
                         @Argument(3) int[] err) {
            Hooks.queue(r, t, fn, ret, e, err, ctx, dev, req, props);
        }
    }

    /** clCreateCommandQueueWithProperties(context, device, properties, errcode): profiling is switched on. */
    public static final class CreateCommandQueueWithProperties {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("req") long req,
                          @Argument(value = 2, readOnly = false) cl_queue_properties props,
                          @Argument(value = 3, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            req = Hooks.queueProperties(props);
            if (Tracer.deviceTimes) {
                props = Hooks.withProfiling(props);
            }
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("req") long req,
                         @FunctionId int fn, @Return cl_command_queue ret, @Thrown Throwable e,
                         @Argument(0) cl_context ctx, @Argument(1) cl_device_id dev, @Argument(3) int[] err) {
            Hooks.queue(r, t, fn, ret, e, err, ctx, dev, req,
                    Tracer.deviceTimes ? req | CL.CL_QUEUE_PROFILING_ENABLE : req);
        }
    }

    /** clCreateBuffer(context, flags, size, host_ptr, errcode). */
    public static final class CreateBuffer {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 4, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return cl_mem ret,
                         @Thrown Throwable e, @Argument(0) cl_context ctx, @Argument(1) long flags,
                         @Argument(2) long size, @Argument(4) int[] err) {
            Hooks.memCreate(r, t, fn, ret, e, err, ctx, flags, size);
        }
    }

    /** Sub-buffers, images, pipes and GL objects: any other call returning a {@code cl_mem}. */
    public static final class MemObject {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return cl_mem ret,
                         @Thrown Throwable e, @AllArguments(typing = Assigner.Typing.DYNAMIC) Object[] args) {
            Hooks.memObject(r, t, fn, ret, e, args);
        }
    }

    public static final class RetainMem {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_mem mem) {
            Hooks.memRef(r, t, fn, ret, e, mem, 1);
        }
    }

    public static final class ReleaseMem {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_mem mem) {
            Hooks.memRef(r, t, fn, ret, e, mem, -1);
        }
    }

    /** clCreateProgramWithSource(context, count, strings, lengths, errcode). */
    public static final class CreateProgramWithSource {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 4, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return cl_program ret, @Thrown Throwable e, @Argument(0) cl_context ctx,
                         @Argument(2) String[] sources, @Argument(3) long[] lengths, @Argument(4) int[] err) {
            Hooks.program(r, t, fn, ret, e, err, ctx, 0, Hooks.sourceBytes(sources, lengths));
        }
    }

    /** clCreateProgramWithBinary(context, n, devices, lengths, binaries, status, errcode). */
    public static final class CreateProgramWithBinary {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 6, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return cl_program ret, @Thrown Throwable e, @Argument(0) cl_context ctx,
                         @Argument(3) long[] lengths, @Argument(6) int[] err) {
            Hooks.program(r, t, fn, ret, e, err, ctx, 1, Hooks.sum(lengths));
        }
    }

    /** clBuildProgram(program, n, devices, options, callback, data). */
    public static final class BuildProgram {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_program p, @Argument(2) cl_device_id[] ds,
                         @Argument(3) String options) {
            Hooks.build(r, t, fn, ret, e, p, ds, options, 0);
        }
    }

    /** clCompileProgram(program, n, devices, options, ...). */
    public static final class CompileProgram {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_program p, @Argument(2) cl_device_id[] ds,
                         @Argument(3) String options) {
            Hooks.build(r, t, fn, ret, e, p, ds, options, 1);
        }
    }

    /** clCreateKernel(program, name, errcode). */
    public static final class CreateKernel {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t,
                          @Argument(value = 2, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn,
                         @Return cl_kernel ret, @Thrown Throwable e, @Argument(0) cl_program p,
                         @Argument(1) String name, @Argument(2) int[] err) {
            Hooks.kernel(r, t, fn, ret, e, err, p, name);
        }
    }

    /** clCreateKernelsInProgram(program, n, kernels, n_ret). */
    public static final class CreateKernelsInProgram {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_program p, @Argument(2) cl_kernel[] ks) {
            Hooks.kernels(r, t, fn, ret, e, p, ks);
        }
    }

    /** clSetKernelArg(kernel, index, size, value). */
    public static final class SetKernelArg {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_kernel k, @Argument(1) int index,
                         @Argument(2) long size, @Argument(3) Pointer value) {
            Hooks.kernelArg(r, t, fn, ret, e, k, index, size, value);
        }
    }

    /** clEnqueueNDRangeKernel(queue, kernel, dim, offset, global, local, n, waits, event). */
    public static final class NDRangeKernel {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 8, readOnly = false) cl_event ev) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_kernel k, @Argument(2) int dim,
                         @Argument(3) long[] offset, @Argument(4) long[] global, @Argument(5) long[] local,
                         @Argument(6) int waits, @Argument(8) cl_event ev) {
            Hooks.ndrange(r, t, fn, ret, e, q, k, dim, offset, global, local, waits, ev, mine);
        }
    }

    /** clEnqueueReadBuffer / clEnqueueWriteBuffer(queue, mem, blocking, offset, size, ptr, n, waits, event). */
    public static final class ReadWriteBuffer {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 8, readOnly = false) cl_event ev) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_mem mem, @Argument(2) boolean blocking,
                         @Argument(3) long offset, @Argument(4) long size, @Argument(6) int waits,
                         @Argument(8) cl_event ev) {
            int dir = Hooks.readOrWriteDirection(fn);
            Hooks.mem(r, t, fn, ret, e, q, Hooks.readOrWrite(fn), dir,
                    dir == TraceMetadata.DIR_DTOH ? mem : null, dir == TraceMetadata.DIR_DTOH ? null : mem,
                    size, dir == TraceMetadata.DIR_DTOH ? offset : 0, dir == TraceMetadata.DIR_DTOH ? 0 : offset,
                    blocking, waits, ev, mine);
        }
    }

    /** clEnqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, size, n, waits, event). */
    public static final class CopyBuffer {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 8, readOnly = false) cl_event ev) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_mem src, @Argument(2) cl_mem dst,
                         @Argument(3) long srcOffset, @Argument(4) long dstOffset, @Argument(5) long size,
                         @Argument(6) int waits, @Argument(8) cl_event ev) {
            Hooks.mem(r, t, fn, ret, e, q, TraceMetadata.commandType("COPY_BUFFER"), TraceMetadata.DIR_DTOD, src,
                    dst, size, srcOffset, dstOffset, false, waits, ev, mine);
        }
    }

    /** clEnqueueFillBuffer(queue, mem, pattern, patternSize, offset, size, n, waits, event). */
    public static final class FillBuffer {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 8, readOnly = false) cl_event ev) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_mem mem, @Argument(4) long offset,
                         @Argument(5) long size, @Argument(6) int waits, @Argument(8) cl_event ev) {
            Hooks.mem(r, t, fn, ret, e, q, TraceMetadata.commandType("FILL_BUFFER"), TraceMetadata.DIR_FILL, null,
                    mem, size, 0, offset, false, waits, ev, mine);
        }
    }

    /** clEnqueueMapBuffer(queue, mem, blocking, flags, offset, size, n, waits, event, errcode). */
    public static final class MapBuffer {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 8, readOnly = false) cl_event ev,
                          @Argument(value = 9, readOnly = false) int[] err) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
            if (t >= 0 && err == null) {
                err = new int[1];
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return ByteBuffer ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_mem mem, @Argument(2) boolean blocking,
                         @Argument(4) long offset, @Argument(5) long size, @Argument(6) int waits,
                         @Argument(8) cl_event ev, @Argument(9) int[] err) {
            Hooks.map(r, t, fn, ret, e, err, q, mem, blocking, offset, size, waits, ev, mine);
        }
    }

    /** clEnqueueUnmapMemObject(queue, mem, mapped, n, waits, event). */
    public static final class UnmapMemObject {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @Argument(value = 5, readOnly = false) cl_event ev) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && ev == null && Tracer.deviceTimes) {
                ev = new cl_event();
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Argument(0) cl_command_queue q, @Argument(1) cl_mem mem, @Argument(2) ByteBuffer mapped,
                         @Argument(3) int waits, @Argument(5) cl_event ev) {
            Hooks.mem(r, t, fn, ret, e, q, TraceMetadata.commandType("UNMAP_MEM_OBJECT"), TraceMetadata.DIR_UNMAP,
                    null, mem, mapped == null ? 0 : mapped.capacity(), 0, 0, false, waits, ev, mine);
        }
    }

    /** Every other clEnqueue* whose last parameter is the event. */
    public static final class OtherEnqueue {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                          @AllArguments(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object[] args) {
            r = Tracer.recorder();
            t = r.enter();
            if (t >= 0 && args[args.length - 1] == null && Tracer.deviceTimes) {
                Object[] copy = args.clone();
                copy[copy.length - 1] = new cl_event();
                args = copy;
                mine = true;
            }
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @Local("mine") boolean mine,
                         @FunctionId int fn, @Return int ret, @Thrown Throwable e,
                         @Advice.Origin("#m") String name,
                         @AllArguments(typing = Assigner.Typing.DYNAMIC) Object[] args) {
            Hooks.other(r, t, fn, ret, e, name, args, mine);
        }
    }

    public static final class Finish {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_command_queue q) {
            Hooks.finish(r, t, fn, ret, e, q);
        }
    }

    public static final class WaitForEvents {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) int n, @Argument(1) cl_event[] evs) {
            Hooks.waitEvents(r, t, fn, ret, e, n, evs);
        }
    }

    public static final class ReleaseEvent {
        @OnMethodEnter(suppress = Throwable.class)
        static void enter(@Local("r") HostRecorder r, @Local("t") long t) {
            r = Tracer.recorder();
            t = r.enter();
        }

        @OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Local("r") HostRecorder r, @Local("t") long t, @FunctionId int fn, @Return int ret,
                         @Thrown Throwable e, @Argument(0) cl_event ev) {
            Hooks.releaseEvent(r, t, fn, ret, e, ev);
        }
    }
}
