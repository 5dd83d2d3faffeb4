package org.hetscope.formats.otf2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * OTF2 archives (Score-P and other tools), read in pure Java: give the anchor file ({@code traces.otf2}) or the
 * folder that holds it.
 */
public final class Otf2Format implements TraceFormat {

    @Override
    public String name() {
        return "otf2";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        return Otf2Archive.isAnchor(anchor(input));
    }

    static Path anchor(Path input) throws IOException {
        if (Files.isDirectory(input)) {
            Path t = input.resolve("traces.otf2");
            if (Files.isRegularFile(t)) {
                return t;
            }
            try (var s = Files.list(input)) {
                return s.filter(p -> p.getFileName().toString().endsWith(".otf2")).findFirst().orElse(t);
            }
        }
        return input;
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        Path anchor = anchor(input);
        progress.start("otf2 " + anchor.getFileName(), -1);
        Otf2Archive archive = Otf2Archive.read(anchor);
        new Otf2Importer(archive, sink).emit();
    }
}
