package org.hetscope.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * An exclusive lock on a store's target path, held by the one import writing it: {@code TARGET.lock}, locked
 * through the operating system (so a killed import leaves no lock behind, only an unlocked file that the next
 * import reuses) and deleted on release.
 */
final class OutputLock {
    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private OutputLock(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code target} at once, or fails saying that another import is writing it. */
    static OutputLock acquire(Path target) throws IOException {
        Path path = target.resolveSibling(target.getFileName() + ".lock");
        for (int attempt = 0; attempt < 10; attempt++) {
            FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            Object before;
            try {
                before = identity(path);
            } catch (NoSuchFileException e) {
                ch.close();
                continue;
            }
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null; // held by this JVM
            }
            if (l == null) {
                ch.close();
                throw new IOException(target + ": another import is writing this store now (" + path
                        + " is locked); wait for it to finish or choose another output");
            }
            // The holder before us deletes the file on release: if it did so after we opened it, our lock is on a
            // file no longer at the path, and a third import could lock a new one there. The path naming the
            // same file before and after locking proves ours is the file at the path. (Only stat, never open:
            // closing any other descriptor of the file would drop this process's lock.)
            try {
                if (before.equals(identity(path))) {
                    return new OutputLock(path, ch, l);
                }
            } catch (NoSuchFileException e) {
                // deleted under us: try again with a new file
            }
            l.release();
            ch.close();
        }
        throw new IOException(target + ": cannot lock " + path + " (it keeps being replaced)");
    }

    /** The file a path names now (device and inode where the system tells them), without opening it. */
    private static Object identity(Path path) throws IOException {
        Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        return key != null ? key : Files.readAttributes(path, BasicFileAttributes.class).creationTime();
    }

    /** Deletes the lock file while still holding it, then lets go. Safe to call more than once. */
    synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // an unlocked lock file left behind is reused by the next import
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // closing the channel releases the lock in any case
        }
    }
}
