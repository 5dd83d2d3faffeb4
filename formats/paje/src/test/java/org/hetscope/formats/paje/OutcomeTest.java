package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A block thread killed with its future never completed must fail the wait, not hang the import. */
class OutcomeTest {
    @Test
    void aDeadPoolThreadEndsTheWaitWithWhatKilledIt() {
        CompletableFuture<String> never = new CompletableFuture<>();
        OutOfMemoryError killer = new OutOfMemoryError("Java heap space");
        AtomicReference<Throwable> died = new AtomicReference<>();
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dies");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> died.set(e));
            return t;
        });
        // a throwable escaping the task itself (as when the heap runs out inside the executor's bookkeeping)
        pool.execute(() -> {
            throw killer;
        });
        pool.shutdown();
        OutOfMemoryError thrown = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(OutOfMemoryError.class, () -> Outcome.await(never, died::get)));
        assertSame(killer, thrown);
    }

    @Test
    void aCompletedFutureIsReturnedEvenAfterAThreadDied() throws IOException {
        CompletableFuture<String> done = CompletableFuture.completedFuture("block");
        assertEquals("block", Outcome.await(done, () -> new OutOfMemoryError()));
    }

    @Test
    void whatTheTaskThrewIsRethrownUnwrapped() {
        CompletableFuture<String> failed = CompletableFuture.failedFuture(new IOException("bad block"));
        IOException e = assertThrows(IOException.class, () -> Outcome.await(failed, () -> null));
        assertEquals("bad block", e.getMessage());
    }
}
