package org.hetscope.formats.chrome;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Entity;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * The processes, threads and devices of one Chrome trace, on the shared {@link TrackTree}: ids are handed out at
 * first sight so that slices can be emitted while streaming; the records themselves are emitted at the end, when the
 * metadata events (process and thread names, sort indices, device properties), which may come anywhere in the file,
 * are known. What is left here is Chrome's naming.
 */
final class ChromeTracks {
    /** A process (Chrome pid) and what its metadata events said. */
    static final class Proc {
        final long id;
        final long trackId;
        final TrackTree.Node track;
        final String pidText;

        Proc(long id, TrackTree.Node track, String pidText) {
            this.id = id;
            this.track = track;
            this.trackId = track.id();
            this.pidText = pidText;
        }
    }

    /** A thread (Chrome pid + tid) with its track, the parent of its API-family tracks. */
    static final class Thr {
        final long id;
        final long trackId;
        final TrackTree.Node track;
        final Proc proc;
        final String tidText;

        Thr(long id, TrackTree.Node track, Proc proc, String tidText) {
            this.id = id;
            this.track = track;
            this.trackId = track.id();
            this.proc = proc;
            this.tidText = tidText;
        }
    }

    /** A GPU or accelerator, the parent of its stream tracks. */
    static final class Dev {
        final long id;
        final TrackTree.Node track;
        final long ordinal;
        Map<String, String> properties;

        Dev(long id, TrackTree.Node track, long ordinal) {
            this.id = id;
            this.track = track;
            this.ordinal = ordinal;
        }
    }

    private final TraceSink sink;
    private final TrackTree tracks;
    private final Map<String, Proc> procs = new LinkedHashMap<>();
    private final Map<String, Thr> threads = new HashMap<>();
    private final Map<Long, Dev> devices = new LinkedHashMap<>();
    private final Map<String, String> processLabels = new HashMap<>();
    private final Map<String, Integer> processSort = new HashMap<>();
    private final Map<String, String> processNames = new HashMap<>();
    private final Map<String, String> threadNames = new HashMap<>();
    private final Map<String, Integer> threadSort = new HashMap<>();
    private Thr lastThread;

    ChromeTracks(TraceSink sink) {
        this.sink = sink;
        this.tracks = TrackTree.deferred(sink);
    }

    Proc process(String pidText) {
        Proc p = procs.get(pidText);
        if (p == null) {
            long id = sink.newId(Entity.PROCESS);
            p = new Proc(id, tracks.root(TrackKind.PROCESS, pidText, n -> n.process(id)), pidText);
            procs.put(pidText, p);
        }
        return p;
    }

    Thr thread(String pidText, String tidText) {
        Thr last = lastThread;
        if (last != null && last.tidText.equals(tidText) && last.proc.pidText.equals(pidText)) {
            return last;
        }
        String key = pidText + '\u0000' + tidText;
        Thr t = threads.get(key);
        if (t == null) {
            Proc p = process(pidText);
            long id = sink.newId(Entity.THREAD);
            t = new Thr(id, p.track.child(TrackKind.THREAD, tidText, n -> n.thread(id)), p, tidText);
            threads.put(key, t);
        }
        lastThread = t;
        return t;
    }

    /** The API-family track under a thread (e.g. "CUDA runtime"), sorted in the order the thread first used each. */
    long apiTrack(Thr t, String family) {
        return t.track.child(TrackKind.API, family, n -> n.name(family).sortIndex(t.track.children(TrackKind.API)))
                .id();
    }

    Dev device(long ordinal) {
        Dev d = devices.get(ordinal);
        if (d == null) {
            long id = sink.newId(Entity.DEVICE);
            d = new Dev(id, tracks.root(TrackKind.DEVICE, ordinal, n -> n.device(id)
                    .sortIndex((int) Math.min(Integer.MAX_VALUE, 1_000_000 + ordinal))), ordinal);
            devices.put(ordinal, d);
        }
        return d;
    }

