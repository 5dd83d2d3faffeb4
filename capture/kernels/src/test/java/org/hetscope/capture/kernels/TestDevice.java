package org.hetscope.capture.kernels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.OpenClSession;

/** One OpenCL session (PoCL in CI) and one runner per kernel for all tests, since PoCL compiles slowly. */
final class TestDevice {
    private static OpenClSession session;
    private static final Map<String, KernelRunner> RUNNERS = new HashMap<>();

    private TestDevice() {}

    static synchronized OpenClSession session() {
        if (session == null) {
            session = OpenClSession.open();
        }
        return session;
    }

    static synchronized KernelRunner runner(SuiteKernel k) {
        return RUNNERS.computeIfAbsent(k.file() + "#" + k.kernel(), x -> {
            try {
                return new KernelRunner(session(), k.file().toString(), Files.readString(k.file()), k.kernel());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
