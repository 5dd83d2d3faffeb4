package org.hetscope.analysis.mining.itemsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FimiReaderTest {
    @Test
    void readsBlankSeparatedTransactions(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.dat");
        Files.writeString(f, "1 2 3\n1\t3 \n\n2 2 1\n");
        TransactionDatabase db = FimiReader.read(f);
        assertEquals(4, db.size());
        assertEquals(List.of("1", "2", "3"), db.names(0));
        assertEquals(List.of("1", "3"), db.names(1));
        assertEquals(List.of(), db.names(2));
        assertEquals(List.of("1", "2"), db.names(3)); // repeated items count once
        assertEquals(3, db.support(List.of("1")));
    }

    @Test
    void binaryDataIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.dat");
        Files.write(f, new byte[] {'1', ' ', '2', '\n', '3', 0, '4', '\n'});
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> FimiReader.read(f));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertTrue(e.getMessage().contains("bad.dat"), e.getMessage());
    }
}
