package org.hetscope.web;

/**
 * One drawable item of a track in a time window: either a single slice ({@code count == 1}, with its id and name)
 * or a run of slices merged because they were narrower than a pixel. Times are nanoseconds relative to the
 * trace origin.
 *
 * @param depth the sub-lane (nesting depth) the item is drawn in
 * @param start start of the first slice of the run, clipped to nothing (may lie before the window)
 * @param end end of the last slice of the run
 * @param count slices in the run
 * @param busy summed duration of the run's slices inside the window, in nanoseconds
 * @param id the slice id when {@code count == 1}, else the id of one slice of the run
 * @param name the slice's name, or the name of one slice of the run
 * @param category the normalised category of that slice
 * @param matches slices of the run whose name equals the highlighted name (0 without highlight)
 */
public record WindowItem(int depth, long start, long end, long count, long busy, long id, String name,
                         String category, long matches) {

    /** The fraction of the run's extent covered by its slices (1 for a single slice). */
    public double busyFraction() {
        long extent = end - start;
        return extent <= 0 ? 1.0 : Math.min(1.0, (double) busy / extent);
    }

    WindowItem mergeWith(WindowItem o) {
        // Keep the name of the longest member: it is what a person would recognise in the run.
        boolean keepThis = busy >= o.busy;
        return new WindowItem(depth, Math.min(start, o.start), Math.max(end, o.end), count + o.count, busy + o.busy,
                keepThis ? id : o.id, keepThis ? name : o.name, keepThis ? category : o.category,
                matches + o.matches);
    }
}
