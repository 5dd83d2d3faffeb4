package org.hetscope.formats.paje.starpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.FutureTask;
import org.hetscope.formats.paje.Outcome;
import org.hetscope.formats.paje.PajeContainer;
import org.hetscope.formats.paje.PajeEvent;
import org.hetscope.formats.paje.PajeLink;
import org.hetscope.formats.paje.PajeListener;
import org.hetscope.formats.paje.PajeReader;
import org.hetscope.formats.paje.PajeSinkBasics;
import org.hetscope.formats.paje.PajeState;
import org.hetscope.formats.paje.PajeType;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Entity;
import org.hetscope.model.Instant;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.TableSpec;
import org.hetscope.model.TaskDependency;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;

/**
 * Puts a StarPU trace (paje.trace written by {@code starpu_fxt_tool -memory-states}, with tasks.rec, data.rec and
 * dag.dot beside it when present) onto the hetscope model: workers and their states, memory nodes and managers
 * with their actions, per-block residency from the MSI events, requests, transfers, tasks, accesses and the task
 * graph. The interpretation follows StarPU 1.3's converter (docs/schema.md, section "Paje / StarPU").
 */
public final class StarpuImport implements PajeListener {
    static final StarpuTables.Request REQUEST_TABLE = StarpuTables.REQUEST;
    static final StarpuTables.ManagerAction ACTION_TABLE = StarpuTables.MANAGER_ACTION;
    static final StarpuTables.Transfer TRANSFER_TABLE = StarpuTables.TRANSFER;
    static final StarpuTables.DependsOn DEPENDS_TABLE = StarpuTables.DEPENDS_ON;
    static final StarpuTables.Anomaly ANOMALY_TABLE = StarpuTables.ANOMALY;

    private final Path trace;
    private final TraceSink sink;
    private final StarpuProblems problems = new StarpuProblems();
    private final PajeSinkBasics basics;

    /** A buffered MSI event or memory-manager event (PajeNewEvent with Handle/Info/Size/Tid). */
    record MemEvent(long time, long line, String type, int node, String handle, String info, String size,
                    String tid) {}

    private final MemEventLog msi = new MemEventLog("msi", SortedLongRecords.budget(MemEventLog.WIDTH));
    private final MemEventLog managerEvents = new MemEventLog("manager", SortedLongRecords.budget(MemEventLog.WIDTH));
    /** The handles those events name, in file order, each once: blocks for them need no pass over the events. */
    private final Set<String> msiHandles = new LinkedHashSet<>();
    private final Set<String> managerHandles = new LinkedHashSet<>();
    /** Registered handles, in file order, each once (blocks for them are made in this order). */
    private final Set<String> registers = new LinkedHashSet<>();
    private final Map<String, List<Long>> unregisters = new HashMap<>();
    /** Handle to {first register, last unregister} time (null when none): starpu_block_lifetime. */
    private final Map<String, Long[]> lifetimes = new HashMap<>();
    /**
     * This read's staging tables (see {@link Staging}), declared when their first row comes; named after the first
     * track of the read, so that several traces in one store keep theirs apart.
     */
    private Staging staging;
    private long firstTrack = -1;
    private final List<PajeState> writeBackAsync = new ArrayList<>();
    /** JobId to its execution, from the WS states with a JobId field: a trace holds as many as it has tasks. */
    private final TaskExecutions taskStates = new TaskExecutions();
    /** The ids of the tasks this import made: {@code firstTask..lastTask}, in order (empty when first > last). */
    private long firstTask = 1;
    private long lastTask;
    private final Map<Integer, Long> nodeIds = new TreeMap<>();
    private final Map<Integer, String> nodeNames = new HashMap<>();
    private final Map<Integer, Long> managerTracks = new HashMap<>();
    private final Map<Integer, Long> workerTracks = new HashMap<>();
    private final Map<Integer, Integer> workerNode = new HashMap<>();
    private final Map<Integer, String> workerNames = new HashMap<>();
    private final Map<Integer, Long> workerDevices = new HashMap<>();
    private long msStates;
    /** Where tasks.rec, data.rec and dag.dot may be; null when there are none. */
    private Path folder;
    /** Made by {@link #bodyRead}: the side files, the blocks, and the residency replay started beside the states. */
    private SideFiles side;
    private IOException sideError;
    private Map<String, Long> blocks;
    private final List<MemoryBlock> blockRecords = new ArrayList<>();
    private ResidencyReplay replay;
    /** The replay's outcome until {@link #finish} takes it; {@link #abandonResidencies} closes it after a failure. */
    private FutureTask<Residencies> replayed;
    private boolean replayThread;

    public StarpuImport(Path trace, TraceSink sink) {
        this.trace = trace;
        this.sink = sink;
        this.basics = new PajeSinkBasics(trace, sink, this::problem);
    }

    public StarpuProblems problems() {
        return problems;
    }

