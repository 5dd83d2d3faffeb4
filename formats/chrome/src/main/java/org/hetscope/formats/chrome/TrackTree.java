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
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;

/**
 * The processes, threads, devices and tracks of one Chrome trace. Ids are handed out at first sight so that slices
 * can be emitted while streaming; the records themselves are emitted at the end, when the metadata events
 * (process and thread names, sort indices, device properties), which may come anywhere in the file, are known.
 */
final class TrackTree {
    /** A process (Chrome pid) and what its metadata events said. */
    static final class Proc {
        final long id;
        final long trackId;
        final String pidText;
        String name;
        String label;
        int sortIndex;

        Proc(long id, long trackId, String pidText) {
            this.id = id;
            this.trackId = trackId;
            this.pidText = pidText;
        }
    }

    /** A thread (Chrome pid + tid) with its track and the API-family tracks under it. */
    static final class Thr {
        final long id;
        final long trackId;
        final Proc proc;
        final String tidText;
        final Map<String, Long> apiTracks = new LinkedHashMap<>();
        String name;
        int sortIndex;

        Thr(long id, long trackId, Proc proc, String tidText) {
            this.id = id;
            this.trackId = trackId;
            this.proc = proc;
            this.tidText = tidText;
        }
    }

    /** A GPU or accelerator and its stream tracks. */
    static final class Dev {
        final long id;
        final long trackId;
        final long ordinal;
        final Map<Long, Long> streamTracks = new LinkedHashMap<>();
        Map<String, String> properties;
        String label;

        Dev(long id, long trackId, long ordinal) {
            this.id = id;
            this.trackId = trackId;
            this.ordinal = ordinal;
        }
    }

    private final TraceSink sink;
    private final Map<String, Proc> procs = new LinkedHashMap<>();
    private final Map<String, Thr> threads = new HashMap<>();
    private final Map<Long, Dev> devices = new LinkedHashMap<>();
    private final Map<String, String> processLabels = new HashMap<>();
    private final Map<String, Integer> processSort = new HashMap<>();
    private final Map<String, String> processNames = new HashMap<>();
    private final Map<String, String> threadNames = new HashMap<>();
    private final Map<String, Integer> threadSort = new HashMap<>();
    private final Map<String, Track> extraTracks = new LinkedHashMap<>();
    private Thr lastThread;

    TrackTree(TraceSink sink) {
        this.sink = sink;
    }

    Proc process(String pidText) {
        Proc p = procs.get(pidText);
        if (p == null) {
            p = new Proc(sink.newId(Entity.PROCESS), sink.newId(Entity.TRACK), pidText);
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
            t = new Thr(sink.newId(Entity.THREAD), sink.newId(Entity.TRACK), p, tidText);
            threads.put(key, t);
        }
        lastThread = t;
        return t;
    }

    /** The API-family track under a thread (e.g. "CUDA runtime"). */
    long apiTrack(Thr t, String family) {
        Long id = t.apiTracks.get(family);
        if (id == null) {
            id = sink.newId(Entity.TRACK);
            t.apiTracks.put(family, id);
        }
        return id;
    }

    Dev device(long ordinal) {
        Dev d = devices.get(ordinal);
        if (d == null) {
            d = new Dev(sink.newId(Entity.DEVICE), sink.newId(Entity.TRACK), ordinal);
            devices.put(ordinal, d);
        }
        return d;
    }

    long streamTrack(Dev d, long stream) {
        Long id = d.streamTracks.get(stream);
        if (id == null) {
            id = sink.newId(Entity.TRACK);
            d.streamTracks.put(stream, id);
        }
        return id;
    }

    /** A counter track of a process, by counter name. */
    long counterTrack(Proc p, String name) {
        String key = p.pidText + '\u0000' + name;
        Track t = extraTracks.get(key);
        if (t == null) {
            t = new Track(sink.newId(Entity.TRACK), p.trackId, TrackKind.COUNTER, name, p.id, null, null, null, 0,
                    null);
            extraTracks.put(key, t);
        }
        return t.id();
    }

    /** A track for async (b/n/e) events of a process, one per category and id scope. */
    long asyncTrack(Proc p, String name) {
        String key = p.pidText + '\u0001' + name;
        Track t = extraTracks.get(key);
        if (t == null) {
            t = new Track(sink.newId(Entity.TRACK), p.trackId, TrackKind.GENERIC, name, p.id, null, null, null, 0,
                    null);
            extraTracks.put(key, t);
        }
        return t.id();
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

    /** Emits every process, thread, device and track seen. */
    void emit() {
        for (Proc p : procs.values()) {
            String name = processNames.get(p.pidText);
            String label = processLabels.get(p.pidText);
            Integer sort = processSort.get(p.pidText);
            long pid = parsePid(p.pidText, p.id);
            sink.process(new TraceProcess(p.id, pid, name));
            String trackName = (name == null ? "process " + p.pidText : name + " (" + p.pidText + ")")
                    + (label == null ? "" : " [" + label + "]");
            sink.track(new Track(p.trackId, null, TrackKind.PROCESS, trackName, p.id, null, null, null,
                    sort == null ? 0 : sort, null));
        }
        for (Map.Entry<String, Thr> e : threads.entrySet()) {
            Thr t = e.getValue();
            String name = threadNames.get(e.getKey());
            Integer sort = threadSort.get(e.getKey());
            sink.thread(new TraceThread(t.id, parsePid(t.tidText, t.id), t.proc.id, name));
            sink.track(new Track(t.trackId, t.proc.trackId, TrackKind.THREAD,
                    name == null ? "thread " + t.tidText : name, t.proc.id, t.id, null, null,
                    sort == null ? 0 : sort, null));
            int i = 0;
            for (Map.Entry<String, Long> api : t.apiTracks.entrySet()) {
                sink.track(new Track(api.getValue(), t.trackId, TrackKind.API, api.getKey(), t.proc.id, t.id, null,
                        null, i++, null));
            }
        }
        for (Dev d : devices.values()) {
            Map<String, String> props = d.properties == null ? Map.of() : d.properties;
            String name = props.get("name");
            sink.device(new Device(d.id, DeviceKind.GPU, (int) d.ordinal, vendorOf(name), name,
                    intOrNull(props.get("numSms")), longOrNull(props.get("totalGlobalMem")),
                    intOrNull(props.get("warpSize")), null, null, null, props));
            String label = processLabels.get(Long.toString(d.ordinal));
            sink.track(new Track(d.trackId, null, TrackKind.DEVICE,
                    (label != null ? label : "GPU " + d.ordinal) + (name == null ? "" : " (" + name + ")"), null,
                    null, d.id, null, (int) Math.min(Integer.MAX_VALUE, 1_000_000 + d.ordinal), null));
            for (Map.Entry<Long, Long> s : d.streamTracks.entrySet()) {
                long stream = s.getKey();
                sink.track(new Track(s.getValue(), d.trackId, TrackKind.STREAM,
                        stream < 0 ? "sync (no stream)" : "stream " + stream, null, null, d.id, stream,
                        (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, stream)), null));
            }
        }
        extraTracks.values().forEach(sink::track);
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
