package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for work handed to another thread and gives back what it returned, or rethrows what it threw as it was. */
public final class Outcome {
    private Outcome() {
    }

    /**
     * The value of {@code f}; an IOException, RuntimeException or Error thrown by the task is rethrown unwrapped,
     * so that a failure on another thread reads like one on this thread.
     */
    public static <T> T await(Future<T> f) throws IOException {
        try {
            return f.get();
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
