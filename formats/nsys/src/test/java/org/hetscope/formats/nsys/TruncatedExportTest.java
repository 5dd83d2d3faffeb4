package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real export cut short at many places. SQLite itself refuses such a file as a whole as soon as a page of its
 * schema is missing; the reader names the page and byte offset where the file ends and keeps every row that is on an
 * intact page. The expected rows per table come from SQLite's {@code dbstat} over the intact file (which pages hold
 * each table's rows, and which leaf of the schema holds each table's entry), not from the reader.
 */
class TruncatedExportTest {
    static final int PAGE = 4096;
    static final String[] TABLES = {NsysReader.RUNTIME, NsysReader.KERNEL, NsysReader.MEMCPY, NsysReader.SYNC};
    /** Per table: its b-tree pages as dbstat lists them (path, page, type, cells). */
    static final Map<String, List<Page>> PAGES = new HashMap<>();
    /** Per table: the schema leaf page holding its entry. */
    static final Map<String, Long> SCHEMA_LEAF = new HashMap<>();
    static CollectingSink intact;

    record Page(String path, long page, String type, long cells) {}

    @BeforeAll
    static void plan() throws Exception {
        Path f = NsysFormatTest.FIXTURE;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f.toAbsolutePath());
             Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT name, path, pageno, pagetype, ncell FROM dbstat ORDER BY path")) {
                while (rs.next()) {
                    PAGES.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new Page(rs.getString(2), rs.getLong(3), rs.getString(4), rs.getLong(5)));
                }
            }
            // schema entries in rowid order fill the schema's leaves in key (path) order
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master ORDER BY rowid")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            int i = 0;
            for (Page p : PAGES.get("sqlite_schema")) {
                if (p.type().equals("leaf")) {
                    for (long n = 0; n < p.cells(); n++) {
                        SCHEMA_LEAF.put(names.get(i++), p.page());
                    }
                }
            }
            assertEquals(names.size(), i, "every schema entry is on a leaf");
        }
        for (String t : TABLES) {
            assertTrue(PAGES.get(t).stream().noneMatch(p -> p.type().equals("overflow")), t + " has no overflow page");
        }
        intact = new CollectingSink();
        new NsysFormat().read(f, intact, Progress.NONE);
    }

    /** Rows of {@code table} on leaves that are whole in a file of {@code pages} whole pages, under whole pages. */
    static long keptRows(String table, long pages) {
        if (SCHEMA_LEAF.get(table) > pages) {
            return 0;
        }
        Map<String, Long> pageOfPath = new HashMap<>();
        for (Page p : PAGES.get(table)) {
            pageOfPath.put(p.path(), p.page());
        }
        long n = 0;
        for (Page p : PAGES.get(table)) {
            if (!p.type().equals("leaf")) {
                continue;
            }
            boolean whole = true;
            for (int at = p.path().indexOf('/'); at >= 0; at = p.path().indexOf('/', at + 1)) {
                Long ancestor = pageOfPath.get(p.path().substring(0, at + 1));
                whole &= ancestor == null || ancestor <= pages;
            }
            if (whole && p.page() <= pages) {
                n += p.cells();
            }
        }
        return n;
    }

    static long stored(CollectingSink sink, String table) {
        Predicate<Slice> of = switch (table) {
            case NsysReader.RUNTIME -> s -> "cuda_runtime".equals(s.sourceCategory());
            case NsysReader.KERNEL -> s -> s.category() == Category.KERNEL;
            case NsysReader.MEMCPY -> s -> s.category() == Category.MEMCPY;
            default -> s -> "cuda_sync".equals(s.sourceCategory());
        };
        return sink.slices.stream().filter(of).count();
    }

    static Path cut(Path dir, long bytes) throws IOException {
        Path out = dir.resolve("cut-" + bytes + ".sqlite");
        try (InputStream in = Files.newInputStream(NsysFormatTest.FIXTURE); OutputStream o = Files.newOutputStream(out)) {
            o.write(in.readNBytes((int) bytes));
        }
        return out;
    }

    static boolean sqliteReadsIt(Path file) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
            return rs.next();
        } catch (SQLException e) {
            return false;
        }
    }

    @ParameterizedTest(name = "cut at byte {0}")
    @ValueSource(longs = {100L * PAGE, 150L * PAGE + 1234, 250L * PAGE, 300L * PAGE + 17, 418L * PAGE,
        480L * PAGE + 4000, 500L * PAGE, 525L * PAGE})
    void everyRowOnAnIntactPageIsKept(long bytes, @TempDir Path dir) throws Exception {
        Path file = cut(dir, bytes);
        long pages = bytes / PAGE;
        assertFalse(sqliteReadsIt(file) && pages < 507, "SQLite refuses the file once a schema page is gone");
        NsysFormat format = new NsysFormat();
        boolean known = SCHEMA_LEAF.get("StringIds") <= pages && SCHEMA_LEAF.keySet().stream()
                .anyMatch(t -> t.startsWith("CUPTI_ACTIVITY_KIND_") && SCHEMA_LEAF.get(t) <= pages);
        if (!known) {
            // nothing left says which tables are there: refused, naming where the file ends
            assertFalse(format.accepts(file));
            TraceFormatException e = assertThrows(TraceFormatException.class,
                    () -> format.read(file, new CollectingSink(), Progress.NONE));
            assertTrue(e.getMessage().contains("page " + (pages + 1) + " (file offset " + pages * PAGE + ")")
                    && e.getMessage().contains("truncated"), e.getMessage());
            return;
        }
        assertTrue(format.accepts(file), "recognised by the schema the scanner reads");
        CollectingSink sink = new CollectingSink();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> format.read(file, sink, Progress.NONE));

        for (String t : TABLES) {
            assertEquals(keptRows(t, pages), stored(sink, t), t + " rows on intact pages");
        }
        // what is kept is what the intact file holds (names may fall back where a lookup table was cut off)
        Set<String> all = new HashSet<>();
        for (Slice s : intact.slices) {
            all.add(s.ts() + " " + s.dur() + " " + s.category());
        }
        for (Slice s : sink.slices) {
            assertTrue(all.contains(s.ts() + " " + s.dur() + " " + s.category()), s.toString());
        }
        String truncated = sink.skipped.keySet().stream()
                .filter(k -> org.hetscope.model.CollectingSink.isDamageKey(k) && k.contains("file truncated")).findFirst()
                .orElseThrow(() -> new AssertionError(sink.skipped.keySet().toString()));
        assertTrue(truncated.contains("the header declares 526 pages") && truncated.contains("the file has " + bytes
                + " bytes"), truncated);
        WhereSink where = new WhereSink();
        format.read(file, where, Progress.NONE);
        assertTrue(where.wheres.get(truncated).contains("page " + (pages + 1) + " (file offset " + pages * PAGE + ")"),
                where.wheres.get(truncated));
        long lost = 0;
        for (String t : TABLES) {
            lost += PAGES.get(t).stream().filter(p -> p.type().equals("leaf")).mapToLong(Page::cells).sum()
                    - keptRows(t, pages);
        }
        if (lost > 0) {
            // every table that lost rows says so, with a page
            for (String t : TABLES) {
                if (keptRows(t, pages) < PAGES.get(t).stream().filter(p -> p.type().equals("leaf"))
                        .mapToLong(Page::cells).sum() && SCHEMA_LEAF.get(t) <= pages) {
                    assertTrue(where.wheres.entrySet().stream().anyMatch(e -> e.getKey().contains(t)
                            && e.getValue().contains("page ")), t + " " + where.wheres);
                }
            }
        }
    }

    @Test
    void aFileCutInsideItsFirstPageNamesPageOne(@TempDir Path dir) throws Exception {
        Path file = cut(dir, 3000);
        NsysFormat format = new NsysFormat();
        assertFalse(format.accepts(file));
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> format.read(file, new CollectingSink(), Progress.NONE));
        assertTrue(e.getMessage().contains("page 1") && e.getMessage().contains("file offset 0")
                && e.getMessage().contains("truncated"), e.getMessage());
    }

    /** Keeps the where of each skipped reason. */
    static final class WhereSink extends CollectingSink {
        final Map<String, String> wheres = new java.util.LinkedHashMap<>();

        @Override
        public void skipped(org.hetscope.model.SkipReason reason, String detail, String where, long count) {
            super.skipped(reason, detail, where, count);
            String what = key(reason, detail);
            wheres.putIfAbsent(what, where);
        }
    }
}
