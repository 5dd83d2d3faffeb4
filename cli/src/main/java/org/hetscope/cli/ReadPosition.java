package org.hetscope.cli;

import org.hetscope.model.Progress;

/**
 * Passes progress on to another {@link Progress} and remembers how far the current operation has come, so that a
 * command that fails without a position of its own (running out of memory) can still say where it was.
 */
final class ReadPosition implements Progress {
    private final Progress next;
    private volatile long done;
    private volatile long total = -1;

    ReadPosition(Progress next) {
        this.next = next;
    }

    @Override
    public void start(String label, long total) {
        this.total = total;
        this.done = 0;
        next.start(label, total);
    }

    @Override
    public void advance(long done) {
        this.done = done;
        next.advance(done);
    }

    @Override
    public void finish() {
        next.finish();
    }

    /** "after 1,234 of 1,500 MB", or "" when nothing was announced. */
    String describe() {
        long d = done;
        long t = total;
        if (d <= 0) {
            return "";
        }
        return t > 0 ? String.format("after %,d of %,d MB", d / 1_000_000, Math.max(1, t / 1_000_000))
                : String.format("after %,d units of work", d);
    }
}
