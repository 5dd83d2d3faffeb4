package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page asks for the trace's declared colours before its first draw: that answer must not wait while the view
 * runs another page's long query under its lock (a reload at 100M slices waited 11-12 s for one).
 */
class DeclaredColoursWithoutLockTest {
    @TempDir
    Path dir;

    @Test
    void declaredColoursAnswerWhileTheViewIsBusy() throws Exception {
        SyntheticTrace.write(dir.resolve("t.duckdb"), 50, 5);
        try (TraceView view = new TraceView("t", Store.open(dir.resolve("t.duckdb")))) {
            Map<String, String> idle = view.declaredColours();
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread busy = new Thread(() -> {
                synchronized (view) { // what a long statistics query holds
                    held.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            busy.start();
            held.await();
            try {
                Map<String, String> whileBusy = CompletableFuture.supplyAsync(view::declaredColours)
                        .get(5, TimeUnit.SECONDS);
                assertEquals(idle, whileBusy);
            } finally {
                release.countDown();
                busy.join();
            }
        }
    }
}
