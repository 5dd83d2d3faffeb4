package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store is data: a store received from someone else, and any query over it, must not read or write other
 * files, attach databases or fetch extensions; writing a store must never destroy another import's work.
 */
class StoreSecurityTest {
    static final String SECRET = "the-secret-line-7c1f";

    @TempDir
    Path dir;

    /** A complete store with one slice, written by the real writer. */
    private Path store(String name) throws IOException {
        Path file = dir.resolve(name);
        StoreWriter w = StoreWriter.create(file);
        long track = w.newId(Entity.TRACK);
        w.track(Track.of(track, null, TrackKind.THREAD, "t"));
        w.slice(new Slice(w.newId(Entity.SLICE), track, 10, 5, "k", Category.KERNEL, null, -1, null, null));
        w.commit();
        return file;
    }

    /** A store whose author added views and a macro that read a local file when used. */
    private Path hostileStore(Path secret) throws Exception {
        Path file = store("hostile.duckdb");
        String q = "'" + secret.toString().replace("'", "''") + "'";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE VIEW notes AS SELECT * FROM read_text(" + q + ")");
            st.execute("CREATE VIEW notes_csv AS SELECT * FROM read_csv(" + q + ", header = false)");
            st.execute("CREATE MACRO peek() AS TABLE SELECT * FROM read_text(" + q + ")");
        }
        return file;
    }

    private Path secret() throws IOException {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, SECRET + "\n");
        return secret;
    }

    /** The message of a refused statement; fails if it ran. */
    private static String refused(Store s, String sql) {
        StoreException e = assertThrows(StoreException.class, () -> s.query(sql), sql);
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        return e.getMessage();
    }

    @Test
    void viewsAndQueriesCannotReadLocalFiles() throws Exception {
        Path secret = secret();
        Path file = hostileStore(secret);
        try (Store s = Store.open(file)) {
            String q = "'" + secret + "'";
            for (String sql : List.of("SELECT * FROM notes", "SELECT * FROM notes_csv", "SELECT * FROM peek()",
                    "SELECT * FROM read_text(" + q + ")", "SELECT * FROM read_csv(" + q + ", sep = ':')",
                    "SELECT * FROM read_blob(" + q + ")", "SELECT * FROM glob('" + dir + "/*')",
                    "SELECT * FROM " + q)) {
                String m = refused(s, sql);
                assertTrue(m.contains("Permission Error") || m.contains("Catalog Error"), sql + ": " + m);
            }
            // the same through a further connection (the web server's windows use one)
            try (Connection c = s.newConnection(); Statement st = c.createStatement()) {
                assertThrows(java.sql.SQLException.class, () -> st.executeQuery("SELECT * FROM notes"));
            }
            assertEquals(1L, s.scalarLong("SELECT count(*) FROM slice"), "the store's own data still reads");
        }
    }

    @Test
    void queriesCannotWriteAttachInstallOrUnlock() throws Exception {
        Path file = store("a.duckdb");
        Path other = store("other.duckdb");
        byte[] before = Files.readAllBytes(file);
        try (Store s = Store.open(file)) {
            String out = dir.resolve("out.csv").toString();
            refused(s, "COPY (SELECT 'x') TO '" + out + "' (FORMAT csv)");
            refused(s, "COPY (SELECT 'x') TO '" + file + "' (FORMAT csv)");
            refused(s, "EXPORT DATABASE '" + dir.resolve("export") + "'");
            refused(s, "ATTACH '" + other + "' AS o (READ_WRITE)");
            refused(s, "INSTALL httpfs");
            refused(s, "LOAD httpfs");
            refused(s, "SET enable_external_access = true");
            refused(s, "RESET lock_configuration");
            refused(s, "SET autoinstall_known_extensions = true");
            refused(s, "DELETE FROM slice");
            assertFalse(Files.exists(dir.resolve("out.csv")));
            assertFalse(Files.exists(dir.resolve("export")));
        }
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)), "the store is unchanged");
        try (Store o = Store.open(other)) {
            assertEquals(1L, o.scalarLong("SELECT count(*) FROM slice"), "the other store is unchanged");
        }
    }

    @Test
    void temporaryViewsAndMacrosStillWorkOnTheLockedReadOnlyStore() throws Exception {
        // hetscope's own SQL library installs these on each connection (Store.afterOpen)
        try (Store s = Store.open(store("a.duckdb")); Statement st = s.connection().createStatement()) {
            st.execute("CREATE TEMP VIEW kernels AS SELECT * FROM slice WHERE category = 'kernel'");
            st.execute("CREATE TEMP MACRO ms(ns) AS ns / 1e6");
            assertEquals(1L, s.scalarLong("SELECT count(*) FROM kernels"));
            assertEquals(5e-6, (Double) s.query("SELECT ms(5)").rows().get(0)[0], 1e-12);
            assertEquals("true", s.query("SELECT current_setting('lock_configuration')::VARCHAR").rows().get(0)[0]);
        }
    }

    @Test
    void aDamagedStoreIsNamed() throws Exception {
        Path file = store("a.duckdb");
        byte[] b = Files.readAllBytes(file);
        // the blocks after DuckDB's two headers hold the catalog and the data
        for (int i = 3 * 4096; i < b.length; i++) {
            b[i] = (byte) 0x5a;
        }
        Files.write(file, b);
        IOException e = assertThrows(IOException.class, () -> Store.open(file));
        assertTrue(e.getMessage().startsWith(file + ": damaged store (Data Corruption Error"), e.getMessage());
    }

    @Test
    void damageFoundByALaterQueryNamesTheStore() throws Exception {
        Path file = store("a.duckdb");
        try (Store s = Store.open(file)) {
            assertEquals(1L, s.scalarLong("SELECT count(*) FROM slice"));
            StoreException e = s.failure(new java.sql.SQLException("Data Corruption Error: Corrupt database file: "
                    + "computed checksum 1 does not match stored checksum 2 in block at location 12288"));
            assertTrue(e.getMessage().startsWith(file + ": damaged store (Data Corruption Error"), e.getMessage());
        }
        // an analysis that passes DuckDB's message on in its own words: the command line names the store too
        String m = Store.nameDamagedStore("reading GPU activity: Data Corruption Error: Corrupt database file");
        assertTrue(m.startsWith(file + ": damaged store (reading GPU activity: "), m);
        assertEquals("no such table", Store.nameDamagedStore("no such table"));
    }

    @Test
    void partialStoresWarnWhenOpened() throws Exception {
        Path file = dir.resolve("p.duckdb");
        StoreWriter w = StoreWriter.create(file);
        w.info(Store.PARTIAL_KEY, "true");
        w.info(Store.ERROR_KEY, "x.json at byte 12: truncated");
        w.commit();
        List<String> said = new ArrayList<>();
        Store.setWarnings(said::add);
        try (Store s = Store.open(file)) {
            assertTrue(s.partial());
        } finally {
            Store.setWarnings(null);
        }
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).contains(file + ": this store holds only the start of its trace")
                && said.get(0).contains("x.json at byte 12: truncated"), said.get(0));
        said.clear();
        try (Store s = Store.open(store("whole.duckdb"))) {
            assertFalse(s.partial());
        }
        assertTrue(Store.isCompleteStore(file));
    }

    @Test
    void twoWritersOfOneTargetDoNotDestroyEachOther() throws Exception {
        Path file = dir.resolve("t.duckdb");
        StoreWriter first = StoreWriter.create(file);
        IOException busy = assertThrows(IOException.class, () -> StoreWriter.create(file));
        assertTrue(busy.getMessage().contains("another import is writing this store now"), busy.getMessage());
        assertTrue(Files.exists(first.partialPath()), "the second writer left the first one's partial file alone");
        first.info("who", "first");
        first.commit();
        try (Store s = Store.open(file)) {
            assertEquals("first", s.info().get("who"));
        }
        // the lock went with the first writer: a later one may write the target
        StoreWriter later = StoreWriter.create(file);
        later.abort();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(file), left.toList(), "no partial, wal or lock file left");
        }
    }

    @Test
    void staleFilesOfAKilledImportAreRemovedAtTheNextOne() throws Exception {
        Path file = dir.resolve("t.duckdb");
        List<Path> stale = List.of(dir.resolve("t.duckdb.partial"), dir.resolve("t.duckdb.partial.wal"),
                dir.resolve("t.duckdb.4242-abc.partial"), dir.resolve("t.duckdb.4242-abc.partial.wal"));
        for (Path p : stale) {
            Files.writeString(p, "left by kill -9");
        }
        Path unrelated = dir.resolve("t.duckdbx.partial");
        Files.writeString(unrelated, "not ours");
        StoreWriter w = StoreWriter.create(file);
        assertEquals(stale.stream().sorted().toList(), w.removedStale().stream().sorted().toList());
        w.commit();
        for (Path p : stale) {
            assertFalse(Files.exists(p), p.toString());
        }
        assertTrue(Files.exists(unrelated));
    }

    @Test
    void aFolderIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("folder"));
        IOException e = assertThrows(IOException.class, () -> StoreWriter.create(folder));
        assertTrue(e.getMessage().contains("is a folder"), e.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(folder), left.toList());
        }
    }
}
