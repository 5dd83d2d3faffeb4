package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hetscope report A --diff B}: the report's comparison section holds the rows of {@code hetscope diff A B
 * --json}, cell by cell (text cells equal, numbers equal to the exact figure in {@code data-v}).
 */
class ReportDiffTest {
    static final Path A = MergeClockTest.fixture(Path.of("../../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz"));
    static final Path B = MergeClockTest.fixture(Path.of("../../shared/fixtures/chrome/kineto-cuda-simple-add.json.gz"));
    static final Pattern ROW = Pattern.compile("<tr>(<td.*?)</tr>");
    static final Pattern CELL = Pattern.compile("<td class=\"(n|name)\"( data-ns=\"[^\"]*\")?( data-v=\"([^\"]*)\")?>(.*?)</td>");

    @TempDir
    Path dir;

    @Test
    void diffSectionHasTheNumbersOfDiffJson() throws Exception {
        Path a = dir.resolve("a.duckdb");
        Path b = dir.resolve("b.duckdb");
        assertEquals(0, CliRun.of("import", A.toString(), "-o", a.toString()).exitCode());
        assertEquals(0, CliRun.of("import", B.toString(), "-o", b.toString()).exitCode());
        Path html = dir.resolve("r.html");
        CliRun r = CliRun.of("report", a.toString(), "--diff", b.toString(), "-o", html.toString());
        assertEquals(0, r.exitCode(), r.err());
        String text = Files.readString(html);
        CliRun d = CliRun.of("diff", a.toString(), b.toString(), "--json");
        assertEquals(0, d.exitCode(), d.err());
        JsonNode json = new ObjectMapper().readTree(d.out());
        int checked = 0;
        String[][] tables = {{"operations", "diff-operations-table"}, {"iterations", "diff-iterations-table"},
            {"utilisation per device", "diff-utilisation-table"}};
        for (String[] t : tables) {
            JsonNode rows = json.get(t[0]);
            assertTrue(rows.size() > 0, t[0]);
            List<List<String[]>> shown = rows(text, t[1]);
            // the report shows the first 100 rows of each table, in the same order
            assertEquals(Math.min(100, rows.size()), shown.size(), t[0]);
            for (int i = 0; i < shown.size(); i++) {
                JsonNode row = rows.get(i);
                List<String[]> cells = shown.get(i);
                assertEquals(row.size(), cells.size(), t[0] + " row " + i);
                int c = 0;
                var names = row.fieldNames();
                while (names.hasNext()) {
                    String col = names.next();
                    JsonNode v = row.get(col);
                    String[] cell = cells.get(c++);
                    String where = t[0] + " row " + i + " " + col;
                    if (v.isNull()) {
                        assertEquals("", cell[1], where);
                    } else if (v.isNumber()) {
                        double x = Double.parseDouble(cell[0]);
                        if (col.endsWith("_ns")) {
                            assertEquals(v.asDouble(), x, 1e-6, where); // diff --json writes a whole-ns mean as an integer
                        } else {
                            assertEquals(v.asDouble(), x, 0.0, where);
                        }
                    } else {
                        assertEquals(v.asText(), unescape(cell[1]), where);
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked > 500, "cells checked: " + checked);
        assertTrue(text.contains("id=\"diff-summary\""));
        // without --diff, no comparison section
        Path plain = dir.resolve("plain.html");
        assertEquals(0, CliRun.of("report", a.toString(), "-o", plain.toString()).exitCode());
        assertFalse(Files.readString(plain).contains("id=\"diff\""));
        // a second run that is missing: a clear error, no report
        Path none = dir.resolve("none.html");
        CliRun bad = CliRun.of("report", a.toString(), "--diff", dir.resolve("nope.duckdb").toString(), "-o",
                none.toString());
        assertTrue(bad.exitCode() != 0 && bad.err().contains("nope.duckdb") && !Files.exists(none), bad.err());
    }

    /** The rows of the table with this id: each cell as {data-v, text}. */
    private static List<List<String[]>> rows(String html, String id) {
        int start = html.indexOf("<table id=\"" + id + "\">");
        assertTrue(start >= 0, id);
        String table = html.substring(start, html.indexOf("</table>", start));
        List<List<String[]>> out = new ArrayList<>();
        Matcher m = ROW.matcher(table);
        while (m.find()) {
            List<String[]> cells = new ArrayList<>();
            Matcher c = CELL.matcher(m.group(1));
            while (c.find()) {
                cells.add(new String[] {c.group(4), c.group(5)});
            }
            out.add(cells);
        }
        return out;
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