    long streamTrack(Dev d, long stream) {
        return d.track.child(TrackKind.STREAM, stream, n -> n.name(stream < 0 ? "sync (no stream)" : "stream " + stream)
                .stream(stream).sortIndex((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, stream))))
                .id();
    }

    /** A counter track of a process, by counter name. */
    long counterTrack(Proc p, String name) {
        return p.track.child(TrackKind.COUNTER, name, n -> n.name(name)).id();
    }

    /** A track for async (b/n/e) events of a process, one per category and id scope. */
    long asyncTrack(Proc p, String name) {
        return p.track.child(TrackKind.GENERIC, name, n -> n.name(name)).id();
    }

    void processMetadata(String pidText, String what, String text, Integer number) {
        switch (what) {
            case "process_name" -> processNames.put(pidText, text);
            case "process_labels" -> processLabels.put(pidText, text);
            case "process_sort_index" -> processSort.put(pidText, number);
            default -> { }
        }
    }

    void threadMetadata(String pidText, String tidText, String what, String text, Integer number) {
        String key = pidText + '\u0000' + tidText;
        switch (what) {
            case "thread_name" -> threadNames.put(key, text);
            case "thread_sort_index" -> threadSort.put(key, number);
            default -> { }
        }
    }

    void deviceProperties(long ordinal, Map<String, String> properties) {
        device(ordinal).properties = properties;
    }

    /** Names what the metadata named, then emits every process, thread, device and track seen. */
    void emit() {
        for (Proc p : procs.values()) {
            String name = processNames.get(p.pidText);
            String label = processLabels.get(p.pidText);
            Integer sort = processSort.get(p.pidText);
            sink.process(new TraceProcess(p.id, parsePid(p.pidText, p.id), name));
            p.track.name((name == null ? "process " + p.pidText : name + " (" + p.pidText + ")")
                    + (label == null ? "" : " [" + label + "]")).sortIndex(sort == null ? 0 : sort);
        }
        for (Map.Entry<String, Thr> e : threads.entrySet()) {
            Thr t = e.getValue();
            String name = threadNames.get(e.getKey());
            Integer sort = threadSort.get(e.getKey());
            sink.thread(new TraceThread(t.id, parsePid(t.tidText, t.id), t.proc.id, name));
            t.track.name(name == null ? "thread " + t.tidText : name).sortIndex(sort == null ? 0 : sort);
        }
        for (Dev d : devices.values()) {
            Map<String, String> props = d.properties == null ? Map.of() : d.properties;
            String name = props.get("name");
            sink.device(new Device(d.id, DeviceKind.GPU, (int) d.ordinal, vendorOf(name), name,
                    intOrNull(props.get("numSms")), longOrNull(props.get("totalGlobalMem")),
                    intOrNull(props.get("warpSize")), null, null, null, props));
            String label = processLabels.get(Long.toString(d.ordinal));
            d.track.name((label != null ? label : "GPU " + d.ordinal) + (name == null ? "" : " (" + name + ")"));
        }
        tracks.emit();
    }

    private static long parsePid(String text, long fallback) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            // Chrome allows names as pids ("Spans"); keep the name on the process and a negative synthetic number.
            return -fallback;
        }
    }

    private static String vendorOf(String deviceName) {
        if (deviceName == null) {
            return null;
        }
        String n = deviceName.toUpperCase(java.util.Locale.ROOT);
        if (n.contains("NVIDIA") || n.contains("TESLA") || n.contains("GEFORCE")) {
            return "NVIDIA";
        }
        if (n.contains("AMD") || n.contains("RADEON") || n.contains("INSTINCT")) {
            return "AMD";
        }
        if (n.contains("INTEL")) {
            return "Intel";
        }
        return null;
    }

    private static Integer intOrNull(String s) {
        Long l = longOrNull(s);
        return l == null ? null : (int) Math.min(Integer.MAX_VALUE, l);
    }

    private static Long longOrNull(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
