package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.hetscope.formats.sqlite.SqliteDamage;
import org.hetscope.model.Category;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged page in one table of an export: that table keeps the rows before the damage, the others are read
 * whole, and the loss is reported with the page. The damage is made here by hand in a copy of the real fixture
 * (the last leaf page of the kernel table gets an invalid page type), and the expected counts come from SQL over
 * the intact fixture.
 */
class DamagedExportTest {
    @TempDir
    Path dir;

    private static long sqlCount(Path db, String query) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aDamagedKernelPageCutsOnlyTheKernelTableShort() throws Exception {
        Path copy = dir.resolve("damaged.sqlite");
        Files.copy(NsysFormatTest.FIXTURE, copy);
        copy.toFile().setWritable(true);
        long kernels = sqlCount(copy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        long runtime = sqlCount(copy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
        long memcpy = sqlCount(copy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY");
        SqliteDamage.LostLeaf lost = SqliteDamage.breakLastLeaf(copy, "CUPTI_ACTIVITY_KIND_KERNEL");
        long lastLeaf = lost.page();
        int lostRows = lost.rows();
        assertTrue(lostRows > 0 && lostRows < kernels);

        TruncatedExportTest.WhereSink sink = new TruncatedExportTest.WhereSink();
        new NsysFormat().read(copy, sink, Progress.NONE);

        assertEquals(kernels - lostRows, sink.slices.stream().filter(s -> s.category() == Category.KERNEL).count(),
                "the kernel rows before the damaged leaf");
        assertEquals(kernels - lostRows, sink.kernels.size());
        assertEquals(runtime, sink.slices.stream().filter(s -> "cuda_runtime".equals(s.sourceCategory())).count(),
                "the runtime table is read whole");
        assertEquals(memcpy, sink.transfers.size(), "the memcpy table is read whole");
        Map.Entry<String, Long> loss = sink.skipped.entrySet().stream()
                .filter(e -> e.getKey().startsWith("damaged_page: ")).findFirst().orElseThrow();
        assertTrue(sink.wheres.get(loss.getKey()).contains("page " + lastLeaf), sink.wheres.get(loss.getKey()));
        assertTrue(loss.getValue() >= 1);
    }
}