    /** Reads {@code paje.trace} and, when {@code folder} holds them, tasks.rec, data.rec and dag.dot. */
    public static StarpuProblems read(Path traceFile, Path folder, TraceSink sink, Progress progress)
            throws IOException {
        StarpuImport imp = new StarpuImport(traceFile, sink);
        // what the import spilled goes with its files, whatever happens
        imp.folder = folder;
        try (imp.msi; imp.managerEvents; imp.taskStates) {
            try {
                PajeReader reader = new PajeReader(imp, null);
                reader.read(traceFile, progress);
                imp.basics.info(reader);
                imp.finish(reader.timeShift());
            } catch (IOException | RuntimeException | Error e) {
                imp.abandonResidencies(e); // before the MSI events it reads are closed
                throw e;
            }
        } catch (IOException | RuntimeException | Error e) {
            if (imp.staging != null) {
                imp.staging.drop(); // no table of a failed read stays in a store kept partial
            }
            throw e;
        }
        return imp.problems;
    }

    @Override
    public void problem(SkipReason reason, String what, long line, String detail) {
        problems.add(reason, what, trace, line, detail);
    }

    // ---- containers ----

    private static int number(String alias) {
        int i = alias.length();
        while (i > 0 && Character.isDigit(alias.charAt(i - 1))) {
            i--;
        }
        return i == alias.length() ? -1 : Integer.parseInt(alias.substring(i));
    }

    @Override
    public void container(PajeContainer c) {
        String t = c.type().alias();
        TrackKind kind = switch (t) {
            case "P" -> TrackKind.PROCESS;
            case "Mn" -> TrackKind.MEMORY_NODE;
            case "Mm" -> TrackKind.MEMORY_MANAGER;
            case "T", "UT", "MPICt" -> TrackKind.THREAD;
            case "W" -> TrackKind.WORKER;
            default -> TrackKind.GENERIC;
        };
        int n = number(c.alias());
        // A worker is a device: its track names it, so that utilisation counts the tasks it runs (docs/stdlib.md).
        Long workerDevice = t.equals("W") && n >= 0 ? sink.newId(Entity.DEVICE) : null;
        long trackId = basics.track(c, kind, workerDevice);
        if (firstTrack < 0) {
            firstTrack = trackId;
        }
        switch (t) {
            case "Mn" -> {
                if (n >= 0) {
                    nodeIds.put(n, sink.newId(Entity.MEMORY_NODE));
                    nodeNames.put(n, c.name());
                }
            }
            case "Mm" -> {
                if (n >= 0) {
                    managerTracks.put(n, trackId);
                }
            }
            case "W" -> {
                if (n >= 0) {
                    workerTracks.put(n, trackId);
                    workerNames.put(n, c.name());
                    PajeContainer p = c.parent();
                    while (p != null && !p.type().alias().equals("Mn")) {
                        p = p.parent();
                    }
                    if (p != null && number(p.alias()) >= 0) {
                        workerNode.put(n, number(p.alias()));
                    }
                    long dev = workerDevice;
                    String name = c.name();
                    String digits = name.replaceAll("\\D", "");
                    DeviceKind dk = name.startsWith("CPU") ? DeviceKind.CPU
                            : name.startsWith("CUDA") || name.startsWith("HIP") ? DeviceKind.GPU
                            : DeviceKind.ACCELERATOR;
                    sink.device(new Device(dev, dk, digits.isEmpty() ? n : Integer.parseInt(digits), null, name,
                            null, null, null, null, null, null, Map.of("starpu.worker", c.alias())));
                    workerDevices.put(n, dev);
                }
            }
            default -> { }
        }
    }

    // ---- states ----

    @Override
    public void state(PajeState s) {
        String type = s.type().alias();
        if (type.equals("MS") && s.container().type().alias().equals("Mm")) {
            msStates++;
            // Manager actions are rebuilt from the paired memory events (DriverCopy states nest, so pairing
            // pops LIFO would attach copies to the wrong handles); only WritingBackAsync has no such events.
            if (s.value().alias().equals("Wa")) {
                writeBackAsync.add(s);
            }
            return;
        }
        int job = s.definition() == null ? -1 : s.definition().extra("JobId");
        if (job >= 0 && type.equals("WS")) {
            long sliceId = sink.newId(Entity.SLICE);
            sink.slice(new Slice(sliceId, s.container().userId, s.start(), s.end() - s.start(), s.value().name(),
                    Category.TASK, s.type().name(), s.depth(), null, basics.argsJson(s.definition(),
                    s.extras())));
            try {
                taskStates.add(Long.parseLong(s.extras()[job]), sliceId, s.start(), s.end(),
                        number(s.container().alias()), s.value().name(), s.line());
            } catch (NumberFormatException e) {
                problem(SkipReason.BAD_VALUE, "task state with a bad JobId", s.line(), s.extras()[job]);
            }
            return;
        }
        basics.state(s);
    }

    // ---- events ----

