package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An SQLite file the scanner cannot read: corrupt or truncated pages, or a feature it leaves to sqlite-jdbc. The
 * message names the file and, where the fault sits on a page, the page number and the byte offset in the file.
 */
public final class SqliteFormatException extends IOException {
    private final Path file;
    private final long page;
    private final long fileOffset;
    private final String reason;

    public SqliteFormatException(Path file, long page, long fileOffset, String reason) {
        super(file + (page > 0 ? ": page " + page + " (file offset " + fileOffset + ")" : "") + ": " + reason);
        this.file = file;
        this.page = page;
        this.fileOffset = fileOffset;
        this.reason = reason;
    }

    public SqliteFormatException(Path file, String reason) {
        this(file, 0, 0, reason);
    }

    public Path file() {
        return file;
    }

    /** The page at fault (1-based), or 0 when the fault is not on one page. */
    public long page() {
        return page;
    }

    /** The byte offset in the file of the fault (0 when not on a page). */
    public long fileOffset() {
        return fileOffset;
    }

    /** What is wrong, without the file and the page. */
    public String reason() {
        return reason;
    }
}
