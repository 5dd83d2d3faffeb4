package org.hetscope.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.model.Progress;

/** A progress bar on standard error, drawn only when standard error is a terminal. */
public final class TerminalProgress implements Progress {
    private final PrintStream err;
    private String label = "";
    private long total = -1;
    private long startNanos;
    private long lastDraw;

    private TerminalProgress(PrintStream err) {
        this.err = err;
    }

    /** A bar on stderr when it is a terminal, otherwise {@link Progress#NONE}. */
    public static Progress forStderr() {
        return stderrIsTerminal() ? new TerminalProgress(System.err) : Progress.NONE;
    }

    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void start(String label, long total) {
        this.label = label;
        this.total = total;
        this.startNanos = System.nanoTime();
        this.lastDraw = 0;
        draw(0, true);
    }

    @Override
    public void advance(long done) {
        long now = System.nanoTime();
        if (now - lastDraw > 100_000_000L) {
            lastDraw = now;
            draw(done, false);
        }
    }

    private void draw(long done, boolean force) {
        double secs = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        String rate = String.format("%.1f MB/s", done / 1e6 / secs);
        if (total > 0) {
            int width = 30;
            int filled = (int) Math.min(width, width * done / total);
            err.printf("\r%s [%s%s] %3d%% %s ", label, "#".repeat(filled), " ".repeat(width - filled),
                    Math.min(100, 100 * done / total), rate);
        } else if (done == 0) {
            err.printf("\r%s ...", label);
        } else {
            err.printf("\r%s %,d %s ", label, done, rate);
        }
        err.flush();
    }

    @Override
    public void finish() {
        err.print("\r" + " ".repeat(78) + "\r");
        err.flush();
    }
}
