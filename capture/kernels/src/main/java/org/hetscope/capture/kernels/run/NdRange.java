package org.hetscope.capture.kernels.run;

import java.util.Arrays;

/** Global and (optional) local work sizes of a launch, 1 to 3 dimensions. */
public record NdRange(long[] global, long[] local) {
    public NdRange {
        if (global.length < 1 || global.length > 3) {
            throw new IllegalArgumentException("global size needs 1 to 3 dimensions");
        }
        if (local != null && local.length != global.length) {
            throw new IllegalArgumentException("local size " + Arrays.toString(local) + " has not the "
                    + global.length + " dimensions of the global size");
        }
        for (int d = 0; d < global.length; d++) {
            if (global[d] <= 0 || local != null && (local[d] <= 0 || global[d] % local[d] != 0)) {
                throw new IllegalArgumentException("global size " + Arrays.toString(global)
                        + " is not a positive multiple of the local size " + Arrays.toString(local));
            }
        }
    }

    public static NdRange of(long global, long local) {
        return new NdRange(new long[] {global}, local <= 0 ? null : new long[] {local});
    }

    public long workItems() {
        long n = 1;
        for (long g : global) {
            n *= g;
        }
        return n;
    }

    public long dim(long[] a, int d) {
        return a != null && d < a.length ? a[d] : 1;
    }

    /** Work-items per group, or 0 when the local size is left to the runtime. */
    public long groupSize() {
        if (local == null) {
            return 0;
        }
        long n = 1;
        for (long l : local) {
            n *= l;
        }
        return n;
    }

    /** The work-group of a work-item given by its linear global id (dimension 0 fastest). */
    public long groupOf(long pid) {
        if (local == null) {
            return 0;
        }
        long rest = pid;
        long group = 0;
        long stride = 1;
        for (int d = 0; d < global.length; d++) {
            long g = rest % global[d];
            rest /= global[d];
            group += (g / local[d]) * stride;
            stride *= global[d] / local[d];
        }
        return group;
    }

    @Override
    public String toString() {
        return Arrays.toString(global) + (local == null ? "" : "/" + Arrays.toString(local));
    }
}
