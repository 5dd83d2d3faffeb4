package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.hetscope.model.Category;
import org.hetscope.model.Slice;
import org.hetscope.store.Store;
import org.hetscope.web.report.Plots;
import org.hetscope.web.report.ReportWriter;
import org.hetscope.web.report.TimelineOverview;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The HTML report and the plots, checked against the generator's raw slices and by parsing what was written. */
class ReportAndPlotTest {
    @TempDir
    static Path dir;
    static SyntheticTrace trace;
    static TraceView view;

    @BeforeAll
    static void open() throws Exception {
        trace = SyntheticTrace.write(dir.resolve("r.duckdb"), 1500, 3);
        view = new TraceView("r.duckdb", Store.open(dir.resolve("r.duckdb")));
    }

    @AfterAll
    static void close() {
        view.close();
    }

    private static Document xml(String text) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void reportIsSelfContainedAndItsNumbersMatchTheRawSlices() throws Exception {
        Path out = dir.resolve("report.html");
        ReportWriter.write(view, out);
        String html = Files.readString(out);
        // Self-contained: no script, no external resource of any kind.
        for (String banned : new String[] {"<script", "src=", "href=", "@import", "url(", "http://", "https://"}) {
            assertFalse(html.contains(banned), "report contains " + banned);
        }
        assertTrue(html.contains("<svg"));
        long kernels = trace.slices.stream().filter(s -> s.category() == Category.KERNEL).count();
        assertTrue(html.contains("<th>kernels</th><td>" + String.format("%,d", kernels) + "</td>"));
        assertTrue(html.contains("<th>slices</th><td>" + String.format("%,d", trace.slices.size()) + "</td>"));
        // The kernel table: each name's total time (exact ns in data-ns) equals the raw sum.
        Map<String, Long> totals = new HashMap<>();
        trace.slices.stream().filter(s -> s.category() == Category.KERNEL)
                .forEach(s -> totals.merge(s.name(), s.dur(), Long::sum));
        String kernelTable = html.substring(html.indexOf("<table id=\"kernels-table\">"));
        kernelTable = kernelTable.substring(0, kernelTable.indexOf("</table>"));
        Matcher m = Pattern.compile("<tr><td class=\"name\">([^<]+)</td><td class=\"n\"[^>]*>[^<]*</td>"
                + "<td class=\"n\" data-ns=\"(\\d+)\"").matcher(kernelTable);
        int rows = 0;
        while (m.find()) {
            assertEquals(totals.get(m.group(1)), Long.parseLong(m.group(2)), m.group(1));
            rows++;
        }
        assertEquals(totals.size(), rows);
    }

    @Test
    void timelineOverviewNeverDrawsMoreThanItsWidthPerTrack() throws Exception {
        TimelineOverview o = new TimelineOverview(view, 900);
        o.items().forEach((track, items) -> assertTrue(items.size() <= o.plotWidth()));
        String svg = Plots.svg(Plots.view(view, "timeline", 900), true);
        Document d = xml(svg);
        NodeList rects = d.getElementsByTagName("rect");
        long drawn = o.items().values().stream().flatMap(List::stream).filter(i -> i.depth() < 6).count();
        assertEquals(drawn + 1, rects.getLength(), "one rect per item plus the background");
    }

    @Test
    void kernelPlotListsTheLongestKernelsInOrder() throws Exception {
        Path out = dir.resolve("kernels.svg");
        Plots.write(Plots.view(view, "kernels", 1000), out);
        Document d = xml(Files.readString(out));
        NodeList titles = d.getElementsByTagName("title");
        List<String> drawn = new ArrayList<>();
        for (int i = 0; i < titles.getLength(); i++) {
            String t = titles.item(i).getTextContent();
            drawn.add(t.substring(0, t.indexOf(": ")));
        }
        Map<String, Long> totals = new HashMap<>();
        trace.slices.stream().filter(s -> s.category() == Category.KERNEL)
                .forEach(s -> totals.merge(s.name(), s.dur(), Long::sum));
        List<String> expected = totals.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).toList();
        assertEquals(expected, drawn);
    }

    @Test
    void pngPlotIsAPictureOfTheRightSize() throws Exception {
        Path out = dir.resolve("util.png");
        Plots.Picture p = Plots.view(view, "utilisation", 800);
        Plots.write(p, out);
        BufferedImage img = ImageIO.read(out.toFile());
        assertEquals(p.width() * 2, img.getWidth());
        assertEquals(p.height() * 2, img.getHeight());
        long coloured = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                if ((img.getRGB(x, y) & 0xffffff) != 0xffffff) {
                    coloured++;
                }
            }
        }
        assertTrue(coloured > 500, "bars and text were drawn: " + coloured);
        assertThrows(BadQueryException.class, () -> Plots.view(view, "nonsense", 800));
        assertThrows(BadQueryException.class, () -> Plots.write(p, dir.resolve("x.gif")));
    }

    @Test
    void timeTextIsExact() {
        assertEquals("1.5 µs", TimeText.duration(1_500));
        assertEquals("2 ms", TimeText.duration(2_000_000));
        assertEquals("1.000000001 s", TimeText.duration(1_000_000_001));
        assertEquals("0 ns", TimeText.duration(0));
        for (Slice s : trace.slices.subList(0, 200)) {
            String t = TimeText.duration(s.dur());
            assertEquals(s.dur(), TimelineBrowserTest.parseDuration(t), t);
        }
    }
}
