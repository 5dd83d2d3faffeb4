package org.hetscope.capture.agent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.util.Optional;

/**
 * Reads event profiling times and releases events by calling the OpenCL library directly through the JDK's
 * foreign-function API (Java 22+), instead of through JOCL's JNI wrappers: in C a profiling query costs ~10 ns on
 * PoCL, through JOCL ~1.7 us (see bench/capture/EventQueryCost.java), and the collector makes four per command.
 * The API is reached by reflection because the agent compiles for Java 21; where it is missing (Java 21, no
 * libOpenCL.so.1) {@link #create()} returns null and the collector uses JOCL.
 */
final class NativeEvents {
    private final MethodHandle profilingInfo; // (event, param, size, value, sizeRet) -> status, all as long/int
    private final MethodHandle release;        // (event) -> status
    private final MethodHandle readValue;      // () -> long, the 8 bytes at valueAddress
    private final long valueAddress;

    private NativeEvents(MethodHandle profilingInfo, MethodHandle release, MethodHandle readValue, long valueAddress) {
        this.profilingInfo = profilingInfo;
        this.release = release;
        this.valueAddress = valueAddress;
        this.readValue = readValue;
    }

    static NativeEvents create() {
        try {
            Class<?> linkerC = Class.forName("java.lang.foreign.Linker");
            Class<?> arenaC = Class.forName("java.lang.foreign.Arena");
            Class<?> lookupC = Class.forName("java.lang.foreign.SymbolLookup");
            Class<?> segC = Class.forName("java.lang.foreign.MemorySegment");
            Class<?> layoutC = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> valueLayoutC = Class.forName("java.lang.foreign.ValueLayout");
            Class<?> ofLongC = Class.forName("java.lang.foreign.ValueLayout$OfLong");
            Class<?> fdC = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> optionC = Class.forName("java.lang.foreign.Linker$Option");
            Object linker = linkerC.getMethod("nativeLinker").invoke(null);
            Object arena = arenaC.getMethod("global").invoke(null);
            Object lib = lookupC.getMethod("libraryLookup", String.class, arenaC).invoke(null, "libOpenCL.so.1", arena);
            Object getInfo = ((Optional<?>) lookupC.getMethod("find", String.class).invoke(lib,
                    "clGetEventProfilingInfo")).orElseThrow();
            Object rel = ((Optional<?>) lookupC.getMethod("find", String.class).invoke(lib, "clReleaseEvent"))
                    .orElseThrow();
            Object i32 = valueLayoutC.getField("JAVA_INT").get(null);
            Object i64 = valueLayoutC.getField("JAVA_LONG").get(null);
            Object addr = valueLayoutC.getField("ADDRESS").get(null);
            Object noOptions = Array.newInstance(optionC, 0);
            var downcall = linkerC.getMethod("downcallHandle", segC, fdC, noOptions.getClass());
            var of = fdC.getMethod("of", layoutC, Array.newInstance(layoutC, 0).getClass());
            Object[] getInfoArgs = (Object[]) Array.newInstance(layoutC, 5);
            getInfoArgs[0] = addr;
            getInfoArgs[1] = i32;
            getInfoArgs[2] = i64;
            getInfoArgs[3] = addr;
            getInfoArgs[4] = addr;
            Object[] relArgs = (Object[]) Array.newInstance(layoutC, 1);
            relArgs[0] = addr;
            MethodHandle info = (MethodHandle) downcall.invoke(linker, getInfo, of.invoke(null, i32, getInfoArgs),
                    noOptions);
            MethodHandle relh = (MethodHandle) downcall.invoke(linker, rel, of.invoke(null, i32, relArgs), noOptions);
            MethodHandle ofAddress = MethodHandles.publicLookup().findStatic(segC, "ofAddress",
                    MethodType.methodType(segC, long.class));
            info = MethodHandles.filterArguments(info, 0, ofAddress);
            info = MethodHandles.filterArguments(info, 3, ofAddress);
            info = MethodHandles.filterArguments(info, 4, ofAddress);
            relh = MethodHandles.filterArguments(relh, 0, ofAddress);
            Object value = arenaC.getMethod("allocate", long.class).invoke(arena, 8L);
            long valueAddress = (long) segC.getMethod("address").invoke(value);
            MethodHandle get = MethodHandles.publicLookup().findVirtual(segC, "get",
                    MethodType.methodType(long.class, ofLongC, long.class));
            MethodHandle read = MethodHandles.insertArguments(get, 0, value, i64, 0L);
            NativeEvents n = new NativeEvents(info, relh, read, valueAddress);
            return n;
        } catch (Throwable t) {
            return null;
        }
    }

    /** The OpenCL status of the query; the value is then in {@link #value()}. */
    int profiling(long event, int param) throws Throwable {
        return (int) profilingInfo.invokeExact(event, param, 8L, valueAddress, 0L);
    }

    long value() throws Throwable {
        return (long) readValue.invokeExact();
    }

    int release(long event) throws Throwable {
        return (int) release.invokeExact(event);
    }
}
