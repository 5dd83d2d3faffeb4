package org.hetscope.analysis.gpu;

import java.util.Arrays;

/**
 * Busy, idle, overlap and concurrency of kernels and copies inside a window, computed exactly on integer
 * nanoseconds by a sweep over interval starts and ends (spec gpu-runtime-tracing.md section 2.5).
 *
 * @param concurrency time during which exactly k kernels run, for k = 0, 1, 2, ...
 */
public record Busy(long window, long kernelBusy, long copyBusy, long overlap, long busy, long idle,
                   long kernelTime, long[] concurrency, long idleGaps, long longestIdleGap) {

    private static final int KERNEL_END = 0;
    private static final int KERNEL_START = 1;
    private static final int COPY_END = 2;
    private static final int COPY_START = 3;

    /** Sum of kernel durations inside the window divided by the time at least one kernel runs. */
    public double meanConcurrency() {
        return kernelBusy == 0 ? 0.0 : (double) kernelTime / kernelBusy;
    }

    /**
     * Computes the figures for kernels and copies given as parallel start/end arrays, clipped to [w0, w1).
     */
    public static Busy of(long[] kernelStart, long[] kernelEnd, long[] copyStart, long[] copyEnd, long w0, long w1) {
        int nk = kernelStart.length;
        int nc = copyStart.length;
        // Each interval gives two events; an event's code has bit 0 set for a start and bit 1 set for a copy.
        // Ends sort before starts at the same time, so touching intervals do not overlap.
        long[] time = new long[2 * (nk + nc)];
        int[] code = new int[time.length];
        int n = 0;
        long kernelTime = 0;
        for (int i = 0; i < nk; i++) {
            long s = Math.max(w0, kernelStart[i]);
            long e = Math.min(w1, kernelEnd[i]);
            if (e <= s) {
                continue;
            }
            kernelTime += e - s;
            time[n] = s;
            code[n++] = KERNEL_START;
            time[n] = e;
            code[n++] = KERNEL_END;
        }
        for (int i = 0; i < nc; i++) {
            long s = Math.max(w0, copyStart[i]);
            long e = Math.min(w1, copyEnd[i]);
            if (e <= s) {
                continue;
            }
            time[n] = s;
            code[n++] = COPY_START;
            time[n] = e;
            code[n++] = COPY_END;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        final long[] t = time;
        final int[] c = code;
        Arrays.sort(order, (a, b) -> {
            int x = Long.compare(t[a], t[b]);
            return x != 0 ? x : Integer.compare(c[a] & 1, c[b] & 1);
        });
        long[] conc = new long[4];
        long kernelBusy = 0;
        long copyBusy = 0;
        long overlap = 0;
        long busy = 0;
        int kernels = 0;
        int copies = 0;
        long prev = w0;
        long idleGaps = 0;
        long longestGap = 0;
        long gapStart = w0;
        for (int idx = 0; idx < n; idx++) {
            int i = order[idx];
            long now = t[i];
            long span = now - prev;
            if (span > 0) {
                if (kernels >= conc.length) {
                    conc = Arrays.copyOf(conc, kernels * 2);
                }
                conc[kernels] += span;
                if (kernels > 0) {
                    kernelBusy += span;
                }
                if (copies > 0) {
                    copyBusy += span;
                }
                if (kernels > 0 && copies > 0) {
                    overlap += span;
                }
                if (kernels > 0 || copies > 0) {
                    busy += span;
                }
            }
            boolean wasIdle = kernels == 0 && copies == 0;
            boolean isKernel = (c[i] >> 1) == 0;
            int delta = (c[i] & 1) == 1 ? 1 : -1;
            if (isKernel) {
                kernels += delta;
            } else {
                copies += delta;
            }
            boolean nowIdle = kernels == 0 && copies == 0;
            if (wasIdle && !nowIdle) {
                if (now > gapStart) {
                    idleGaps++;
                    longestGap = Math.max(longestGap, now - gapStart);
                }
            } else if (!wasIdle && nowIdle) {
                gapStart = now;
            }
            prev = now;
        }
        if (w1 > prev) {
            conc[0] += w1 - prev;
        }
        if (w1 > gapStart && kernels == 0 && copies == 0) {
            idleGaps++;
            longestGap = Math.max(longestGap, w1 - gapStart);
        }
        int top = conc.length;
        while (top > 1 && conc[top - 1] == 0) {
            top--;
        }
        long window = w1 - w0;
        return new Busy(window, kernelBusy, copyBusy, overlap, busy, window - busy, kernelTime,
                Arrays.copyOf(conc, top), idleGaps, longestGap);
    }
}
