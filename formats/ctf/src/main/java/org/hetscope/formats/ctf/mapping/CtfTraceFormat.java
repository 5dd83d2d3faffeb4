package org.hetscope.formats.ctf.mapping;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.CtfProblem;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.formats.ctf.StreamStats;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Instant;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * The {@code ctf} trace format: a CTF 1.8 or CTF 2 trace folder, or a folder (an LTTng session) holding several.
 * Known event families get meaningful records (libc heap, cyg-profile call stacks, statedump binaries, ROCm
 * profiler regions/kernels/copies/counters, Linux scheduler switches and wakeups as CPU lanes and thread
 * states, system calls and interrupt handlers, kernel slab allocations as a live-bytes counter); every other
 * event becomes an instant with all its fields as args,
 * on its thread's track when the event names a thread, else on its stream's track.
 */
public final class CtfTraceFormat implements TraceFormat {
    private long lastEvents;

    /** Number of events the last {@link #read} decoded. */
    public long events() {
        return lastEvents;
    }

    @Override
    public String name() {
        return "ctf";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        // stream files without their metadata are taken too, so that the reader says what is missing
        return CtfTrace.isCtf(input) || CtfTrace.streamWithoutMetadata(input) != null;
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        try (CtfTrace trace = CtfTrace.open(input); CtfTrace.Cursor cursor = trace.cursor()) {
            TrackRegistry tracks = new TrackRegistry(sink);
            SymbolMap symbols = null;
            Path symFile = SymbolMap.find(trace.traceDirs().get(0));
            if (symFile != null) {
                symbols = SymbolMap.load(symFile);
                sink.info("ctf.symbols", symFile.toString());
            }
            LibcHeapMapper heap = new LibcHeapMapper(tracks);
            List<EventMapper> mappers = List.of(heap, new CygProfileMapper(tracks, symbols),
                    new StatedumpMapper(tracks), new RocmMapper(tracks), new KernelMapper(tracks, irqTraced(trace)),
                    new KernelHeapMapper(tracks));
            ArgsJson args = new ArgsJson();
            progress.start("CTF events " + input.getFileName(), -1);
            sink.info("ctf.traces", Integer.toString(trace.traceDirs().size()));
            for (int i = 0; i < trace.metadata().size(); i++) {
                var m = trace.metadata().get(i);
                sink.info("ctf.trace." + i + ".version", m.ctfVersion == 2 ? "2" : "1.8");
                String prefix = "ctf.trace." + i + ".";
                for (var clock : m.clocks.values()) {
                    // where the clock's zero lies, for aligning this trace with others in one store
                    if (clock.absolute() || (clock.uuid() != null && !clock.uuid().isBlank())) {
                        sink.info(prefix + "clock." + clock.name(), clock.absolute() ? "absolute (Unix epoch)"
                                : "uuid " + clock.uuid());
                    }
                    if (!clock.offsetRepresentable()) {
                        sink.skipped(SkipReason.CLOCK_NOT_ALIGNED,
                                "clock offset beyond the ns range (clock " + clock.name() + ")",
                                trace.traceDirs().get(i).resolve("metadata").toString(), 1);
                    }
                }
                sink.info(prefix + "path", trace.traceDirs().get(i).toString());
                m.env.forEach((k, v) -> sink.info(prefix + "env." + k, v));
            }
            long events = 0;
            long last = Long.MIN_VALUE;
            while (cursor.next()) {
                CtfEvent e = cursor.event();
                events++;
                last = e.timestampNs();
                boolean done = false;
                try {
                    for (EventMapper m : mappers) {
                        if (m.map(e)) {
                            done = true;
                            break;
                        }
                    }
                } catch (CtfEvent.MissingFieldException missing) {
                    // the metadata declares this event without a field its mapping reads: keep it as it is
                    sink.skipped(SkipReason.KEPT_GENERIC, "CTF event without a field its mapping needs ("
                            + missing.event() + "." + missing.field() + ")", e.traceDir().resolve("metadata").toString(), 1);
                }
                if (!done) {
                    generic(e, tracks, args);
                }
                if ((events & 0xFFFF) == 0) {
                    progress.advance(events);
                }
            }
            for (EventMapper m : mappers) {
                m.finish(last);
            }
            sink.info("ctf.events", Long.toString(events));
            lastEvents = events;
            report(trace, sink);
        }
    }

