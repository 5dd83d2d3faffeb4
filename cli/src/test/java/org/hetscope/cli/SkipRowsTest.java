package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hetscope.model.SkipReason;
import org.hetscope.store.Store;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every reader's skip rows, as the import stores them: a reason of the closed list with its severity, a detail that
 * holds no position (those go to the location), and exit code 3 exactly when a row is of severity damaged input.
 */
class SkipRowsTest {
    private static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chrome/kineto-cuda-simple-add.json.gz", "chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
            "nsys/perlmutter-cloverleaf-cuda.sqlite", "otf2/ping-pong-otf2", "starpu/chol-dmda-nb6",
            "ctf/cyg-profile", "ctf/context-switches", "ctf/bug446190", "damaged:chrome", "damaged:paje"})
    void skipRowsUseTheClosedReasons(String input) throws Exception {
        Path in = input.startsWith("damaged:") ? damaged(input.substring(8)) : FIXTURES.resolve(input);
        Path out = dir.resolve("out.duckdb");
        CliRun r = CliRun.of("import", in.toString(), "-o", out.toString());
        List<Object[]> rows;
        try (Store s = Store.open(out)) {
            rows = s.query("select reason, severity, detail, location, count from skipped").rows();
        }
        long damage = 0;
        Set<String> keys = new HashSet<>();
        for (Object[] row : rows) {
            SkipReason reason = SkipReason.byId((String) row[0]);
            assertNotNull(reason, "not a closed reason: " + row[0]);
            assertEquals(reason.severity().id(), row[1], (String) row[0]);
            String detail = (String) row[2];
            if (detail != null) {
                assertFalse(detail.isBlank(), "an empty detail is stored as NULL");
                assertFalse(detail.contains(in.toString()) || detail.contains(in.getFileName().toString() + ":")
                        || detail.matches(".*\\bbyte [0-9].*"), "a position in the detail: " + detail);
            }
            assertTrue((Long) row[4] > 0, "count of " + row[0]);
            assertTrue(keys.add(row[0] + "\u0000" + detail), "one row per (reason, detail): " + row[0] + " " + detail);
            if (reason.damage()) {
                damage += (Long) row[4];
            }
        }
        assertEquals(damage > 0 ? 3 : 0, r.exitCode(), r.err());
        if (input.startsWith("damaged:")) {
            assertTrue(damage > 0, rows.size() + " rows");
            assertTrue(r.err().contains("damaged_record: "), r.err());
        }
    }

    private Path damaged(String kind) throws Exception {
        if (kind.equals("chrome")) {
            return Files.writeString(dir.resolve("bad.json"), "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                    + "\"ts\":\"soon\",\"dur\":2},\n{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5},\n"
                    + "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]");
        }
        List<String> lines = Files.readAllLines(FIXTURES.resolve("starpu/chol-dmda-nb6/paje.trace"));
        int body = 0;
        while (lines.get(body).startsWith("%") || lines.get(body).startsWith("#")) {
            body++;
        }
        lines.add(body + 10, "77 1.0 x y");
        return Files.write(dir.resolve("bad.trace"), lines);
    }
}
