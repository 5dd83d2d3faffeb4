package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;

/**
 * What the browser tests share: import real fixtures into stores, serve them on loopback, run one web/e2e script in
 * Debian's Chromium against the server and hand back what the page reported, with the stores to check it against.
 */
final class BrowserSession {
    /**
     * A fixture to serve: the name shown in the trace selector, its path from the repository root, its reader; a
     * null reader serves the path as an existing store (a generated one).
     */
    record Fixture(String name, String path, TraceFormat format) {
    }

    /** What the script reported (it passed: {@code ok} is true) and the stores it was run on, in fixture order. */
    record Result(JsonNode page, List<Path> stores) {
    }

    private BrowserSession() {
    }

    /** Skips the calling test with a message when the browser or the e2e packages are missing. */
    static Result run(Path dir, String script, List<Fixture> fixtures) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(TimelineBrowserTest.CHROMIUM), "SKIPPED browser test: "
                + TimelineBrowserTest.CHROMIUM + " is not installed (apt-get install chromium; ./build.sh test installs it)");
        Path root = TimelineBrowserTest.ROOT;
        Path webDir = root.resolve("web");
        assertTrue(Files.isDirectory(webDir.resolve("e2e/node_modules/playwright-core")),
                "web/e2e/node_modules missing: the Maven build runs 'npm ci' there before the tests");
        List<Path> stores = new ArrayList<>();
        List<TraceView> views = new ArrayList<>();
        for (int i = 0; i < fixtures.size(); i++) {
            Path store = dir.resolve("t" + i + ".duckdb");
            if (fixtures.get(i).format() == null) {
                store = Path.of(fixtures.get(i).path());
            } else {
                try (StoreWriter w = StoreWriter.create(store)) {
                    fixtures.get(i).format().read(root.resolve(fixtures.get(i).path()), w, Progress.NONE);
                    w.commit();
                }
            }
            stores.add(store);
            views.add(new TraceView(fixtures.get(i).name(), Store.open(store)));
        }
        JsonNode page;
        try (TraceServer server = new TraceServer(views, new AccessPolicy(null))) {
            int port = server.start("127.0.0.1", 0);
            page = TimelineBrowserTest.runNode(webDir.resolve("e2e/" + script), "http://127.0.0.1:" + port + "/",
                    webDir.resolve("target/screenshots"), 240);
        }
        System.out.println("browser: " + page);
        assertTrue(page.get("ok").asBoolean(), () -> "browser checks failed: " + page);
        return new Result(page, stores);
    }
}