    /** The trace folders whose metadata declares interrupt events (hard or soft), by LTTng's or perf's names. */
    private static java.util.Set<Path> irqTraced(CtfTrace trace) {
        java.util.Set<Path> out = new java.util.HashSet<>();
        for (int i = 0; i < trace.metadata().size(); i++) {
            for (var stream : trace.metadata().get(i).streams.values()) {
                for (var ec : stream.events.values()) {
                    String n = ec.name();
                    if (n.equals("irq_handler_entry") || n.equals("softirq_entry") || n.equals("irq:irq_handler_entry")
                            || n.equals("irq:softirq_entry")) {
                        out.add(trace.traceDirs().get(i));
                    }
                }
            }
        }
        return out;
    }

    private static void generic(CtfEvent e, TrackRegistry tracks, ArgsJson args) {
        long track;
        long tid = e.contextLong("vtid", e.contextLong("tid", Long.MIN_VALUE));
        if (tid != Long.MIN_VALUE) {
            track = tracks.threadTrack(TrackRegistry.processKey(e), tid, e.contextString("procname"));
        } else {
            String stream = e.streamName();
            long cpu = e.contextLong("cpu_id", Long.MIN_VALUE);
            track = tracks.streamTrack(e.traceDir().toString(), cpu != Long.MIN_VALUE ? stream + " (cpu " + cpu + ")"
                    : stream);
        }
        String name = e.name();
        int colon = name.indexOf(':');
        tracks.sink.instant(new Instant(tracks.sink.newId(Entity.INSTANT), track, e.timestampNs(), name, Category.OTHER,
                colon > 0 ? name.substring(0, colon) : null, args.of(e)));
    }

    private static void report(CtfTrace trace, TraceSink sink) {
        for (StreamStats s : trace.streamStats()) {
            String key = "ctf.stream." + s.file().getParent().getFileName() + "/" + s.file().getFileName();
            sink.info(key + ".events", Long.toString(s.events()));
            sink.info(key + ".packets", Long.toString(s.packets()));
            sink.info(key + ".discarded_events", Long.toString(s.discardedEvents()));
            sink.info(key + ".lost_packets", Long.toString(s.lostPackets()));
            if (s.discardedEvents() > 0) {
                sink.skipped(SkipReason.EVENTS_DISCARDED, s.file().toString(),
                        s.discardedEvents());
            }
            if (s.lostPackets() > 0) {
                sink.skipped(SkipReason.PACKETS_LOST, s.file().toString(), s.lostPackets());
            }
        }
        List<CtfProblem> problems = trace.problems();
        java.util.Map<Path, long[]> skippedOfFile = new java.util.TreeMap<>();
        for (int i = 0; i < problems.size(); i++) {
            CtfProblem p = problems.get(i);
            // a skipped region counts the packets it lost, and at least one item even when only bytes were inserted
            if (p.isSkip()) {
                sink.skipped(SkipReason.DAMAGED_PACKET, p.reason(), p.file().getFileName() + " at byte "
                        + p.packetOffset() + " (" + p.where() + ")", Math.max(1, p.skippedPackets()));
            } else {
                sink.skipped(SkipReason.DAMAGED_PACKET, p.reason(), p.where(), 1);
            }
            if (p.isSkip()) {
                long[] sum = skippedOfFile.computeIfAbsent(p.file(), f -> new long[2]);
                sum[0] += p.skippedPackets();
                sum[1] += p.skippedBytes();
            }
            if (i < 100) {
                sink.info("ctf.problem." + i, p.toString());
            }
        }
        skippedOfFile.forEach((f, sum) -> {
            String key = "ctf.stream." + f.getParent().getFileName() + "/" + f.getFileName();
            sink.info(key + ".skipped_packets", Long.toString(sum[0]));
            sink.info(key + ".skipped_bytes", Long.toString(sum[1]));
        });
    }
}