    @Override
    public void event(PajeEvent e) {
        String type = e.type().alias();
        PajeContainer c = e.container();
        if (c.type().alias().equals("Mm")) {
            int node = number(c.alias());
            switch (type) {
                case "SI", "SS", "SO", "WU" -> {
                    msi.add(new MemEvent(e.time(), e.line(), type, node, e.value().alias(), null, null, null));
                    msiHandles.add(e.value().alias());
                    return;
                }
                default -> {
                    if (e.definition().extra("Handle") >= 0) {
                        managerEvents.add(new MemEvent(e.time(), e.line(), type, node, e.extra("Handle"),
                                e.extra("Info"), e.extra("Size"), e.extra("Tid")));
                        managerHandles.add(e.extra("Handle"));
                        return;
                    }
                }
            }
        }
        if (type.equals("register")) {
            registers.add(e.value().alias());
            Long[] life = lifetimes.computeIfAbsent(e.value().alias(), k -> new Long[2]);
            life[0] = life[0] == null ? e.time() : Math.min(life[0], e.time());
        } else if (type.equals("unregister")) {
            unregisters.computeIfAbsent(e.value().alias(), k -> new ArrayList<>()).add(e.time());
            Long[] life = lifetimes.computeIfAbsent(e.value().alias(), k -> new Long[2]);
            life[1] = life[1] == null ? e.time() : Math.max(life[1], e.time());
        }
        basics.event(e);
    }

    @Override
    public void value(PajeType type, org.hetscope.formats.paje.PajeValue v) {
        basics.value(type, v);
    }

    private Staging staging() {
        if (staging == null) {
            staging = new Staging(sink, Long.toString(Math.max(0, firstTrack)));
        }
        return staging;
    }

    @Override
    public void link(PajeLink l) {
        String t = l.type().alias();
        String cls = t.equals("F") ? "fetch" : t.equals("PF") ? "prefetch" : t.equals("IF") ? "idle_fetch" : null;
        if (cls != null) {
            long com = comId(l.key());
            if (com >= 0) {
                Staging st = staging();
                sink.row(st.fetchLink, com, l.start(), l.end(), l.startLine(), l.endLine(), cls);
            } else if (l.key().startsWith("com_")) {
                // no copy's communication id is written this way: it can never be matched
                problem(SkipReason.UNMATCHED_FLOW, "transfer link without DriverCopy events", l.startLine(), l.key());
            }
        }
        basics.link(l);
    }

    @Override
    public void variable(PajeContainer c, PajeType type, long time, double value, long line) {
        basics.variable(c, type, time, value);
    }

    // ---- after the trace: side files and derived records ----

    /** The side files of a StarPU trace, read for their handles and problems before the tasks are built. */
    private record SideFiles(Path tasks, Path dag, List<DataRec.Handle> handles, Set<String> taskHandles,
                             StarpuProblems problems) {
        static SideFiles read(Path folder) throws IOException {
            Path tasksRec = folder == null ? null : folder.resolve("tasks.rec");
            Path dataRec = folder == null ? null : folder.resolve("data.rec");
            Path dagDot = folder == null ? null : folder.resolve("dag.dot");
            StarpuProblems problems = new StarpuProblems();
            // tasks.rec is read three times, one task at a time (it has one record per task): here for its handles
            // and its problems, then for the tasks, then for the dependencies
            Path tasks = tasksRec != null && Files.isRegularFile(tasksRec) ? tasksRec : null;
            Set<String> taskHandles = new LinkedHashSet<>();
            if (tasks != null) {
                TasksRec.read(tasks, problems, t -> taskHandles.addAll(t.handles()));
            }
            List<DataRec.Handle> handles = dataRec != null && Files.isRegularFile(dataRec)
                    ? DataRec.read(dataRec, problems) : List.of();
            // dag.dot is read here for its problems, and again for its edges once the tasks have ids
            Path dag = dagDot != null && Files.isRegularFile(dagDot) ? dagDot : null;
            if (dag != null) {
                DagDot.read(dag, problems, (from, to) -> { });
            }
            return new SideFiles(tasks, dag, handles, taskHandles, problems);
        }
    }

    /**
     * Every event is in: the side files are read and the blocks get their ids before the states come. The
     * residencies need only the MSI events, the blocks and the nodes, so they are replayed on their own thread from
     * here, beside the reader's replay of the states (on two cores this takes ~0.25 s off the 520 MB import:
     * docs/performance.md). What the replay finds is told to the sink in {@link #finish}, so records and problems
     * come in the same order with or without the thread.
     */
    @Override
    public void bodyRead(long start, long end) {
        try {
            side = SideFiles.read(folder);
        } catch (IOException e) {
            sideError = e; // thrown in finish, after the memory nodes, as where it is read
            return;
        }
        blocks = blocks(side.handles(), side.taskHandles());
        ResidencyReplay r = new ResidencyReplay(end, unregisters);
        replay = r;
        Map<String, Long> b = blocks;
        replayed = new FutureTask<>(() -> r.replay(msi, b, nodeIds));
        if (PajeReader.threads() > 0) {
            Thread.ofPlatform().name("starpu-residencies").daemon(true).start(replayed);
            replayThread = true;
        }
    }

