package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Every mark of a picture is a row of the table it was drawn from: counted back from the parsed SVG. */
class PicturesTest {
    static Store store;
    static MemoryTrace m;
    static Path dir;

    @BeforeAll
    static void load() throws Exception {
        dir = Files.createTempDirectory("hetscope-pictures");
        store = MemoryFixtureTest.importFixture("chol-dmda-nb6", dir);
        m = MemoryTrace.load(store);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The titles of the marks of one element name (marks carry a title; frames and the background do not). */
    static List<String> marks(String svg, String element) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        NodeList nodes = d.getElementsByTagName(element);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            NodeList t = ((Element) nodes.item(i)).getElementsByTagName("title");
            if (t.getLength() > 0) {
                out.add(t.item(0).getTextContent());
            }
        }
        return out;
    }

    @Test
    void snapshotMarksAreTheBlockRowsAndTaskAccesses() throws Exception {
        Table blocks = Snapshot.blocks(m, 83_000_000L);
        Table tasks = Snapshot.tasks(m, 83_000_000L);
        String svg = Pictures.snapshot(blocks, tasks);
        List<String> rects = marks(svg, "rect");
        List<String> circles = marks(svg, "circle");
        long writes = tasks.rows().stream().filter(r -> r[6].toString().contains("W")).count();
        assertEquals(blocks.size() + writes, rects.size());
        assertEquals(tasks.size() - writes, circles.size());
        assertEquals(List.of("job 30 chol_gemm R", "job 30 chol_gemm R"), circles);
    }

    @Test
    void heatmapHasOneCellPerBlockAndNode() throws Exception {
        Table heat = Heatmap.of(m, Heatmap.Normalisation.LIFETIME);
        List<String> cells = marks(Pictures.heatmap(heat), "rect");
        assertEquals(heat.size(), cells.size());
        assertEquals(21 * 2, cells.size());
    }

    @Test
    void residencyHasOneBarPerBin() throws Exception {
        Table bins = ResidencyAnalysis.bins(m, 5_000_000L, null);
        List<String> bars = marks(Pictures.residency(bins), "rect");
        assertEquals(bins.size(), bars.size());
        double sum = bars.stream().mapToDouble(s -> Double.parseDouble(s.replaceAll(".* ([0-9.]+)%", "$1"))).sum();
        double expected = bins.rows().stream().mapToDouble(r -> (Double) r[6]).sum();
        assertEquals(expected, sum, bins.size() * 0.005);
    }
}
