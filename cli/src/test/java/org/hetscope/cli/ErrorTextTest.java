package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the user may not read or write is named with the reason. Before, {@code info} on a store without read
 * permission printed "hetscope: /data/run.hets" and nothing else (the JDK's AccessDeniedException message is the
 * bare path), and a report into a folder without write permission named only its temporary file.
 */
class ErrorTextTest {
    @TempDir
    Path dir;

    @Test
    void fileSystemErrorsSayWhatWentWrong() {
        assertEquals("/d/run.hets: permission denied", ErrorText.of(new AccessDeniedException("/d/run.hets")));
        assertEquals("/d/x: no such file or folder", ErrorText.of(new NoSuchFileException("/d/x")));
        assertEquals("/d/a -> /d/b: disk full", ErrorText.of(new FileSystemException("/d/a", "/d/b", "Disk full")));
        // wrapped, by a reader or a stream, with the path as the whole message or its end
        assertEquals("/d/run.hets: permission denied", ErrorText.of(new UncheckedIOException(
                new AccessDeniedException("/d/run.hets"))));
        assertEquals("/d/run.hets: permission denied", ErrorText.of(new IOException("/d/run.hets",
                new AccessDeniedException("/d/run.hets"))));
        // a message that says more than the path is kept
        assertEquals("/d/t.json at byte 3: bad", ErrorText.of(new IOException("/d/t.json at byte 3: bad",
                new AccessDeniedException("/d/other"))));
        assertEquals("java.lang.IllegalStateException", ErrorText.of(new IllegalStateException()));
        // a wrapper that ends in the bare exception keeps its words and gets the reason
        java.nio.file.NoSuchFileException gone = new java.nio.file.NoSuchFileException("/d/s/x.spill");
        assertEquals("cannot create a spill file in /d/s: /d/s/x.spill: no such file or folder",
                ErrorText.of(new IOException("cannot create a spill file in /d/s: " + gone, gone)));
        assertEquals("reading /d/x: /d/x: permission denied", ErrorText.of(new IOException("reading /d/x: /d/x",
                new AccessDeniedException("/d/x"))));
    }

    @Test
    void anImportWhoseReaderMayNotOpenAFileNamesItAndTheReason() throws Exception {
        Path in = dir.resolve("trace.in");
        Files.writeString(in, "denied");
        CliRun r = CliRun.of("import", in.toString(), "--format", "test-error", "-o", dir.resolve("t.hets").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertEquals("hetscope: " + dir.resolve("part-0") + ": permission denied", r.err().strip());
        assertFalse(Files.exists(dir.resolve("t.hets")), "no store written");
    }

    /** Before: "hetscope: /d/clocks.json" and nothing else. */
    @Test
    void aMissingClockManifestIsNamedMissing() {
        Path manifest = dir.resolve("clocks.json");
        CliRun r = CliRun.of("import", ImportCommandTest.SIMPLE_ADD.toString(), "--clock-manifest", manifest.toString(),
                "-o", dir.resolve("m.hets").toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("hetscope: " + manifest + ": no such file or folder", r.err().strip());
    }

    @Test
    void aReportUnderAFileInsteadOfAFolderSaysSo() throws Exception {
        Path store = dir.resolve("s.hets");
        assertEquals(0, CliRun.of("import", ImportCommandTest.SIMPLE_ADD.toString(), "-o", store.toString())
                .exitCode());
        Path notes = Files.writeString(dir.resolve("notes.txt"), "mine");
        CliRun r = CliRun.of("report", store.toString(), "-o", notes.resolve("sub/r.html").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("hetscope: " + notes.resolve("sub/r.html") + ": cannot be written ("), r.err());
        assertFalse(r.err().contains(".r.html."), "no temporary name: " + r.err());
        assertEquals("mine", Files.readString(notes));
    }
}