    /** The residencies, waited for (or replayed here when there is no thread); the caller closes them. */
    private Residencies residencies() throws IOException {
        FutureTask<Residencies> f = replayed;
        replayed = null; // from here the caller closes what it built
        f.run(); // nothing when the thread ran it
        return Outcome.await(f);
    }

    /** After a failure: waits for the residency thread and closes what it built, so no spill file outlives it. */
    private void abandonResidencies(Throwable failure) {
        FutureTask<Residencies> f = replayed;
        replayed = null;
        if (f == null || !replayThread) {
            return; // nothing ran
        }
        try {
            Residencies built = Outcome.await(f);
            if (built != null) {
                built.close();
            }
        } catch (IOException | RuntimeException | Error other) {
            failure.addSuppressed(other);
        }
    }

    private void finish(int timeShift) throws IOException {
        sink.info("paje.time_unit", timeShift == 6 ? "ms" : timeShift == 9 ? "s" : "1e-" + timeShift + " s");
        sink.info("starpu.ms_states", Long.toString(msStates));
        sink.info("starpu.version", VERSION);
        Map<Integer, String> nodeKind = new HashMap<>();
        Map<Integer, Long> nodeDevice = new HashMap<>();
        for (var w : workerNames.entrySet()) {
            Integer node = workerNode.get(w.getKey());
            if (node == null) {
                continue;
            }
            boolean cpu = w.getValue().startsWith("CPU");
            if (!cpu) {
                nodeKind.put(node, "device");
                nodeDevice.putIfAbsent(node, workerDevices.get(w.getKey()));
            } else {
                nodeKind.putIfAbsent(node, "RAM");
            }
        }
        for (var n : nodeIds.entrySet()) {
            String kind = nodeKind.getOrDefault(n.getKey(), n.getKey() == 0 ? "RAM" : "unknown");
            sink.memoryNode(new MemoryNode(n.getValue(), nodeNames.get(n.getKey()), nodeDevice.get(n.getKey()),
                    kind));
        }

        if (sideError != null) {
            throw sideError;
        }
        problems.addAll(side.problems());
        Path tasks = side.tasks();
        Path dag = side.dag();
        sink.defineTable(ANOMALY_TABLE);
        blockRecords.forEach(sink::memoryBlock);
        sink.defineTable(StarpuTables.BLOCK_LIFETIME);
        for (var b : blocks.entrySet()) {
            Long[] life = lifetimes.get(b.getKey());
            if (life != null) {
                sink.row(StarpuTables.BLOCK_LIFETIME, b.getValue(), life[0], life[1]);
            }
        }
        try (Residencies residencies = residencies();
             ResidencyChecks c = new ResidencyChecks(sink, ANOMALY_TABLE, blocks)) {
            managerActions(blocks, c);
            tasks(tasks, blocks);
            dependencies(tasks, dag);
            // the residency replay's problems come after those of the manager actions and the tasks; the
            // residencies go to the sink as the checks walk them, once the transfers they check are known
            replay.reportProblems(this);
            c.check(residencies);
        }
        problems.flush(sink);
    }

    /** Gives every block an id; their records wait in {@link #blockRecords} for {@link #finish}. */
    private Map<String, Long> blocks(List<DataRec.Handle> handles, Set<String> taskHandles) {
        Map<String, Long> blocks = new LinkedHashMap<>();
        for (DataRec.Handle h : handles) {
            if (blocks.containsKey(h.handle())) {
                continue;
            }
            long id = sink.newId(Entity.MEMORY_BLOCK);
            blocks.put(h.handle(), id);
            blockRecords.add(new MemoryBlock(id, h.handle(), h.description(), h.size(),
                    h.homeNode() == null ? null : nodeIds.get(h.homeNode()), h.coordinates()));
        }
        // Handles the side files do not describe still get a block, so no residency or transfer is lost.
        // In this order: registered handles, then as the MSI and manager events and the tasks name them.
        registers.forEach(h -> undescribedBlock(h, blocks));
        msiHandles.forEach(h -> undescribedBlock(h, blocks));
        managerHandles.forEach(h -> undescribedBlock(h, blocks));
        taskHandles.forEach(h -> undescribedBlock(h, blocks));
        return blocks;
    }

    private void undescribedBlock(String h, Map<String, Long> blocks) {
        if (h == null || h.equals("0") || blocks.containsKey(h)) {
            return;
        }
        long id = sink.newId(Entity.MEMORY_BLOCK);
        blocks.put(h, id);
        blockRecords.add(new MemoryBlock(id, h, null, null, null, null));
    }

