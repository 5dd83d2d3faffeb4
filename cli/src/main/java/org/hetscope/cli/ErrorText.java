package org.hetscope.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The sentence a failure gives the user. A file system error's own message is often the bare path
 * ({@code AccessDeniedException}: "/data/run.hets"), which says nothing of what went wrong: here it gets its reason.
 */
public final class ErrorText {
    private ErrorText() {
    }

    public static String of(Throwable e) {
        String m = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException f) {
                String bare = t.getMessage();
                if (m == null || m.equals(bare) || m.equals(f.getFile()) || m.equals(t.toString())) {
                    return describe(f);
                }
                // a wrapper that says more and ends in the bare exception: keep what it says, add the reason
                if (m.endsWith(t.toString())) {
                    return m.substring(0, m.length() - t.toString().length()) + describe(f);
                }
                if (f.getReason() == null && bare != null && m.endsWith(": " + bare)) {
                    return m.substring(0, m.length() - bare.length()) + describe(f);
                }
            }
        }
        return m == null ? e.toString() : m;
    }

    private static String describe(FileSystemException f) {
        String file = f.getFile() == null ? "" : f.getFile();
        return file + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + reason(f);
    }

    /** What went wrong, without the path: "permission denied", "no such file or folder", ... */
    public static String reason(FileSystemException f) {
        String reason = f.getReason() != null ? f.getReason()
                : f instanceof AccessDeniedException ? "permission denied"
                : f instanceof NoSuchFileException ? "no such file or folder"
                : f instanceof NotDirectoryException ? "not a folder"
                : f instanceof FileAlreadyExistsException ? "already exists"
                : f instanceof DirectoryNotEmptyException ? "folder not empty"
                : "cannot be read or written";
        return reason.toLowerCase(java.util.Locale.ROOT);
    }
}
