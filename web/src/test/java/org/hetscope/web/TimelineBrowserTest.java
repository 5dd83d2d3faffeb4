package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a served real Kineto trace in Debian's Chromium (driven by web/e2e/timeline.e2e.mjs through
 * playwright-core) and checks what the page shows against the store: the listed tracks, a wheel zoom that narrows
 * the window and reveals more slices, a clicked kernel's name and duration. Screenshots go to target/e2e/.
 */
class TimelineBrowserTest {
    static final Path CHROMIUM = Path.of(System.getProperty("hetscope.chromium", "/usr/bin/chromium"));
    static final Path ROOT = Path.of(System.getProperty("hetscope.root", ".."));

    @TempDir
    Path dir;

    @Test
    void timelineDrawsZoomsAndShowsAClickedKernel() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM),
                "SKIPPED browser test: " + CHROMIUM + " is not installed (apt-get install chromium; CI installs it)");
        Path webDir = ROOT.resolve("web");
        Path script = webDir.resolve("e2e/timeline.e2e.mjs");
        assertTrue(Files.isDirectory(webDir.resolve("e2e/node_modules/playwright-core")),
                "web/e2e/node_modules missing: the Maven build runs 'npm ci' there before the tests");
        Path fixture = ROOT.resolve("../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz");
        Path storeFile = dir.resolve("kineto.duckdb");
        try (StoreWriter w = StoreWriter.create(storeFile)) {
            new ChromeTraceFormat().read(fixture, w, Progress.NONE);
            w.commit();
        }
        Path out = webDir.resolve("target/e2e");
        JsonNode result;
        List<String> storeTracks = new ArrayList<>();
        Store check = Store.open(storeFile);
        try (TraceServer server = new TraceServer(List.of(new TraceView("kineto-cuda-sampled-rank0", Store.open(storeFile))),
                new AccessPolicy(null))) {
            int port = server.start("127.0.0.1", 0);
            result = runNode(script, "http://127.0.0.1:" + port + "/", out);
        }
        try (check) {
            for (Object[] r : check.query("SELECT name FROM track ORDER BY name").rows()) {
                storeTracks.add((String) r[0]);
            }
            assertTrue(result.get("ok").asBoolean(), () -> "browser checks failed: " + result);
            assertEquals(storeTracks, sorted(result.get("domTracks")), "tracks listed in the page");
            assertEquals(storeTracks, sorted(result.get("apiTracks")), "tracks in the API response");
            assertTrue(result.get("singlesInZoomedRegion").get("after").asLong()
                    > result.get("singlesInZoomedRegion").get("before").asLong());
            long id = result.get("clicked").get("id").asLong();
            Table slice = check.query(null, "SELECT name, dur, category FROM slice WHERE id = ?", id);
            assertEquals("kernel", slice.get(0, "category"));
            assertEquals(slice.get(0, "name"), result.get("detailName").asText());
            assertEquals((long) (Long) slice.get(0, "dur"), parseDuration(result.get("detailDuration").asText()));
            // The kernel's launch: the flow partner the page lists is the API call of the store's flow row.
            Table partner = check.query(null, "SELECT s.name FROM flow f JOIN slice s ON s.id = f.from_slice_id "
                    + "WHERE f.to_slice_id = ?", id);
            List<String> partners = new ArrayList<>();
            result.get("flowPartners").forEach(n -> partners.add(n.asText()));
            assertEquals(partner.rows().stream().map(r -> (String) r[0]).toList(), partners);
        }
        assertTrue(Files.size(out.resolve("timeline.png")) > 10_000, "screenshot written");
        System.out.println("browser: first drawn timeline " + result.get("pageFirstDrawMs") + " ms after navigation ("
                + result.get("firstDrawMs") + " ms as seen by the driver); screenshots in " + out.toAbsolutePath());
    }

    private static List<String> sorted(JsonNode names) {
        List<String> l = new ArrayList<>();
        names.forEach(n -> l.add(n.asText()));
        l.sort(null);
        return l;
    }

    /** "67.827 ms" -> 67827000: the page writes exact decimal nanoseconds. */
    static long parseDuration(String text) {
        String[] p = text.trim().split("\\s+");
        long scale = switch (p[1]) {
            case "s" -> 1_000_000_000L;
            case "ms" -> 1_000_000L;
            case "µs" -> 1_000L;
            case "ns" -> 1L;
            default -> throw new IllegalArgumentException("unit of " + text);
        };
        return new BigDecimal(p[0]).multiply(BigDecimal.valueOf(scale)).longValueExact();
    }

    static JsonNode runNode(Path script, String url, Path out) throws IOException, InterruptedException {
        return runNode(script, url, out, 120);
    }

    static JsonNode runNode(Path script, String url, Path out, int seconds) throws IOException, InterruptedException {
        Files.createDirectories(out);
        Process p = new ProcessBuilder("node", script.toAbsolutePath().toString(), url, out.toAbsolutePath().toString())
                .directory(script.getParent().toFile())
                .redirectErrorStream(true)
                .start();
        byte[] output;
        try (var in = p.getInputStream()) {
            output = in.readAllBytes();
        }
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the browser test did not finish in " + seconds + " s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        String last = text.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no result from the browser script:\n" + text));
        return new ObjectMapper().readTree(last);
    }
}
