package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store with GPU activities but no host calls (what a GPU-only export gives): there is nothing to link, and the
 * launch and synchronisation arrows are empty; with one launch call added, its kernel is linked again.
 */
class NoHostCallsTest {
    @TempDir
    Path dir;

    private static String kernel(int i) {
        return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" + i + "\",\"pid\":0,\"tid\":7,\"ts\":" + (10 * i)
                + ",\"dur\":5,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + (100 + i) + "}}";
    }

    @Test
    void gpuOnlyStoreHasNoArrowsAndOneCallGetsItsKernel() throws Exception {
        StringBuilder json = new StringBuilder("[");
        for (int i = 1; i <= 20; i++) {
            json.append(i > 1 ? "," : "").append(kernel(i));
        }
        Path gpuOnly = dir.resolve("gpu-only.json");
        Files.writeString(gpuOnly, json + "]");
        try (Store store = Stores.importInto(dir, "gpu-only", new ChromeTraceFormat(), gpuOnly)) {
            assertEquals(20L, store.scalarLong("select count(*) from slice where category = 'kernel'"));
            assertEquals(0, new ActivityFlows(store, FlowMatcher.DEFAULT_TOLERANCE_NS).matches().size());
            assertEquals(0, new SyncArrows(FlowMatcher.DEFAULT_TOLERANCE_NS).table(store).rows().size());
        }
        Path withCall = dir.resolve("with-call.json");
        Files.writeString(withCall, json + ",{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                + "\"pid\":1,\"tid\":1,\"ts\":25,\"dur\":3,\"args\":{\"correlation\":103}}]");
        try (Store store = Stores.importInto(dir, "with-call", new ChromeTraceFormat(), withCall)) {
            var matches = new ActivityFlows(store, FlowMatcher.DEFAULT_TOLERANCE_NS).matches();
            assertEquals(1, matches.size());
            assertEquals("k3", matches.get(0).activity().name());
            assertEquals(org.hetscope.model.FlowRule.CORRELATION, matches.get(0).rule());
        }
    }
}
