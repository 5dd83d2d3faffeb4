package org.hetscope.formats.ctf.mapping;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Entity;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;

/**
 * Creates processes, threads, devices and tracks on first use and remembers their ids. A process is keyed by
 * its pid ({@code vpid}/{@code pid} context or field) or, when the trace records none, by its name.
 */
final class TrackRegistry {
    final TraceSink sink;
    private final Map<String, long[]> processes = new HashMap<>();
    private final Map<String, Long> threads = new HashMap<>();
    private final Map<String, Long> tracks = new HashMap<>();
    private final Map<Long, Long> devices = new HashMap<>();

    TrackRegistry(TraceSink sink) {
        this.sink = sink;
    }

    /** The process key of an event from its contexts: "pid" or "name:procname" or "trace". */
    static String processKey(CtfEvent e) {
        long pid = e.contextLong("vpid", Long.MIN_VALUE);
        if (pid == Long.MIN_VALUE) {
            pid = e.contextLong("pid", Long.MIN_VALUE);
        }
        if (pid != Long.MIN_VALUE) {
            return Long.toString(pid);
        }
        String name = e.contextString("procname");
        return name != null ? "name:" + name : "trace";
    }

    /** Process id (model) for a key; {@code pid} -1 when unknown. */
    long process(String key, String name) {
        long[] p = processes.get(key);
        if (p == null) {
            long id = sink.newId(Entity.PROCESS);
            long pid = key.startsWith("name:") || key.equals("trace") ? -1 : Long.parseLong(key);
            String n = name != null ? name : key.startsWith("name:") ? key.substring(5) : null;
            sink.process(new TraceProcess(id, pid, n));
            long track = sink.newId(Entity.TRACK);
            sink.track(new Track(track, null, TrackKind.PROCESS, n != null ? n + " (" + pid + ")" : "process " + pid,
                    id, null, null, null, 0, null));
            p = new long[] {id, track};
            processes.put(key, p);
        }
        return p[0];
    }

    long processTrack(String key) {
        process(key, null);
        return processes.get(key)[1];
    }

    /** Renames a process once its name is known (statedump); the model keeps the first record it was given. */
    void nameProcess(String key, String name) {
        if (!processes.containsKey(key)) {
            process(key, name);
        }
    }

    long thread(String pkey, long tid, String name) {
        String k = pkey + "/" + tid;
        Long id = threads.get(k);
        if (id == null) {
            long pid = process(pkey, name);
            id = sink.newId(Entity.THREAD);
            sink.thread(new TraceThread(id, tid, pid, name));
            threads.put(k, id);
        }
        return id;
    }

    /** The thread's own track. */
    long threadTrack(String pkey, long tid, String name) {
        String k = "thread:" + pkey + "/" + tid;
        Long id = tracks.get(k);
        if (id == null) {
            long thread = thread(pkey, tid, name);
            id = sink.newId(Entity.TRACK);
            sink.track(new Track(id, processTrack(pkey), TrackKind.THREAD, (name != null ? name + " " : "") + tid,
                    process(pkey, name), thread, null, null, 0, null));
            tracks.put(k, id);
        }
        return id;
    }

    /** A child track of a thread for one API family. */
    long apiTrack(String pkey, long tid, String family) {
        String k = "api:" + pkey + "/" + tid + "/" + family;
        Long id = tracks.get(k);
        if (id == null) {
            long parent = threadTrack(pkey, tid, null);
            id = sink.newId(Entity.TRACK);
            sink.track(new Track(id, parent, TrackKind.API, family, process(pkey, null), thread(pkey, tid, null),
                    null, null, 0, null));
            tracks.put(k, id);
        }
        return id;
    }

    /** A child track of a process (counters, allocations). */
    long processChild(String pkey, TrackKind kind, String name, String unit) {
        String k = "pchild:" + pkey + "/" + name;
        Long id = tracks.get(k);
        if (id == null) {
            id = sink.newId(Entity.TRACK);
            sink.track(new Track(id, processTrack(pkey), kind, name, process(pkey, null), null, null, null, 0, unit));
            tracks.put(k, id);
        }
        return id;
    }

    /** A track for events of a stream that name no thread. */
    long streamTrack(String trace, String stream) {
        String k = "stream:" + trace + "/" + stream;
        Long id = tracks.get(k);
        if (id == null) {
            id = sink.newId(Entity.TRACK);
            sink.track(Track.of(id, null, TrackKind.GENERIC, stream));
            tracks.put(k, id);
        }
        return id;
    }

    long device(long agent, String type) {
        Long id = devices.get(agent);
        if (id == null) {
            id = sink.newId(Entity.DEVICE);
            DeviceKind kind = "GPU".equalsIgnoreCase(type) ? DeviceKind.GPU : DeviceKind.CPU;
            sink.device(new Device(id, kind, (int) agent, "AMD", (type == null ? "agent" : type) + " agent " + agent,
                    null, null, null, null, null, null, Map.of("agent_abs_index", Long.toString(agent))));
            devices.put(agent, id);
            long track = sink.newId(Entity.TRACK);
            sink.track(new Track(track, null, TrackKind.DEVICE, (type == null ? "agent" : type) + " " + agent, null,
                    null, id, null, 0, null));
            tracks.put("device:" + agent, track);
        }
        return id;
    }

    /** A queue (or transfer) track under a device. */
    long deviceChild(long agent, String type, TrackKind kind, String name, Long queue) {
        long dev = device(agent, type);
        String k = "dchild:" + agent + "/" + kind + "/" + name;
        Long id = tracks.get(k);
        if (id == null) {
            id = sink.newId(Entity.TRACK);
            sink.track(new Track(id, tracks.get("device:" + agent), kind, name, null, null, dev, queue, 0, null));
            tracks.put(k, id);
        }
        return id;
    }
}
