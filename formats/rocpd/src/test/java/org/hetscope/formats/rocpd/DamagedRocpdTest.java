package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rocpd database whose kernel dispatch table has a damaged page: the other tables are still read whole. */
class DamagedRocpdTest {
    @TempDir
    Path dir;

    @Test
    void aDamagedDispatchPageLeavesTheRegionsAndCopies() throws Exception {
        Path intact = dir.resolve("intact.db");
        Path damaged = dir.resolve("damaged.db");
        RocpdTestDatabase.create(intact, 5);
        RocpdTestDatabase.create(damaged, 5);
        long root;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + damaged.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'rocpd_kernel_dispatch_00ab'")) {
            assertTrue(rs.next());
            root = rs.getLong(1);
        }
        try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
            f.seek(16);
            int pageSize = f.readUnsignedShort();
            f.seek((root - 1) * (pageSize == 1 ? 65536 : pageSize));
            f.writeByte(0x00); // not a b-tree page type
        }
        CollectingSink whole = new CollectingSink();
        new RocpdFormat().read(intact, whole, Progress.NONE);
        CollectingSink cut = new CollectingSink();
        new RocpdFormat().read(damaged, cut, Progress.NONE);

        assertEquals(RocpdTestDatabase.DISPATCHES, whole.kernels.size());
        assertEquals(0, cut.kernels.size(), "the dispatch table's only page is damaged");
        assertEquals(whole.slices.stream().filter(s -> s.category() != Category.KERNEL).count(),
                cut.slices.stream().filter(s -> s.category() != Category.KERNEL).count(),
                "API regions and copies are read whole");
        assertEquals(whole.transfers.size(), cut.transfers.size());
        assertTrue(cut.skipped.keySet().stream().anyMatch(k -> k.startsWith("damaged input: ")
                && k.contains("rocpd_kernel_dispatch")), cut.skipped.toString());
    }
}
