package org.hetscope.model;

import java.nio.file.Path;

/**
 * Input that cannot be decoded. The message always names the file and the position (byte offset, line,
 * packet) so that a user can look at the spot.
 */
public class TraceFormatException extends Exception {
    private final Path file;
    private final String position;

    public TraceFormatException(Path file, String position, String reason) {
        this(file, position, reason, null);
    }

    public TraceFormatException(Path file, String position, String reason, Throwable cause) {
        super(file + (position == null || position.isEmpty() ? "" : " at " + position) + ": " + reason, cause);
        this.file = file;
        this.position = position;
    }

    public Path file() {
        return file;
    }

    public String position() {
        return position;
    }
}
