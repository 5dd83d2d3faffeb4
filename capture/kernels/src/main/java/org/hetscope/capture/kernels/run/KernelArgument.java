package org.hetscope.capture.kernels.run;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jocl.cl_mem;

/** One argument of a kernel launch, as the user's kernel declares it (index before any instrumentation). */
public sealed interface KernelArgument {
    /** A buffer given by its host contents; after a run it holds what the kernel left in it. */
    record Host(byte[] bytes) implements KernelArgument {}

    /** A buffer the caller already has on the device (JOCL programs); {@code bytes} is its size. */
    record Device(cl_mem mem, long bytes) implements KernelArgument {}

    /** A scalar, as the little-endian bytes of its OpenCL type. */
    record Scalar(byte[] bytes, String type) implements KernelArgument {}

    /** A {@code __local} buffer of this many bytes. */
    record Local(long bytes) implements KernelArgument {}

    static Host ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(values);
        return new Host(b.array());
    }

    static Host floats(float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return new Host(b.array());
    }

    static Scalar intValue(int v) {
        return new Scalar(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array(), "int");
    }

    static Scalar uintValue(long v) {
        return new Scalar(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array(), "uint");
    }

    static Scalar longValue(long v) {
        return new Scalar(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array(), "long");
    }

    static Scalar floatValue(float v) {
        return new Scalar(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(v).array(), "float");
    }

    static Scalar doubleValue(double v) {
        return new Scalar(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(v).array(), "double");
    }

    static Local local(long bytes) {
        return new Local(bytes);
    }

    /** Reads the ints of a host buffer (little-endian). */
    static int[] asInts(Host h) {
        int[] out = new int[h.bytes().length / 4];
        ByteBuffer.wrap(h.bytes()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    static float[] asFloats(Host h) {
        float[] out = new float[h.bytes().length / 4];
        ByteBuffer.wrap(h.bytes()).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
        return out;
    }
}
