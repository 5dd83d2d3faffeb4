package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hetscope.formats.sqlite.SqliteDamage;
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
        SqliteDamage.breakRootPage(damaged, "rocpd_kernel_dispatch_00ab");
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
        assertTrue(cut.skipped.keySet().stream().anyMatch(k -> CollectingSink.isDamageKey(k)
                && k.contains("rocpd_kernel_dispatch")), cut.skipped.toString());
    }
}
