package org.hetscope.formats.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hetscope.formats.opencl.BufferResidency.Access;
import org.hetscope.formats.opencl.BufferResidency.Interval;
import org.hetscope.formats.opencl.BufferResidency.Kind;
import org.junit.jupiter.api.Test;

/** The worked example of gpu-runtime-tracing.md §3 and the other rules of that section. */
class BufferResidencyTest {

    @Test
    void specWorkedExample() {
        // alloc 4096 B at 0, HtoD 0-10 us, kernel with RW access 10-30 us, DtoH 30-35 us, free at 40 us
        List<Interval> r = BufferResidency.of(0, 40_000, false, List.of(
                new Access(Kind.HOST_TO_DEVICE, 0, 10_000),
                new Access(Kind.DEVICE_WRITE, 10_000, 30_000),
                new Access(Kind.DEVICE_TO_HOST, 30_000, 35_000)));
        assertEquals(List.of(new Interval(0, 10_000, "host"), new Interval(10_000, 35_000, "device"),
                new Interval(35_000, 40_000, "both")), r);
    }

    @Test
    void readOnlyKernelKeepsBothCopies() {
        List<Interval> r = BufferResidency.of(0, 100, false, List.of(
                new Access(Kind.HOST_TO_DEVICE, 5, 10),
                new Access(Kind.DEVICE_READ, 20, 30)));
        assertEquals(List.of(new Interval(0, 10, "host"), new Interval(10, 100, "both")), r);
    }

    @Test
    void bufferFromHostMemoryStartsValidOnBoth() {
        List<Interval> r = BufferResidency.of(0, 50, true, List.of(new Access(Kind.DEVICE_WRITE, 20, 25)));
        assertEquals(List.of(new Interval(0, 20, "both"), new Interval(20, 50, "device")), r);
    }
}
