package org.hetscope.cli;

import java.nio.file.Path;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceSink;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;

/**
 * A test-only format (chosen with {@code --format test-error}, never detected) whose reader stores some rows and
 * then ends in the Error its input file names: how an import ends when a reader fails with something that is
 * neither an Exception nor an OutOfMemoryError; or, for "denied", with a file it may not read.
 */
public final class FailingFormat implements TraceFormat {
    @Override
    public String name() {
        return "test-error";
    }

    @Override
    public int priority() {
        return -1000;
    }

    @Override
    public boolean accepts(Path input) {
        return false;
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws java.io.IOException {
        long track = sink.newId(Entity.TRACK);
        sink.track(Track.of(track, null, TrackKind.THREAD, "t"));
        for (int i = 0; i < 10_000; i++) {
            sink.slice(new Slice(sink.newId(Entity.SLICE), track, i * 10L, 5, "s", Category.CPU_OP, null, -1, null,
                    null));
        }
        String kind = java.nio.file.Files.readString(input).trim();
        switch (kind) {
            case "stack" -> overflow(0);
            case "assertion" -> throw new AssertionError("a reader's broken invariant");
            // a file of the trace the reader may not open: the JDK's message is the bare path
            case "denied" -> throw new java.nio.file.AccessDeniedException(input.resolveSibling("part-0").toString());
            default -> throw new LinkageError("missing class " + kind);
        }
    }

    private static int overflow(int depth) {
        return overflow(depth + 1) + 1; // a real StackOverflowError, as deeply nested input gives a recursive parser
    }
}
