package org.hetscope.capture.agent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.NativePointerObject;
import org.jocl.Pointer;
import org.jocl.cl_mem;
import org.jocl.cl_queue_properties;

/**
 * Reads what JOCL keeps private: the host buffer or objects behind a {@link Pointer} (to tell a buffer argument
 * from a value), and the key/value list inside a {@link cl_queue_properties} (to switch profiling on).
 */
final class JoclAccess {
    private JoclAccess() {}

    private static final VarHandle BUFFER;
    private static final VarHandle POINTERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(NativePointerObject.class, MethodHandles.lookup());
            BUFFER = l.findVarHandle(NativePointerObject.class, "buffer", Buffer.class);
            POINTERS = l.findVarHandle(NativePointerObject.class, "pointers", NativePointerObject[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static long ptr(NativePointerObject o) {
        return o == null ? 0L : o.getNativePointer();
    }

    static final int ARG_LOCAL = 0;
    static final int ARG_MEM = 1;
    static final int ARG_VALUE = 2;
    static final int ARG_OTHER = 3;

    /** Kind of a kernel argument value: {@link #ARG_LOCAL} (null: local memory), mem object, plain value, other. */
    static int argKind(Pointer p) {
        if (p == null) {
            return ARG_LOCAL;
        }
        NativePointerObject[] ps = (NativePointerObject[]) POINTERS.get(p);
        if (ps != null) {
            return ps.length == 1 && ps[0] instanceof cl_mem ? ARG_MEM : ARG_OTHER;
        }
        return BUFFER.get(p) != null ? ARG_VALUE : ARG_OTHER;
    }

    /** The mem handle, or the first (up to) 8 bytes of a plain value, little-endian. */
    static long argValue(Pointer p, int kind, long size) {
        if (kind == ARG_MEM) {
            return ptr(((NativePointerObject[]) POINTERS.get(p))[0]);
        }
        if (kind != ARG_VALUE) {
            return 0;
        }
        Buffer b = (Buffer) BUFFER.get(p);
        if (!b.hasArray()) {
            return 0;
        }
        Object a = b.array();
        int off = b.arrayOffset() + b.position();
        return switch (a) {
            case int[] x -> x.length > off ? x[off] & 0xFFFFFFFFL : 0;
            case long[] x -> x.length > off ? x[off] : 0;
            case float[] x -> x.length > off ? Float.floatToRawIntBits(x[off]) & 0xFFFFFFFFL : 0;
            case double[] x -> x.length > off ? Double.doubleToRawLongBits(x[off]) : 0;
            case short[] x -> x.length > off ? x[off] & 0xFFFFL : 0;
            case char[] x -> x.length > off ? x[off] : 0;
            case byte[] x -> {
                ByteBuffer bb = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                bb.put(x, off, (int) Math.min(Math.min(8, size), x.length - off));
                yield bb.getLong(0);
            }
            default -> 0;
        };
    }

    /** The {@code CL_QUEUE_PROPERTIES} bit field in {@code props}, 0 when absent. */
    static long queueProperties(cl_queue_properties props) {
        if (props == null) {
            return 0;
        }
        long[] kv = pairs(props);
        for (int i = 0; i + 1 < kv.length; i += 2) {
            if (kv[i] == CL.CL_QUEUE_PROPERTIES) {
                return kv[i + 1];
            }
        }
        return 0;
    }

    /** A copy of {@code props} with {@code CL_QUEUE_PROFILING_ENABLE} set (the program's object is left alone). */
    static cl_queue_properties withProfiling(cl_queue_properties props) {
        cl_queue_properties out = new cl_queue_properties();
        boolean seen = false;
        if (props != null) {
            long[] kv = pairs(props);
            for (int i = 0; i + 1 < kv.length; i += 2) {
                long v = kv[i + 1];
                if (kv[i] == CL.CL_QUEUE_PROPERTIES) {
                    v |= CL.CL_QUEUE_PROFILING_ENABLE;
                    seen = true;
                }
                out.addProperty(kv[i], v);
            }
        }
        if (!seen) {
            out.addProperty(CL.CL_QUEUE_PROPERTIES, CL.CL_QUEUE_PROFILING_ENABLE);
        }
        return out;
    }

    private static long[] pairs(cl_queue_properties props) {
        LongBuffer b = ((LongBuffer) BUFFER.get(props)).duplicate();
        b.rewind();
        List<Long> out = new ArrayList<>();
        while (b.remaining() >= 2) {
            long k = b.get();
            if (k == 0) {
                break;
            }
            out.add(k);
            out.add(b.get());
        }
        long[] a = new long[out.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = out.get(i);
        }
        return a;
    }
}
