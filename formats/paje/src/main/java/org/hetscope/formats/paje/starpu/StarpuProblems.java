package org.hetscope.formats.paje.starpu;

import java.nio.file.Path;
import java.util.List;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.TraceSink;

/**
 * Counts what the StarPU import could not place, per (reason, what), with the first place it happened; handed to
 * {@link TraceSink#skipped} at the end so that nothing is dropped silently.
 */
public final class StarpuProblems {
    private final SkipTally tally = new SkipTally();

    /** Counts a line holding replaced bytes as damage; true when the line is clean. */
    boolean checkText(Path file, long line, String text) {
        if (text.indexOf('\uFFFD') < 0) {
            return true;
        }
        add(SkipReason.NOT_UTF8, null, file, line, null);
        return false;
    }

    /**
     * Counts one problem: {@code what} is the skip detail (the kind of record), {@code detail} goes with the
     * location of the first one.
     */
    public void add(SkipReason reason, String what, Path file, long line, String detail) {
        tally.add(reason, what, tally.count(reason, what) > 0 ? null
                : file + ":" + line + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }

    /** The problems counted for {@code reason}. */
    public long count(SkipReason reason) {
        return tally.count(reason);
    }

    /** The rows, in the order they first came. */
    public List<SkipTally.Entry> entries() {
        return tally.entries();
    }

    /** Counts the problems of {@code other} here, as if they were added now and in its order. */
    void addAll(StarpuProblems other) {
        tally.addAll(other.tally);
    }

    void flush(TraceSink sink) {
        tally.flushTo(sink);
    }
}