    private static final String[][] PAIRS = {{"Al", "AlE", "Allocating"}, {"Alr", "AlrE", "AllocatingReuse"},
        {"Fe", "FeE", "Freeing"}, {"Wb", "WbE", "WritingBack"}, {"DCo", "DCoE", "DriverCopy"},
        {"DCoA", "DCoAE", "DriverCopyAsync"}};

    private static long unsigned32(String s) {
        long v = Long.parseLong(s);
        // StarPU prints some signed 32-bit values as unsigned (priorities, errno results).
        return v >= (1L << 31) && v < (1L << 32) ? v - (1L << 32) : v;
    }

    /**
     * StarPU version whose request-kind numbering is used: {@code hetscope.starpu.version} (default 1.3, the
     * version of the fixtures). 1.3: 0 fetch, 1 prefetch, 2 idle fetch; 1.4 renumbered them: 0 fetch,
     * 1 task prefetch, 2 prefetch, 3 idle fetch.
     */
    static final String VERSION = System.getProperty("hetscope.starpu.version", "1.3");

    static String requestKind(String info) {
        return requestKind(VERSION, info);
    }

    static String requestKind(String version, String info) {
        boolean v14 = !version.startsWith("1.3") && !version.startsWith("1.2");
        return switch (info) {
            case "0" -> "fetch";
            case "1" -> v14 ? "task_prefetch" : "prefetch";
            case "2" -> v14 ? "prefetch" : "idle_fetch";
            case "3" -> v14 ? "idle_fetch" : "kind_3";
            default -> "kind_" + info;
        };
    }

    /** Builds the manager actions and transfers; {@code checks} is told of each transfer whose landing it checks. */
    private void managerActions(Map<String, Long> blocks, ResidencyChecks checks) {
        sink.defineTable(REQUEST_TABLE);
        sink.defineTable(ACTION_TABLE);
        sink.defineTable(TRANSFER_TABLE);
        Map<String, String[]> byStart = new HashMap<>();
        Map<String, String[]> byEnd = new HashMap<>();
        for (String[] p : PAIRS) {
            byStart.put(p[0], p);
            byEnd.put(p[1], p);
        }
        Map<String, ArrayDeque<MemEvent>> open = new HashMap<>();
        Map<String, Long> counts = new TreeMap<>();
        for (MemEvent e : managerEvents) {
            counts.merge(e.type(), 1L, Long::sum);
            if (e.type().equals("rc")) {
                try {
                    sink.row(REQUEST_TABLE, e.time(), blocks.get(e.handle()), nodeIds.get(e.node()),
                            nodeIds.get(number(e.tid())), requestKind(e.info()), unsigned32(e.size()), e.line());
                } catch (NumberFormatException x) {
                    problem(SkipReason.BAD_VALUE, "request event with a bad priority", e.line(), e.size());
                }
                continue;
            }
            String[] start = byStart.get(e.type());
            String[] end = byEnd.get(e.type());
            if (start != null) {
                open.computeIfAbsent(pairKey(start[0], e), k -> new ArrayDeque<>()).add(e);
            } else if (end != null) {
                String key = pairKey(end[0], e);
                ArrayDeque<MemEvent> q = open.get(key);
                if (q == null) {
                    problem(SkipReason.UNMATCHED_END, "memory manager end event", e.line(),
                            e.type() + " " + e.handle());
                    continue;
                }
                MemEvent begin = q.poll();
                if (q.isEmpty()) {
                    // copies pair by communication id, each once: an emptied queue would stay for every copy
                    open.remove(key);
                }
                action(end[2], begin, e, blocks, checks);
            } else {
                problem(SkipReason.UNKNOWN_RECORD, "memory manager event type", e.line(), e.type());
            }
        }
        for (ArrayDeque<MemEvent> q : open.values()) {
            for (MemEvent e : q) {
                problem(SkipReason.UNENDED_INTERVAL, "memory manager start event", e.line(),
                        e.type() + " " + e.handle());
            }
        }
        for (PajeState s : writeBackAsync) {
            int node = number(s.container().alias());
            long sliceId = sink.newId(Entity.SLICE);
            sink.slice(new Slice(sliceId, managerTracks.get(node), s.start(), s.end() - s.start(),
                    "WritingBackAsync", Category.MEMCPY, "Memory Node State", -1, null, null));
            sink.row(ACTION_TABLE, sliceId, nodeIds.get(node), null, "WritingBackAsync", s.start(),
                    s.end() - s.start(), null, null, null, null, null, null, s.line());
        }
        counts.forEach((k, v) -> sink.info("starpu.events." + k, Long.toString(v)));
        joinFetchLinks();
    }

