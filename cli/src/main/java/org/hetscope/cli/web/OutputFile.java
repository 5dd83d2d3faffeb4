package org.hetscope.cli.web;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The file a command writes ({@code report -o}, {@code plot -o}): never one of the command's inputs, an existing file
 * only with {@code --force}, and written whole or not at all (a sibling temporary file moved into place), so that a
 * failed write leaves what was there before.
 */
public final class OutputFile {
    /** Writes the content to the path it is given (a temporary file with the output's extension). */
    public interface Writer {
        void write(Path to) throws IOException;
    }

    private OutputFile() {
    }

    /** Why {@code output} may not be written, or null when it may; exit code 2 goes with a refusal. */
    public static String refusal(Path output, boolean force, Path... inputs) {
        for (Path in : inputs) {
            if (in != null && sameFile(in, output)) {
                return "is one of the inputs (" + in + "); not replacing it";
            }
        }
        if (Files.isDirectory(output)) {
            return "is a folder; name the file to write";
        }
        if (!force && Files.exists(output)) {
            return "exists; not replacing it (use --force to replace it)";
        }
        Path parent = output.toAbsolutePath().getParent();
        if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
            return "cannot be written: " + parent + " is not a folder";
        }
        return null;
    }

    /** Writes through a temporary sibling, then moves it over {@code output}; missing folders are made. */
    public static void write(Path output, Writer writer) throws IOException {
        Path target = output.toAbsolutePath();
        Path dir = target.getParent();
        String name = target.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String suffix = dot > 0 ? name.substring(dot) : ".tmp";
        Path tmp;
        try {
            Files.createDirectories(dir);
            tmp = freshSibling(dir, name, suffix);
        } catch (java.nio.file.FileSystemException e) {
            // the temporary file's name means nothing to the user: name the output and its folder
            boolean ours = e.getFile() != null && Path.of(e.getFile()).getFileName().toString().startsWith("." + name);
            throw new IOException(output + ": cannot be written (" + (ours ? org.hetscope.cli.ErrorText.reason(e)
                    + " in " + dir : org.hetscope.cli.ErrorText.of(e)) + ")", e);
        }
        try {
            writer.write(tmp);
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new empty file beside the output, made with the default permissions (a temp file's would be 0600). */
    private static Path freshSibling(Path dir, String name, String suffix) throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        while (true) {
            Path tmp = dir.resolve("." + name + "." + Long.toUnsignedString(random.nextLong(), 36) + suffix);
            try {
                return Files.createFile(tmp);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // taken: draw another name
            }
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b)) { // same inode, also through links
                return true;
            }
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        } catch (IOException e) {
            return false;
        }
    }
}
