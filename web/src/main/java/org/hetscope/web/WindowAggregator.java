package org.hetscope.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Enforces the promise of the window API: a track never gets more items than the viewport has pixels. The
 * database already merges slices narrower than a pixel per (lane, pixel); tracks with several sub-lanes can
 * still exceed the width, so their runs are merged further over wider and wider pixel groups until they fit.
 * Merging only adds counts and busy time, so the total busy time of a track is preserved exactly.
 */
public final class WindowAggregator {
    private WindowAggregator() {
    }

    /**
     * @param items the track's items, any order
     * @param windowStart window start (relative ns)
     * @param windowSpan window length in ns, positive
     * @param pixels viewport width in pixels, positive
     * @return at most {@code pixels} items, sorted by lane and start
     */
    public static List<WindowItem> fit(List<WindowItem> items, long windowStart, long windowSpan, int pixels) {
        List<WindowItem> sorted = items;
        if (!isSorted(items)) {
            sorted = new ArrayList<>(items);
            sorted.sort(BY_LANE_AND_START);
        }
        sorted = joinSimilarRuns(sorted, windowSpan, pixels);
        if (sorted.size() <= pixels) {
            return sorted;
        }
        List<WindowItem> merged = sorted;
        for (long group = 2; group <= 2L * pixels; group *= 2) {
            merged = mergeByPixelGroup(sorted, windowStart, windowSpan, pixels, group);
            if (merged.size() <= pixels) {
                return merged;
            }
        }
        // Now one item per lane and still more lanes than pixels: fold the deepest lanes into the last one.
        List<WindowItem> out = new ArrayList<>(merged.subList(0, pixels - 1));
        WindowItem rest = null;
        for (WindowItem item : merged.subList(pixels - 1, merged.size())) {
            WindowItem lane = new WindowItem(pixels - 1, item.start(), item.end(), item.count(), item.busy(),
                    item.id(), item.name(), item.category(), item.matches());
            rest = rest == null ? lane : rest.mergeWith(lane);
        }
        out.add(rest);
        return out;
    }

    private static final Comparator<WindowItem> BY_LANE_AND_START = Comparator.comparingInt(WindowItem::depth)
            .thenComparingLong(WindowItem::start);

    private static boolean isSorted(List<WindowItem> items) {
        for (int i = 1; i < items.size(); i++) {
            WindowItem p = items.get(i - 1);
            WindowItem c = items.get(i);
            if (p.depth() > c.depth() || (p.depth() == c.depth() && p.start() > c.start())) {
                return false;
            }
        }
        return true;
    }

    /** Density steps a merged run is drawn with; neighbours in the same step look alike and become one run. */
    static final int DENSITY_STEPS = 8;

    /**
     * Joins neighbouring merged runs of a lane that touch (gap under a pixel) and have the same density step, so a
     * dense stretch of a track travels as one item instead of one per pixel. Single slices are never joined.
     */
    static List<WindowItem> joinSimilarRuns(List<WindowItem> sorted, long windowSpan, int pixels) {
        List<WindowItem> out = new ArrayList<>(sorted.size());
        int i = 0;
        while (i < sorted.size()) {
            WindowItem head = sorted.get(i);
            int j = i + 1;
            if (head.count() > 1) {
                // The run grows item by item; its fields are summed here and the item is made once at the end.
                long start = head.start();
                long end = head.end();
                long count = head.count();
                long busy = head.busy();
                long matches = head.matches();
                WindowItem named = head;
                long namedBusy = head.busy();
                for (; j < sorted.size(); j++) {
                    WindowItem item = sorted.get(j);
                    if (item.count() <= 1 || item.depth() != head.depth()
                            || (double) (item.start() - end) * pixels >= windowSpan
                            || densityStep(busyFraction(start, end, busy)) != densityStep(item.busyFraction())) {
                        break;
                    }
                    // As mergeWith: the name of the larger part so far wins.
                    if (item.busy() > busy) {
                        named = item;
                    }
                    start = Math.min(start, item.start());
                    end = Math.max(end, item.end());
                    count += item.count();
                    busy += item.busy();
                    matches += item.matches();
                }
                head = j == i + 1 ? head : new WindowItem(head.depth(), start, end, count, busy, named.id(),
                        named.name(), named.category(), matches);
            }
            out.add(head);
            i = j;
        }
        return out;
    }

    private static double busyFraction(long start, long end, long busy) {
        long extent = end - start;
        return extent <= 0 ? 1.0 : Math.min(1.0, (double) busy / extent);
    }

    static int densityStep(WindowItem item) {
        return densityStep(item.busyFraction());
    }

    private static int densityStep(double busyFraction) {
        return (int) Math.min(DENSITY_STEPS - 1, Math.floor(busyFraction * DENSITY_STEPS));
    }

    private static List<WindowItem> mergeByPixelGroup(List<WindowItem> sorted, long windowStart, long windowSpan,
                                                      int pixels, long group) {
        List<WindowItem> out = new ArrayList<>();
        WindowItem current = null;
        long currentKey = Long.MIN_VALUE;
        for (WindowItem item : sorted) {
            long key = pixelGroup(item.start(), windowStart, windowSpan, pixels, group);
            if (current != null && current.depth() == item.depth() && key == currentKey) {
                current = current.mergeWith(item);
            } else {
                if (current != null) {
                    out.add(current);
                }
                current = item;
                currentKey = key;
            }
        }
        if (current != null) {
            out.add(current);
        }
        return out;
    }

    /** The pixel group of a time; times before the window fall in group 0. */
    static long pixelGroup(long t, long windowStart, long windowSpan, int pixels, long group) {
        long rel = Math.max(0, t - windowStart);
        long pixel = (long) Math.floor((double) rel * pixels / windowSpan);
        return Math.min(pixel, pixels - 1) / group;
    }
}
