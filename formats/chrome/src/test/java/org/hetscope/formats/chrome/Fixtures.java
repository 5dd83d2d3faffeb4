package org.hetscope.formats.chrome;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** The shared Kineto fixtures, and an independent (tree-model) reading of them for reference counts. */
final class Fixtures {
    static final Path CHROME = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/chrome")
            .normalize();

    static final List<String> ALL = List.of(
            "kineto-rocm6.2-mi250-minitoy.json.gz",
            "kineto-cuda-simple-add.json.gz",
            "kineto-cuda-event-sync-multistream.json.gz",
            "kineto-cuda-sampled-rank0.json.gz",
            "kineto-cuda-cupti-profiler.json.gz");

    private Fixtures() {}

    static Path path(String name) {
        return CHROME.resolve(name);
    }

    /** All events of a fixture, read with Jackson's tree model (not with the reader under test). */
    static List<JsonNode> rawEvents(String name) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(path(name)))) {
            JsonNode root = new ObjectMapper().readTree(in);
            JsonNode events = root.isArray() ? root : root.get("traceEvents");
            List<JsonNode> list = new ArrayList<>();
            events.forEach(list::add);
            return list;
        }
    }
}
