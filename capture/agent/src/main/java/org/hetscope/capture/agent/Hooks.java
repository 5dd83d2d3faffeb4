package org.hetscope.capture.agent;

import static org.hetscope.capture.agent.TraceMetadata.*;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;

/**
 * What the code inlined into JOCL's methods calls on exit: records the call and its details. Every hook ends the
 * call's nesting level and never throws into the program.
 */
public final class Hooks {
    private Hooks() {}

    /** Result code used when a call ended with a Java exception that carries no OpenCL status. */
    public static final int JAVA_EXCEPTION = -10000;
    /** Result code of a call returning an object when neither an error code array nor an exception told. */
    public static final int NULL_RESULT = -10001;

    private static final int READ_BUFFER = ClFunctions.id("clEnqueueReadBuffer");
    private static final int MAX_STRING = 32 * 1024;

    static int status(Throwable t, int result) {
        if (t == null) {
            return result;
        }
        if (t instanceof CLException e && e.getStatus() != 0) {
            return e.getStatus();
        }
        return JAVA_EXCEPTION;
    }

    static int objectStatus(Throwable t, Object ret, int[] err) {
        if (t != null) {
            return status(t, 0);
        }
        if (err != null && err.length > 0) {
            return err[0];
        }
        return ret != null ? CL.CL_SUCCESS : NULL_RESULT;
    }

    private static long ptr(org.jocl.NativePointerObject o) {
        return JoclAccess.ptr(o);
    }

    public static long queueProperties(org.jocl.cl_queue_properties props) {
        return JoclAccess.queueProperties(props);
    }

    public static org.jocl.cl_queue_properties withProfiling(org.jocl.cl_queue_properties props) {
        return JoclAccess.withProfiling(props);
    }

    // ---- generic calls

