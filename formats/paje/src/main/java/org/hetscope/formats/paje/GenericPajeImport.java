package org.hetscope.formats.paje;

import java.io.IOException;
import java.nio.file.Path;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TrackKind;

/**
 * Puts a Paje trace of any producer onto the model without dialect knowledge: one track per container (in the
 * container tree), states as slices, events as instants, variables as counter tracks, links in {@code paje_link}.
 */
public final class GenericPajeImport implements PajeListener {
    private final Path file;
    private final TraceSink sink;
    private final PajeSinkBasics basics;
    private final SkipTally problems = new SkipTally();

    public GenericPajeImport(Path file, TraceSink sink) {
        this.file = file;
        this.sink = sink;
        this.basics = new PajeSinkBasics(file, sink, this::problem);
    }

    /** Reads the file; {@code timeShift} as in {@link PajeReader} (null: from the header). */
    public static void read(Path file, TraceSink sink, Progress progress, Integer timeShift) throws IOException {
        GenericPajeImport imp = new GenericPajeImport(file, sink);
        PajeReader reader = new PajeReader(imp, timeShift);
        reader.read(file, progress);
        imp.basics.info(reader);
        sink.info("paje.time_unit", reader.timeShift() == 9 ? "s" : reader.timeShift() == 6 ? "ms"
                : "1e-" + reader.timeShift() + " s");
        imp.problems.flushTo(sink);
    }

    @Override
    public void problem(SkipReason reason, String what, long line, String detail) {
        problems.add(reason, what, problems.count(reason, what) > 0 ? null
                : file + ":" + line + (detail == null ? "" : " (" + detail + ")"));
    }

    @Override
    public void container(PajeContainer c) {
        basics.track(c, c.parent() == null ? TrackKind.PROCESS : TrackKind.GENERIC);
    }

    @Override
    public void state(PajeState s) {
        basics.state(s);
    }

    @Override
    public void event(PajeEvent e) {
        basics.event(e);
    }

    @Override
    public void value(PajeType type, org.hetscope.formats.paje.PajeValue v) {
        basics.value(type, v);
    }

    @Override
    public void link(PajeLink l) {
        basics.link(l);
    }

    @Override
    public void variable(PajeContainer c, PajeType type, long time, double value, long line) {
        basics.variable(c, type, time, value);
    }
}
