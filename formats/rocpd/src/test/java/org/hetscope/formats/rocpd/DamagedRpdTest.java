package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.hetscope.formats.sqlite.SqliteDamage;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RPD databases that are damaged or incomplete: clear errors naming the file, or damage counted per table. */
class DamagedRpdTest {
    @TempDir
    Path dir;

    @Test
    void withoutRocpdOpTheFileIsRefusedByName() throws Exception {
        Path f = dir.resolve("no-ops.rpd");
        RpdTestDatabase.create(f, 3, false);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("DROP VIEW op");
            st.execute("DROP VIEW kernel");
            st.execute("DROP TABLE rocpd_op");
        }
        RocpdFormat format = new RocpdFormat();
        assertTrue(format.accepts(f), "still recognised as RPD, so the user gets the reason instead of 'unknown format'");
        CollectingSink s = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> format.read(f, s, Progress.NONE));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("rocpd_op"), e.getMessage());
        assertTrue(s.slices.isEmpty() && s.devices.isEmpty(), "nothing is imported from a refused file");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aDamagedOpPageLeavesTheHostCalls(boolean scan) throws Exception {
        Path intact = dir.resolve("intact.rpd");
        Path damaged = dir.resolve("damaged.rpd");
        RpdTestDatabase.create(intact, 5, false);
        Files.copy(intact, damaged);
        SqliteDamage.breakRootPage(damaged, "rocpd_op");
        CollectingSink whole = new CollectingSink();
        new RocpdFormat(scan).read(intact, whole, Progress.NONE);
        CollectingSink cut = new CollectingSink();
        new RocpdFormat(scan).read(damaged, cut, Progress.NONE);
        assertTrue(whole.kernels.size() > 0);
        assertEquals(0, cut.kernels.size(), "the op table's root page is damaged");
        assertEquals(0, cut.transfers.size());
        assertEquals(0, cut.flows.size());
        assertEquals(whole.slices.stream().filter(s -> s.category() == Category.API).count(),
                cut.slices.stream().filter(s -> s.category() == Category.API).count(), "host calls are read whole");
        assertEquals(whole.counters.size(), cut.counters.size(), "tables after the damaged one are still read");
        assertTrue(cut.skipped.entrySet().stream().anyMatch(e -> CollectingSink.isDamageKey(e.getKey())
                && e.getKey().contains("rocpd_op")), cut.skipped.toString());
    }

    @Test
    void aTruncatedFileIsRefusedByName() throws Exception {
        Path intact = dir.resolve("intact.rpd");
        RpdTestDatabase.create(intact, 5, false);
        byte[] all = Files.readAllBytes(intact);
        Path cut = dir.resolve("truncated.rpd");
        Files.write(cut, Arrays.copyOf(all, all.length / 2));
        CollectingSink s = new CollectingSink();
        // SQLite will not open the schema of a file shorter than its header says: a clear refusal, not a crash
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new RocpdFormat().read(cut, s, Progress.NONE));
        assertTrue(e.getMessage().startsWith(cut.toString()) && e.getMessage().contains("truncated"),
                e.getMessage());
        assertTrue(s.slices.isEmpty());
    }
}