    public static void call(HostRecorder r, long start, int fn, int ret, Throwable t) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void objectCall(HostRecorder r, long start, int fn, Object ret, Throwable t) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, objectStatus(t, ret, null));
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    // ---- platforms, devices, contexts, queues

    public static void platforms(HostRecorder r, long start, int fn, int ret, Throwable t, cl_platform_id[] ps) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
                if (t == null && ret == CL.CL_SUCCESS && ps != null) {
                    for (cl_platform_id p : ps) {
                        if (p != null && ptr(p) != 0 && Tracer.PLATFORMS.add(ptr(p))) {
                            writePlatform(r, start, p);
                        }
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    private static void writePlatform(HostRecorder r, long ts, cl_platform_id p) {
        byte[] name = EventStream.utf8(ClInfo.platformString(p, CL.CL_PLATFORM_NAME), 4096);
        byte[] vendor = EventStream.utf8(ClInfo.platformString(p, CL.CL_PLATFORM_VENDOR), 4096);
        byte[] version = EventStream.utf8(ClInfo.platformString(p, CL.CL_PLATFORM_VERSION), 4096);
        ByteBuffer b = r.begin(ts, PLATFORM, 32 + name.length + vendor.length + version.length);
        if (b != null) {
            b.putLong(ptr(p));
            EventStream.putString(b, name);
            EventStream.putString(b, vendor);
            EventStream.putString(b, version);
            r.commit();
        }
    }

    public static void devices(HostRecorder r, long start, int fn, int ret, Throwable t, cl_device_id[] ds) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
                if (t == null && ret == CL.CL_SUCCESS && ds != null) {
                    for (cl_device_id d : ds) {
                        ensureDevice(r, start, d);
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    static void ensureDevice(HostRecorder r, long ts, cl_device_id d) {
        if (d == null || ptr(d) == 0 || !Tracer.DEVICES.add(ptr(d))) {
            return;
        }
        byte[] name = EventStream.utf8(ClInfo.deviceString(d, CL.CL_DEVICE_NAME), 4096);
        byte[] vendor = EventStream.utf8(ClInfo.deviceString(d, CL.CL_DEVICE_VENDOR), 4096);
        byte[] version = EventStream.utf8(ClInfo.deviceString(d, CL.CL_DEVICE_VERSION), 4096);
        byte[] driver = EventStream.utf8(ClInfo.deviceString(d, CL.CL_DRIVER_VERSION), 4096);
        long platform = ClInfo.devicePlatform(d);
        long type = ClInfo.deviceLong(d, CL.CL_DEVICE_TYPE, 8);
        long cus = ClInfo.deviceLong(d, CL.CL_DEVICE_MAX_COMPUTE_UNITS, 4);
        long clock = ClInfo.deviceLong(d, CL.CL_DEVICE_MAX_CLOCK_FREQUENCY, 4);
        long global = ClInfo.deviceLong(d, CL.CL_DEVICE_GLOBAL_MEM_SIZE, 8);
        long local = ClInfo.deviceLong(d, CL.CL_DEVICE_LOCAL_MEM_SIZE, 8);
        long maxAlloc = ClInfo.deviceLong(d, CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE, 8);
        long wg = ClInfo.deviceLong(d, CL.CL_DEVICE_MAX_WORK_GROUP_SIZE, 8);
        long res = ClInfo.deviceLong(d, CL.CL_DEVICE_PROFILING_TIMER_RESOLUTION, 8);
        ByteBuffer b = r.begin(ts, DEVICE, 128 + name.length + vendor.length + version.length + driver.length);
        if (b != null) {
            b.putLong(ptr(d)).putLong(platform).putLong(type);
            EventStream.putString(b, name);
            EventStream.putString(b, vendor);
            EventStream.putString(b, version);
            EventStream.putString(b, driver);
            b.putInt((int) cus).putInt((int) clock).putLong(global).putLong(local).putLong(maxAlloc).putLong(wg)
                    .putLong(res);
            r.commit();
        }
    }

    public static void context(HostRecorder r, long start, int fn, cl_context ret, Throwable t, int[] err) {
        try {
            if (start >= 0) {
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    cl_device_id[] ds = ClInfo.contextDevices(ret);
                    for (cl_device_id d : ds) {
                        ensureDevice(r, start, d);
                    }
                    ByteBuffer b = r.begin(start, CONTEXT, 32 + 8 * ds.length);
                    if (b != null) {
                        b.putLong(r.seqNow()).putLong(ptr(ret)).putInt(ds.length);
                        for (cl_device_id d : ds) {
                            b.putLong(ptr(d));
                        }
                        r.commit();
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void queue(HostRecorder r, long start, int fn, cl_command_queue ret, Throwable t, int[] err,
                             cl_context ctx, cl_device_id dev, long requested, long effective) {
        try {
            if (start >= 0) {
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    ensureDevice(r, start, dev);
                    Tracer.QUEUE_DEVICE.put(ptr(ret), ptr(dev));
                    ByteBuffer b = r.begin(start, QUEUE, 64);
                    if (b != null) {
                        b.putLong(r.seqNow()).putLong(ptr(ret)).putLong(ptr(ctx)).putLong(ptr(dev))
                                .putLong(requested).putLong(effective)
                                .put((byte) ((requested & CL.CL_QUEUE_PROFILING_ENABLE) == 0
                                        && (effective & CL.CL_QUEUE_PROFILING_ENABLE) != 0 ? 1 : 0));
                        r.commit();
                    }
                }
            } else if (ret != null && dev != null) {
                Tracer.QUEUE_DEVICE.put(ptr(ret), ptr(dev));
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    // ---- memory objects

    public static void memCreate(HostRecorder r, long start, int fn, cl_mem ret, Throwable t, int[] err,
                                 cl_context ctx, long flags, long size) {
        try {
            if (start >= 0) {
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    created(r, start, ret, ptr(ctx), flags, size, 0, 0, CL.CL_MEM_OBJECT_BUFFER, 0);
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    /**
     * Memory objects other than plain buffers (sub-buffers, images, pipes, GL objects): what they are, their size,
     * and for a sub-buffer its parent and origin, asked of OpenCL once they exist, so every creator and every
     * JOCL overload is covered the same way.
     */
    public static void memObject(HostRecorder r, long start, int fn, cl_mem ret, Throwable t, Object[] args) {
        try {
            if (start >= 0) {
                int[] err = args.length > 0 && args[args.length - 1] instanceof int[] e ? e : null;
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    long type = ClInfo.memLong(ret, CL.CL_MEM_TYPE, 4, false);
                    long size = ClInfo.memLong(ret, CL.CL_MEM_SIZE, 8, false);
                    long ctx = ClInfo.memLong(ret, CL.CL_MEM_CONTEXT, 8, false);
                    long flags = ClInfo.memLong(ret, CL.CL_MEM_FLAGS, 8, false);
                    long parent = ClInfo.memLong(ret, CL.CL_MEM_ASSOCIATED_MEMOBJECT, 8, false);
                    long origin = parent == 0 ? 0 : ClInfo.memLong(ret, CL.CL_MEM_OFFSET, 8, false);
                    int element = 0;
                    if (type != CL.CL_MEM_OBJECT_BUFFER && type != CL.CL_MEM_OBJECT_PIPE) {
                        element = (int) ClInfo.memLong(ret, CL.CL_IMAGE_ELEMENT_SIZE, 8, true);
                        Tracer.IMAGE_ELEMENT_BYTES.put(ptr(ret), element);
                    }
                    created(r, start, ret, ctx, flags, size, parent, origin, (int) type, element);
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    /** A memory object the program now holds one reference to: its {@code mem_create} event. */
    private static void created(HostRecorder r, long start, cl_mem mem, long ctx, long flags, long size, long parent,
                                long origin, int type, int elementBytes) {
        Tracer.MEM_REFS.put(ptr(mem), new AtomicInteger(1));
        ByteBuffer b = r.begin(start, MEM_CREATE, 72);
        if (b != null) {
            b.putLong(r.seqNow()).putLong(ptr(mem)).putLong(ctx).putLong(flags).putLong(size).putLong(parent)
                    .putLong(origin).putInt(type).putInt(elementBytes);
            r.commit();
        }
    }

    public static void memRef(HostRecorder r, long start, int fn, int ret, Throwable t, cl_mem mem, int delta) {
        try {
            if (start >= 0) {
                int st = status(t, ret);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (st == CL.CL_SUCCESS) {
                    AtomicInteger refs = Tracer.MEM_REFS.get(ptr(mem));
                    int left = refs == null ? -1 : refs.addAndGet(delta);
                    if (left == 0) {
                        Tracer.MEM_REFS.remove(ptr(mem), refs);
                        Tracer.IMAGE_ELEMENT_BYTES.remove(ptr(mem));
                    }
                    ByteBuffer b = r.begin(start, delta < 0 ? MEM_RELEASE : MEM_RETAIN, 40);
                    if (b != null) {
                        b.putLong(r.seqNow()).putLong(ptr(mem)).putInt(left);
                        r.commit();
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    // ---- programs and kernels

    public static void program(HostRecorder r, long start, int fn, cl_program ret, Throwable t, int[] err,
                               cl_context ctx, int kind, long bytes) {
        try {
            if (start >= 0) {
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    ByteBuffer b = r.begin(start, PROGRAM, 48);
                    if (b != null) {
                        b.putLong(r.seqNow()).putLong(ptr(ret)).putLong(ptr(ctx)).put((byte) kind).putLong(bytes);
                        r.commit();
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static long sourceBytes(String[] sources, long[] lengths) {
        long n = 0;
        if (sources != null) {
            for (int i = 0; i < sources.length; i++) {
                if (lengths != null && i < lengths.length && lengths[i] > 0) {
                    n += lengths[i];
                } else if (sources[i] != null) {
                    n += sources[i].length();
                }
            }
        }
        return n;
    }

    public static long sum(long[] a) {
        long n = 0;
        if (a != null) {
            for (long x : a) {
                n += x;
            }
        }
        return n;
    }

    public static void build(HostRecorder r, long start, int fn, int ret, Throwable t, cl_program p,
                             cl_device_id[] devices, String options, int operation) {
        try {
            if (start >= 0) {
                int st = status(t, ret);
                r.apiCall(start, System.nanoTime(), fn, st);
                cl_device_id[] ds = devices != null ? devices : ClInfo.programDevices(p);
                byte[] opts = EventStream.utf8(options, 4096);
                for (cl_device_id d : ds) {
                    if (d == null) {
                        continue;
                    }
                    int bs = ClInfo.buildStatus(p, d);
                    byte[] log = EventStream.utf8(ClInfo.buildLog(p, d), MAX_STRING);
                    ByteBuffer b = r.begin(start, PROGRAM_BUILD, 48 + opts.length + log.length);
                    if (b != null) {
                        b.putLong(r.seqNow()).putLong(ptr(p)).put((byte) operation).putLong(ptr(d)).putInt(bs);
                        EventStream.putString(b, opts);
                        EventStream.putString(b, log);
                        r.commit();
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void kernel(HostRecorder r, long start, int fn, cl_kernel ret, Throwable t, int[] err,
                              cl_program p, String name) {
        try {
            if (start >= 0) {
                int st = objectStatus(t, ret, err);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (ret != null && st == CL.CL_SUCCESS) {
                    writeKernel(r, start, ret, p, name);
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void kernels(HostRecorder r, long start, int fn, int ret, Throwable t, cl_program p,
                               cl_kernel[] ks) {
        try {
            if (start >= 0) {
                int st = status(t, ret);
                r.apiCall(start, System.nanoTime(), fn, st);
                if (st == CL.CL_SUCCESS && ks != null) {
                    for (cl_kernel k : ks) {
                        if (k != null && ptr(k) != 0) {
                            writeKernel(r, start, k, p, ClInfo.kernelName(k));
                        }
                    }
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    private static void writeKernel(HostRecorder r, long ts, cl_kernel k, cl_program p, String name) {
        byte[] n = EventStream.utf8(name, 4096);
        ByteBuffer b = r.begin(ts, KERNEL, 40 + n.length);
        if (b != null) {
            b.putLong(r.seqNow()).putLong(ptr(k)).putLong(ptr(p));
            EventStream.putString(b, n);
            r.commit();
        }
    }

    public static void kernelArg(HostRecorder r, long start, int fn, int ret, Throwable t, cl_kernel k, int index,
                                 long size, Pointer value) {
        try {
            if (start >= 0) {
                int st = status(t, ret);
                r.apiCall(start, System.nanoTime(), fn, st);
                int kind = JoclAccess.argKind(value);
                long v = JoclAccess.argValue(value, kind, size);
                ByteBuffer b = r.begin(start, KERNEL_ARG, 56);
                if (b != null) {
                    b.putLong(r.seqNow()).putLong(ptr(k)).putInt(index).putLong(size).put((byte) kind).putLong(v);
                    r.commit();
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    // ---- enqueues

    /** Gives a command its id and hands its event to the collector; retains events the program owns. */
    private static long submit(cl_command_queue q, cl_event ev, boolean mine, int type, long start, long end) {
        long command = Tracer.COMMANDS.incrementAndGet();
        if (!Tracer.deviceTimes) {
            return command;
        }
        if (!mine) {
            CL.clRetainEvent(ev);
            if (Tracer.EVENT_COMMAND.size() > 1_000_000) {
                Tracer.EVENT_COMMAND.clear(); // bounded memory; only wait -> command links are lost
            }
            Tracer.EVENT_COMMAND.put(ptr(ev), command);
        }
        CommandCollector c = Tracer.collector;
        if (c != null) {
            c.add(new CommandCollector.Pending(ev, command, ptr(q), type, start, end));
        }
        return command;
    }

    private static boolean ok(Throwable t, int ret, cl_event ev) {
        return t == null && ret == CL.CL_SUCCESS && ev != null && ptr(ev) != 0;
    }

    public static void ndrange(HostRecorder r, long start, int fn, int ret, Throwable t, cl_command_queue q,
                               cl_kernel k, int dim, long[] offset, long[] global, long[] local, int waits,
                               cl_event ev, boolean mine) {
        try {
            if (start >= 0) {
                long end = System.nanoTime();
                int st = status(t, ret);
                r.apiCall(start, end, fn, st);
                long command = ok(t, ret, ev)
                        ? submit(q, ev, mine, commandType("NDRANGE_KERNEL"), start, end) : 0;
                ByteBuffer b = r.begin(start, ENQUEUE_KERNEL, 128);
                if (b != null) {
                    b.putLong(r.seqNow()).putLong(command).putLong(ptr(q)).putLong(ptr(k)).putInt(dim);
                    put3(b, global, dim);
                    put3(b, local, dim);
                    put3(b, offset, dim);
                    b.putInt(waits);
                    r.commit();
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    private static void put3(ByteBuffer b, long[] a, int dim) {
        for (int i = 0; i < 3; i++) {
            b.putLong(a != null && i < a.length && i < dim ? a[i] : 0);
        }
    }

    /** Read, write, copy, fill, map and unmap of buffers. */
    public static void mem(HostRecorder r, long start, int fn, int ret, Throwable t, cl_command_queue q,
                           int type, int direction, cl_mem src, cl_mem dst, long bytes, long srcOffset,
                           long dstOffset, boolean blocking, int waits, cl_event ev, boolean mine) {
        try {
            if (start >= 0) {
                writeMem(r, start, fn, ret, t, q, type, direction, src, dst, bytes, srcOffset, dstOffset, blocking,
                        waits, ev, mine);
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    private static void writeMem(HostRecorder r, long start, int fn, int ret, Throwable t, cl_command_queue q,
                                 int type, int direction, cl_mem src, cl_mem dst, long bytes, long srcOffset,
                                 long dstOffset, boolean blocking, int waits, cl_event ev, boolean mine) {
        long end = System.nanoTime();
        int st = status(t, ret);
        r.apiCall(start, end, fn, st);
        long command = ok(t, ret, ev) ? submit(q, ev, mine, type, start, end) : 0;
        ByteBuffer b = r.begin(start, ENQUEUE_MEM, 96);
        if (b != null) {
            b.putLong(r.seqNow()).putLong(command).putLong(ptr(q)).putShort((short) type)
                    .put((byte) direction).putLong(ptr(src)).putLong(ptr(dst)).putLong(bytes)
                    .putLong(srcOffset).putLong(dstOffset).put((byte) (blocking ? 1 : 0)).putInt(waits);
            r.commit();
        }
    }

    public static int readOrWrite(int fn) {
        return fn == READ_BUFFER ? commandType("READ_BUFFER") : commandType("WRITE_BUFFER");
    }

    public static int readOrWriteDirection(int fn) {
        return fn == READ_BUFFER ? DIR_DTOH : DIR_HTOD;
    }

    public static void map(HostRecorder r, long start, int fn, ByteBuffer ret, Throwable t, int[] err,
                           cl_command_queue q, cl_mem mem, boolean blocking, long offset, long size, int waits,
                           cl_event ev, boolean mine) {
        int st = objectStatus(t, ret, err);
        mem(r, start, fn, st == CL.CL_SUCCESS ? 0 : st, null, q, commandType("MAP_BUFFER"), DIR_MAP, mem, null,
                size, offset, 0, blocking, waits, ev, mine);
    }

    /**
     * Any other enqueue. Image and rectangle transfers become {@code enqueue_mem} events with their memory objects
     * and bytes (the region's volume, times the pixel size for images); markers, barriers, tasks, migrations and
     * SVM commands are the command only.
     */
    public static void other(HostRecorder r, long start, int fn, int ret, Throwable t, String name, Object[] args,
                             boolean mine) {
        try {
            if (start >= 0) {
                cl_command_queue q = (cl_command_queue) args[0];
                cl_event ev = (cl_event) args[args.length - 1];
                int type = otherType(name);
                if (regionTransfer(r, start, fn, ret, t, q, name, type, args, ev, mine)) {
                    return;
                }
                long end = System.nanoTime();
                int st = status(t, ret);
                r.apiCall(start, end, fn, st);
                long command = ok(t, ret, ev) ? submit(q, ev, mine, type, start, end) : 0;
                ByteBuffer b = r.begin(start, ENQUEUE_OTHER, 48);
                if (b != null) {
                    b.putLong(r.seqNow()).putLong(command).putLong(ptr(q)).putShort((short) type)
                            .putLong(otherBytes(name, args)).putInt(waitCount(args));
                    r.commit();
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    /** Writes the call as an {@code enqueue_mem} when it is an image or rectangle transfer; false otherwise. */
    private static boolean regionTransfer(HostRecorder r, long start, int fn, int ret, Throwable t,
                                          cl_command_queue q, String name, int type, Object[] a, cl_event ev,
                                          boolean mine) {
        int waits = waitCount(a);
        switch (name) {
            case "clEnqueueReadBufferRect", "clEnqueueWriteBufferRect" -> {
                // (queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch, ...)
                long[] region = (long[]) a[5];
                long offset = linear((long[]) a[3], region, (Long) a[6], (Long) a[7]);
                boolean read = name.equals("clEnqueueReadBufferRect");
                cl_mem m = (cl_mem) a[1];
                writeMem(r, start, fn, ret, t, q, type, read ? DIR_DTOH : DIR_HTOD, read ? m : null, read ? null : m,
                        volume(region), read ? offset : 0, read ? 0 : offset, (Boolean) a[2], waits, ev, mine);
            }
            case "clEnqueueCopyBufferRect" -> {
                // (queue, src, dst, src_origin, dst_origin, region, src_row, src_slice, dst_row, dst_slice, ...)
                long[] region = (long[]) a[5];
                writeMem(r, start, fn, ret, t, q, type, DIR_DTOD, (cl_mem) a[1], (cl_mem) a[2], volume(region),
                        linear((long[]) a[3], region, (Long) a[6], (Long) a[7]),
                        linear((long[]) a[4], region, (Long) a[8], (Long) a[9]), false, waits, ev, mine);
            }
            case "clEnqueueReadImage", "clEnqueueWriteImage" -> {
                // (queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, ...)
                boolean read = name.equals("clEnqueueReadImage");
                cl_mem m = (cl_mem) a[1];
                writeMem(r, start, fn, ret, t, q, type, read ? DIR_DTOH : DIR_HTOD, read ? m : null, read ? null : m,
                        volume((long[]) a[4]) * pixelBytes(m), 0, 0, (Boolean) a[2], waits, ev, mine);
            }
            case "clEnqueueFillImage" -> {
                // (queue, image, fill_color, origin, region, ...)
                cl_mem m = (cl_mem) a[1];
                writeMem(r, start, fn, ret, t, q, type, DIR_FILL, null, m, volume((long[]) a[4]) * pixelBytes(m), 0,
                        0, false, waits, ev, mine);
            }
            case "clEnqueueCopyImage" -> {
                // (queue, src, dst, src_origin, dst_origin, region, ...)
                cl_mem src = (cl_mem) a[1];
                writeMem(r, start, fn, ret, t, q, type, DIR_DTOD, src, (cl_mem) a[2],
                        volume((long[]) a[5]) * pixelBytes(src), 0, 0, false, waits, ev, mine);
            }
            case "clEnqueueCopyImageToBuffer" -> {
                // (queue, src_image, dst_buffer, src_origin, region, dst_offset, ...)
                cl_mem src = (cl_mem) a[1];
                writeMem(r, start, fn, ret, t, q, type, DIR_DTOD, src, (cl_mem) a[2],
                        volume((long[]) a[4]) * pixelBytes(src), 0, (Long) a[5], false, waits, ev, mine);
            }
            case "clEnqueueCopyBufferToImage" -> {
                // (queue, src_buffer, dst_image, src_offset, dst_origin, region, ...)
                cl_mem dst = (cl_mem) a[2];
                writeMem(r, start, fn, ret, t, q, type, DIR_DTOD, (cl_mem) a[1], dst,
                        volume((long[]) a[5]) * pixelBytes(dst), (Long) a[3], 0, false, waits, ev, mine);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static long pixelBytes(cl_mem image) {
        Integer known = Tracer.IMAGE_ELEMENT_BYTES.get(ptr(image));
        return known != null ? known : ClInfo.memLong(image, CL.CL_IMAGE_ELEMENT_SIZE, 8, true);
    }

    /** Byte offset of a rectangle's origin in its buffer, with OpenCL's defaults for pitches given as 0. */
    private static long linear(long[] origin, long[] region, long rowPitch, long slicePitch) {
        if (origin == null || region == null || origin.length < 3 || region.length < 3) {
            return 0;
        }
        long row = rowPitch == 0 ? region[0] : rowPitch;
        long slice = slicePitch == 0 ? region[1] * row : slicePitch;
        return origin[2] * slice + origin[1] * row + origin[0];
    }

    static int otherType(String name) {
        String n = switch (name) {
            case "clEnqueueTask" -> "TASK";
            case "clEnqueueNativeKernel" -> "NATIVE_KERNEL";
            case "clEnqueueReadImage" -> "READ_IMAGE";
            case "clEnqueueWriteImage" -> "WRITE_IMAGE";
            case "clEnqueueCopyImage" -> "COPY_IMAGE";
            case "clEnqueueCopyImageToBuffer" -> "COPY_IMAGE_TO_BUFFER";
            case "clEnqueueCopyBufferToImage" -> "COPY_BUFFER_TO_IMAGE";
            case "clEnqueueFillImage" -> "FILL_IMAGE";
            case "clEnqueueMarker", "clEnqueueMarkerWithWaitList" -> "MARKER";
            case "clEnqueueBarrierWithWaitList" -> "BARRIER";
            case "clEnqueueReadBufferRect" -> "READ_BUFFER_RECT";
            case "clEnqueueWriteBufferRect" -> "WRITE_BUFFER_RECT";
            case "clEnqueueCopyBufferRect" -> "COPY_BUFFER_RECT";
            case "clEnqueueMigrateMemObjects" -> "MIGRATE_MEM_OBJECTS";
            case "clEnqueueAcquireGLObjects" -> "ACQUIRE_GL_OBJECTS";
            case "clEnqueueReleaseGLObjects" -> "RELEASE_GL_OBJECTS";
            case "clEnqueueSVMFree" -> "SVM_FREE";
            case "clEnqueueSVMMemcpy" -> "SVM_MEMCPY";
            case "clEnqueueSVMMemFill" -> "SVM_MEMFILL";
            case "clEnqueueSVMMap" -> "SVM_MAP";
            case "clEnqueueSVMUnmap" -> "SVM_UNMAP";
            default -> null;
        };
        return n == null ? 0 : commandType(n);
    }

    private static long otherBytes(String name, Object[] a) {
        return switch (name) {
            case "clEnqueueSVMMemcpy" -> (Long) a[4];
            case "clEnqueueSVMMemFill" -> (Long) a[4];
            default -> 0;
        };
    }

    private static long volume(long[] region) {
        if (region == null) {
            return 0;
        }
        long v = 1;
        for (long x : region) {
            v *= x;
        }
        return v;
    }

    private static int waitCount(Object[] a) {
        // num_events_in_wait_list is the int just before the wait list array, which precedes the event
        if (a.length >= 3 && a[a.length - 3] instanceof Integer n && a[a.length - 2] instanceof cl_event[]) {
            return n;
        }
        return 0;
    }

    // ---- waits and event releases

    public static void finish(HostRecorder r, long start, int fn, int ret, Throwable t, cl_command_queue q) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
                ByteBuffer b = r.begin(start, WAIT, 32);
                if (b != null) {
                    b.putLong(r.seqNow()).putLong(ptr(q)).putInt(0);
                    r.commit();
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void waitEvents(HostRecorder r, long start, int fn, int ret, Throwable t, int n, cl_event[] evs) {
        try {
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
                int count = evs == null ? 0 : Math.min(n, evs.length);
                ByteBuffer b = r.begin(start, WAIT, 32 + 8 * count);
                if (b != null) {
                    b.putLong(r.seqNow()).putLong(0).putInt(count);
                    for (int i = 0; i < count; i++) {
                        Long c = evs[i] == null ? null : Tracer.EVENT_COMMAND.get(ptr(evs[i]));
                        b.putLong(c == null ? 0 : c);
                    }
                    r.commit();
                }
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }

    public static void releaseEvent(HostRecorder r, long start, int fn, int ret, Throwable t, cl_event ev) {
        try {
            // the event -> command entry stays: JOCL's helper threads release their own references to the same
            // event before the program waits on it; a reused handle is overwritten at its next enqueue
            if (start >= 0) {
                r.apiCall(start, System.nanoTime(), fn, status(t, ret));
            }
        } catch (Throwable e) {
            Tracer.internalError(e);
        } finally {
            r.depth--;
        }
    }
}
