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
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * CTF's naming on the shared {@link TrackTree}: processes, threads and devices made on first use, with their records.
 * A process is keyed by its pid ({@code vpid}/{@code pid} context or field) or, when the trace records none, by
 * its name.
 */
final class TrackRegistry {
    final TraceSink sink;
    /** Processes -> threads -> API families and process children; agents -> queues; per-trace roots. */
    final TrackTree tree;
    private final Map<String, Long> threads = new HashMap<>();

    TrackRegistry(TraceSink sink) {
        this.sink = sink;
        this.tree = new TrackTree(sink);
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

    private TrackTree.Node processNode(String key, String name) {
        return tree.root(TrackKind.PROCESS, key, n -> {
            long id = sink.newId(Entity.PROCESS);
            long pid = key.startsWith("name:") || key.equals("trace") ? -1 : Long.parseLong(key);
            String p = name != null ? name : key.startsWith("name:") ? key.substring(5) : null;
            sink.process(new TraceProcess(id, pid, p));
            n.name(p != null ? p + " (" + pid + ")" : "process " + pid).process(id);
        });
    }

    /** Process id (model) for a key; {@code pid} -1 when unknown. */
    long process(String key, String name) {
        return processNode(key, name).processId();
    }

    /** Renames a process once its name is known (statedump); the model keeps the first record it was given. */
    void nameProcess(String key, String name) {
        processNode(key, name);
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

    private TrackTree.Node threadNode(String pkey, long tid, String name) {
        long thread = thread(pkey, tid, name);
        return processNode(pkey, null).child(TrackKind.THREAD, tid,
                n -> n.name((name != null ? name + " " : "") + tid).thread(thread));
    }

    /** The thread's own track. */
    long threadTrack(String pkey, long tid, String name) {
        return threadNode(pkey, tid, name).id();
    }

    /** A child track of a thread for one API family. */
    long apiTrack(String pkey, long tid, String family) {
        return threadNode(pkey, tid, null).child(TrackKind.API, family, n -> n.name(family)).id();
    }

    /** A child track of a process (counters, allocations). */
    long processChild(String pkey, TrackKind kind, String name, String unit) {
        return processNode(pkey, null).child(kind, name, n -> n.name(name).unit(unit)).id();
    }

    /** A track for events of a stream that name no thread. */
    long streamTrack(String trace, String stream) {
        return tree.root(TrackKind.GENERIC, "stream:" + trace + "/" + stream, n -> n.name(stream)).id();
    }

    private TrackTree.Node deviceNode(long agent, String type) {
        return tree.root(TrackKind.DEVICE, agent, n -> {
            long id = sink.newId(Entity.DEVICE);
            DeviceKind kind = "GPU".equalsIgnoreCase(type) ? DeviceKind.GPU : DeviceKind.CPU;
            sink.device(new Device(id, kind, (int) agent, "AMD", (type == null ? "agent" : type) + " agent " + agent,
                    null, null, null, null, null, null, Map.of("agent_abs_index", Long.toString(agent))));
            n.name((type == null ? "agent" : type) + " " + agent).device(id);
        });
    }

    long device(long agent, String type) {
        return deviceNode(agent, type).deviceId();
    }

    /** A queue (or transfer) track under a device. */
    long deviceChild(long agent, String type, TrackKind kind, String name, Long queue) {
        return deviceNode(agent, type).child(kind, name, n -> n.name(name).stream(queue)).id();
    }
}
