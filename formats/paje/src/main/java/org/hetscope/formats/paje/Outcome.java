package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Waits for work handed to another thread and gives back what it returned, or rethrows what it threw as it was. */
public final class Outcome {
    private Outcome() {
    }

    /**
     * The value of {@code f}; an IOException, RuntimeException or Error thrown by the task is rethrown unwrapped,
     * so that a failure on another thread reads like one on this thread.
     */
    public static <T> T await(Future<T> f) throws IOException {
        return await(f, () -> null);
    }

    /**
     * As {@link #await(Future)}, for work queued on a pool whose threads can die: when the heap runs out, a throwable
     * can escape the task's own bookkeeping and kill its thread with the future never completed (and the pool may be
     * unable to start a replacement), so the wait checks {@code lost}, what killed a pool thread, and rethrows it
     * instead of waiting forever.
     */
    public static <T> T await(Future<T> f, Supplier<Throwable> lost) throws IOException {
        try {
            while (true) {
                try {
                    return f.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    Throwable dead = lost.get();
                    if (dead != null && !f.isDone()) {
                        throw new ExecutionException(dead);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for another thread of the import");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