    /** The communication id of a {@code com_N} key written as StarPU writes it, or -1 for any other key. */
    static long comId(String key) {
        // one spelling per id: "com_007" is not copy 7's
        if (!key.startsWith("com_") || key.length() < 5 || key.length() > 23
                || key.length() > 5 && key.charAt(4) == '0') {
            return -1;
        }
        for (int i = 4; i < key.length(); i++) {
            if (key.charAt(i) < '0' || key.charAt(i) > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(key, 4, key.length(), 10);
        } catch (NumberFormatException e) {
            return -1; // past Long.MAX_VALUE
        }
    }

    /**
     * Gives each copy's transfer its fetch link (the one with its communication id; of a key used twice, the link
     * completed last) in {@code starpu_transfer}, and counts the keys used twice and the links no copy used: joined
     * by the store once the copies are in.
     */
    private void joinFetchLinks() {
        Staging st = staging();
        String links = st.fetchLink.name();
        // the links of each key in the order they completed (at their later end), and how many the key has
        String ranked = "(SELECT *, row_number() OVER (PARTITION BY com ORDER BY greatest(start_line, end_line)) AS k, "
                + "count(*) OVER (PARTITION BY com) AS n FROM " + links + ")";
        String copies = st.copyTransfer.name();
        sink.derive("INSERT INTO " + TRANSFER_TABLE.name() + " (" + TRANSFER_TABLE.columnList() + ") "
                + "SELECT c.transfer_id, c.com, l.class, l.start_ns, l.end_ns - l.start_ns FROM " + copies + " c "
                + "LEFT JOIN " + ranked + " l ON l.com = c.com AND l.k = l.n ORDER BY c.com, c.transfer_id");
        String where = Staging.text(trace + ":");
        sink.deriveSkipped("SELECT '" + SkipReason.DUPLICATE_ID.id() + "', 'transfer link key', first(" + where
                + " || end_line || ' (com_' || com || ')' ORDER BY com, k), count(*) FROM " + ranked + " WHERE k > 1");
        sink.deriveSkipped("SELECT '" + SkipReason.UNMATCHED_FLOW.id() + "', 'transfer link without DriverCopy "
                + "events', first(" + where + " || start_line || ' (com_' || com || ')' ORDER BY com), count(*) FROM "
                + ranked + " l WHERE k = n AND NOT EXISTS (SELECT 1 FROM " + copies + " c WHERE c.com = l.com)");
        st.drop();
    }

    /** Start/end pairing key: copies by communication id, the others FIFO per (manager, handle). */
    private static String pairKey(String startType, MemEvent e) {
        return switch (startType) {
            case "DCo" -> "DCo|" + e.node() + "|" + e.info();
            case "DCoA" -> "DCoA|" + e.node() + "|" + e.tid();
            default -> startType + "|" + e.node() + "|" + e.handle();
        };
    }

    private void action(String name, MemEvent s, MemEvent e, Map<String, Long> blocks, ResidencyChecks checks) {
        int node = s.node();
        Long track = managerTracks.get(node);
        long dur = e.time() - s.time();
        Long block = blocks.get(s.handle());
        long sliceId = sink.newId(Entity.SLICE);
        Category cat = name.startsWith("DriverCopy") ? Category.MEMCPY
                : name.startsWith("Alloc") || name.equals("Freeing") ? Category.ALLOC : Category.OTHER;
        String args = "{\"handle\":\"" + s.handle() + "\"}";
        sink.slice(new Slice(sliceId, track, s.time(), dur, name, cat, "Memory Node State", -1, null, args));
        String requestKind = null;
        Long bytes = null;
        Long result = null;
        Boolean success = null;
        Long other = null;
        Long com = null;
        try {
            switch (name) {
                case "Allocating" -> {
                    requestKind = requestKind(s.info());
                    bytes = Long.parseLong(s.size());
                    result = unsigned32(e.info());
                    success = result >= 0;
                }
                case "AllocatingReuse" -> {
                    requestKind = requestKind(s.info());
                    bytes = Long.parseLong(s.size());
                    result = Long.parseLong(e.info());
                    success = result == 1;
                }
                case "Freeing" -> bytes = Long.parseLong(s.size());
                case "DriverCopy" -> {
                    bytes = Long.parseLong(s.size());
                    com = Long.parseLong(s.info());
                    other = nodeIds.get(number(s.tid()));
                }
                case "DriverCopyAsync" -> other = nodeIds.get(number(s.tid()));
                default -> { }
            }
        } catch (NumberFormatException x) {
            problem(SkipReason.BAD_VALUE, "memory manager event with a bad number", s.line(), name);
        }
        sink.row(ACTION_TABLE, sliceId, nodeIds.get(node), block, name, s.time(), dur, requestKind, bytes, result,
                success, other, com, s.line());
        if (name.equals("DriverCopy") && com != null) {
            int src = number(s.tid());
            long id = sink.newId(Entity.TRANSFER);
            boolean srcRam = src == 0 || "RAM".equals(nodeKindGuess(src));
            boolean dstRam = node == 0 || "RAM".equals(nodeKindGuess(node));
            TransferKind kind = srcRam ? (dstRam ? TransferKind.HTOH : TransferKind.HTOD)
                    : dstRam ? TransferKind.DTOH : TransferKind.DTOD;
            sink.transfer(new Transfer(id, sliceId, s.time(), dur, bytes == null ? 0 : bytes, kind,
                    deviceOfNode(src), deviceOfNode(node), nodeIds.get(src), nodeIds.get(node), block, com));
            // its starpu_transfer row comes with its link, in joinFetchLinks
            sink.row(staging().copyTransfer, com, id);
            if (block != null) {
                checks.transfer(block, s.time(), e.time(), id, nodeIds.getOrDefault(node, -1L));
            }
        }
    }

    private String nodeKindGuess(int node) {
        for (var w : workerNode.entrySet()) {
            if (w.getValue() == node && !workerNames.get(w.getKey()).startsWith("CPU")) {
                return "device";
            }
        }
        return "RAM";
    }

    private Long deviceOfNode(int node) {
        for (var w : workerNode.entrySet()) {
            if (w.getValue() == node && !workerNames.get(w.getKey()).startsWith("CPU")) {
                return workerDevices.get(w.getKey());
            }
        }
        return null;
    }

    /**
     * Emits the tasks (from tasks.rec when there is one, else from the worker states with a JobId). Nothing here is
     * kept per task in memory: tasks.rec is read again rather than held, and it meets the worker states in merges
     * by JobId.
     */
    private void tasks(Path records, Map<String, Long> blocks) throws IOException {
        TaskExecutions.Duplicates again = (job, line) -> problem(SkipReason.DUPLICATE_ID, "task state JobId", line,
                "JobId " + job);
        if (records == null) {
            // Without tasks.rec, the task executions come from the worker states that carry a JobId.
            taskStates.walk(again, (job, slice, from, to, w, name) -> {
                long id = newTask();
                sink.task(new Task(id, slice, job, name, workerTracks.get(w),
                        workerNode.containsKey(w) ? nodeIds.get(workerNode.get(w)) : null, null, from, to, null));
            });
            sink.info("starpu.tasks.source", "paje worker states");
            return;
        }
        sink.info("starpu.tasks.source", "tasks.rec");
        try (SortedLongRecords states = statesOfRecords(records, again)) {
            SortedLongRecords.Cursor state = states.cursor();
            long[] notRun = {0};
            long[] mismatched = {0};
            TasksRec.read(records, new StarpuProblems(), r -> {
                if (!r.executed()) {
                    notRun[0]++;
                    return;
                }
                long id = newTask();
                // the executed records come in the same order as when their states were looked up
                boolean found = state.next() && state.get(5) == 1;
                long start = found ? state.get(2) : 0;
                long end = found ? state.get(3) : 0;
                long worker = found ? state.get(4) : 0;
                if (!found) {
                    problems.add(SkipReason.UNKNOWN_REFERENCE, "tasks.rec task without a worker state in paje.trace",
                            trace.resolveSibling("tasks.rec"), r.line(), "JobId " + r.jobId());
                } else if (start != r.startTs() || end != r.endTs() || worker != r.workerId()) {
                    mismatched[0]++;
                    sink.row(ANOMALY_TABLE, "task_state_mismatch", null, start, end - start, "JobId " + r.jobId()
                            + " tasks.rec " + r.startTs() + ".." + r.endTs() + " on w" + r.workerId()
                            + ", paje state on w" + worker);
                }
                sink.task(new Task(id, found ? state.get(1) : null, r.jobId(), r.name(),
                        workerTracks.get(r.workerId()),
                        r.memoryNode() == null ? null : nodeIds.get(r.memoryNode()), r.submitTs(), r.startTs(),
                        r.endTs(), r.priority()));
                for (int i = 0; i < r.handles().size(); i++) {
                    Long b = blocks.get(r.handles().get(i));
                    if (b != null) {
                        sink.taskAccess(new TaskAccess(id, b, i < r.modes().size() ? r.modes().get(i) : null));
                    }
                }
            });
            sink.info("starpu.tasks.not_executed", Long.toString(notRun[0]));
            sink.info("starpu.tasks.state_mismatch", Long.toString(mismatched[0]));
        }
    }

    private long newTask() {
        long id = sink.newId(Entity.TASK);
        if (firstTask > lastTask) {
            firstTask = id;
        }
        lastTask = id;
        return id;
    }

    /**
     * For each executed record of tasks.rec, in file order: its worker state (ordinal, slice id, start, end,
     * worker, 1) or none (ordinal, 0, 0, 0, 0, 0). Records and states meet in a merge by JobId; a JobId that
     * tasks.rec gives twice is reported at each record after the first.
     */
    private SortedLongRecords statesOfRecords(Path records, TaskExecutions.Duplicates again) throws IOException {
        SortedLongRecords states = new SortedLongRecords("task states of tasks.rec", 6, 1,
                SortedLongRecords.budget(6));
        try (SortedLongRecords byJob = new SortedLongRecords("tasks.rec jobs", 3, 1, SortedLongRecords.budget(3))) {
            long[] ordinal = {0};
            TasksRec.read(records, new StarpuProblems(), r -> {
                if (r.executed()) {
                    byJob.add(r.jobId(), ordinal[0]++, r.line());
                }
            });
            SortedLongRecords.Cursor rec = byJob.cursor();
            boolean[] more = {rec.next()};
            long[] previous = {0, 0}; // JobId of the record before, and whether there was one
            java.util.function.LongConsumer upTo = job -> { // the records whose JobId is below job have no state
                while (more[0] && rec.get(0) < job) {
                    record(states, rec, previous, false, 0, 0, 0, 0);
                    more[0] = rec.next();
                }
            };
            taskStates.walk(again, (job, slice, from, to, w, name) -> {
                upTo.accept(job);
                while (more[0] && rec.get(0) == job) {
                    record(states, rec, previous, true, slice, from, to, w);
                    more[0] = rec.next();
                }
            });
            while (more[0]) {
                record(states, rec, previous, false, 0, 0, 0, 0);
                more[0] = rec.next();
            }
        }
        return states;
    }

    private void record(SortedLongRecords states, SortedLongRecords.Cursor rec, long[] previous, boolean found,
                        long slice, long from, long to, int worker) {
        long job = rec.get(0);
        if (previous[1] == 1 && previous[0] == job) {
            problems.add(SkipReason.DUPLICATE_ID, "tasks.rec JobId", trace.resolveSibling("tasks.rec"), rec.get(2),
                    "JobId " + job);
        }
        previous[0] = job;
        previous[1] = 1;
        states.add(rec.get(1), slice, from, to, worker, found ? 1 : 0);
    }

    /**
     * The dependencies between this import's tasks: the JobId edges (dag.dot, else tasks.rec DependsOn) go to a
     * table named after the import's first task (so that several traces in one store keep theirs apart), and the
     * store turns them into task pairs once the tasks are in (each pair once; a JobId with several tasks stands for
     * its last). Edges with an end that is no task are counted.
     */
    private void dependencies(Path records, Path dag) throws IOException {
        sink.defineTable(DEPENDS_TABLE);
        if (records == null && dag == null) {
            return;
        }
        if (firstTask > lastTask) { // no task: every edge has an end that is none
            long[] edges = {0};
            addEdges(records, dag, (from, to) -> edges[0]++);
            if (edges[0] > 0) {
                sink.info("starpu.dependencies.to_unexecuted_tasks", Long.toString(edges[0]));
            }
            return;
        }
        TableSpec edgeTable = TableSpec.of("starpu_dependency_edge_" + firstTask,
                "this import's JobId edges, until the store has turned them into task pairs");
        edgeTable.bigint("from_job_id", "JobId of the task depended on");
        edgeTable.bigint("to_job_id", "JobId of the dependent task");
        sink.defineTable(edgeTable);
        String edges = edgeTable.name();
        addEdges(records, dag, (from, to) -> sink.row(edgeTable, from, to));
        String last = "WITH last AS (SELECT job_id, max(id) AS id FROM task WHERE id BETWEEN " + firstTask + " AND "
                + lastTask + " GROUP BY job_id), ends AS (SELECT f.id AS from_id, t.id AS to_id FROM " + edges
                + " e LEFT JOIN last f ON f.job_id = e.from_job_id AND e.from_job_id <> " + Long.MIN_VALUE
                + " LEFT JOIN last t ON t.job_id = e.to_job_id AND e.to_job_id <> " + Long.MIN_VALUE + ") ";
        sink.derive("INSERT INTO task_dependency (from_task_id, to_task_id) " + last
                + "SELECT DISTINCT from_id, to_id FROM ends WHERE from_id IS NOT NULL AND to_id IS NOT NULL");
        sink.derive("INSERT INTO trace_info (key, value) " + last + "SELECT "
                + "'starpu.dependencies.to_unexecuted_tasks', CAST(count(*) AS VARCHAR) FROM ends "
                + "WHERE from_id IS NULL OR to_id IS NULL HAVING count(*) > 0");
        sink.derive("DROP TABLE " + edges);
    }

    private void addEdges(Path records, Path dag, DagDot.Edges edges) throws IOException {
        if (records != null) {
            boolean fromRecords = dag == null;
            TasksRec.read(records, new StarpuProblems(), r -> {
                for (int i = 0; i < r.dependsOn().size(); i++) {
                    sink.row(DEPENDS_TABLE, r.jobId(), r.dependsOn().get(i),
                            i < r.depLabels().size() ? r.depLabels().get(i) : null);
                }
                if (fromRecords) {
                    for (long d : r.dependsOn()) {
                        edges.edge(d, r.jobId());
                    }
                }
            });
            if (fromRecords) {
                sink.info("starpu.dependencies.source", "tasks.rec DependsOn");
            }
        }
        if (dag != null) {
            sink.info("starpu.dependencies.source", "dag.dot");
            DagDot.read(dag, new StarpuProblems(), edges);
        }
    }
}
