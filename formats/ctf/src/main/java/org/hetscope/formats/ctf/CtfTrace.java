package org.hetscope.formats.ctf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.hetscope.formats.ctf.meta.MetadataException;
import org.hetscope.formats.ctf.meta.TraceClass;
import org.hetscope.model.TraceFormatException;

/**
 * One CTF trace folder (holding {@code metadata} and data stream files), or a folder such as an LTTng session
 * output holding several: opened together, their events share one timeline (clock offsets applied).
 *
 * <pre>{@code
 * try (CtfTrace trace = CtfTrace.open(path);
 *      CtfTrace.Cursor events = trace.cursor()) {
 *     while (events.next()) {
 *         CtfEvent e = events.event();
 *         System.out.println(e.timestampNs() + " " + e.name() + " " + e.getLong("size", -1));
 *     }
 * }
 * }</pre>
 */
public final class CtfTrace implements AutoCloseable {
    private final List<CompiledTrace> traces;
    private final List<Path> streamFiles = new ArrayList<>();
    private final List<CompiledTrace> streamOwners = new ArrayList<>();
    private final List<CtfProblem> problems = Collections.synchronizedList(new ArrayList<>());
    private final List<StreamStats> stats = Collections.synchronizedList(new ArrayList<>());
    private final List<CompiledTrace.Event> eventClasses = new ArrayList<>();

    private CtfTrace(List<CompiledTrace> traces) throws IOException {
        this.traces = traces;
        for (CompiledTrace t : traces) {
            try (Stream<Path> files = Files.list(t.dir)) {
                for (Path f : files.sorted().toList()) {
                    String n = f.getFileName().toString();
                    if (Files.isRegularFile(f) && !n.equals("metadata") && !n.startsWith(".") && Files.size(f) > 0) {
                        streamFiles.add(f);
                        streamOwners.add(t);
                    }
                }
            }
            for (CompiledTrace.Stream s : t.streams.values()) {
                for (CompiledTrace.Event e : s.byId.values()) {
                    e.index = eventClasses.size();
                    eventClasses.add(e);
                }
            }
        }
    }

    /** Whether {@code path} is a CTF trace folder or holds one (looked up to a few levels down). */
    public static boolean isCtf(Path path) throws IOException {
        return !traceDirs(path).isEmpty() && isMetadata(traceDirs(path).get(0).resolve("metadata"));
    }

    /**
     * The CTF data stream file at {@code path}, or in the folder {@code path} (not below it), when there is no
     * metadata to go with it: a file that starts with the packet magic number. Null when there is none, or when
     * {@code path} has a trace folder (then it is read as usual). This lets a trace whose metadata was left behind
     * be named as such instead of as an unknown format.
     */
    public static Path streamWithoutMetadata(Path path) throws IOException {
        if (!traceDirs(path).isEmpty()) {
            return null;
        }
        if (Files.isRegularFile(path)) {
            return startsWithPacketMagic(path) ? path : null;
        }
        if (!Files.isDirectory(path)) {
            return null;
        }
        try (Stream<Path> files = Files.list(path)) {
            for (Path f : files.sorted().limit(256).toList()) {
                if (Files.isRegularFile(f) && startsWithPacketMagic(f)) {
                    return f;
                }
            }
        }
        return null;
    }

    private static boolean startsWithPacketMagic(Path f) throws IOException {
        byte[] head = new byte[4];
        try (var in = Files.newInputStream(f)) {
            if (in.readNBytes(head, 0, 4) < 4) {
                return false;
            }
        }
        int le = (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16 | (head[3] & 0xff) << 24;
        return le == 0xC1FC1FC1 || Integer.reverseBytes(le) == 0xC1FC1FC1;
    }

    private static boolean isMetadata(Path m) throws IOException {
        byte[] head = new byte[64];
        int n;
        try (var in = Files.newInputStream(m)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (n < 4) {
            return false;
        }
        int le = (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16 | (head[3] & 0xff) << 24;
        if (le == 0x75D11D57 || Integer.reverseBytes(le) == 0x75D11D57 || head[0] == 0x1e) {
            return true;
        }
        String s = new String(head, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
        return s.contains("CTF") || s.contains("typealias") || s.contains("trace {") || s.contains("trace{");
    }

    /** The trace folders at or under {@code path} (folders holding a {@code metadata} file), sorted. */
    public static List<Path> traceDirs(Path path) throws IOException {
        if (Files.isRegularFile(path) && path.getFileName().toString().equals("metadata")) {
            return List.of(path.getParent());
        }
        if (!Files.isDirectory(path)) {
            return List.of();
        }
        if (Files.isRegularFile(path.resolve("metadata"))) {
            return List.of(path);
        }
        try (Stream<Path> s = Files.find(path, 6, (p, a) -> a.isRegularFile()
                && p.getFileName().toString().equals("metadata"))) {
            return s.map(Path::getParent).sorted().toList();
        }
    }

    public static CtfTrace open(Path path) throws IOException, TraceFormatException {
        List<Path> dirs = traceDirs(path);
        if (dirs.isEmpty()) {
            Path stream = streamWithoutMetadata(path);
            if (stream != null) {
                Path folder = stream.toAbsolutePath().getParent();
                throw new TraceFormatException(path, "", "metadata missing: " + stream.getFileName() + " is a CTF data "
                        + "stream (packet magic number at byte 0), but its folder " + folder + " has no 'metadata' "
                        + "file describing it; copy the trace's metadata file there");
            }
            throw new TraceFormatException(path, "", "metadata missing: no CTF 'metadata' file in " + path
                    + " or the folders below it");
        }
        List<CompiledTrace> compiled = new ArrayList<>();
        for (Path dir : dirs) {
            Path m = dir.resolve("metadata");
            TraceClass tc = MetadataReader.read(m);
            if (tc.streams.isEmpty()) {
                throw new TraceFormatException(m, "", "metadata declares no stream or event class");
            }
            try {
                compiled.add(new CompiledTrace(dir, tc));
            } catch (MetadataException e) {
                throw new TraceFormatException(m, e.position(), e.getMessage());
            }
        }
        return new CtfTrace(compiled);
    }

    public List<Path> traceDirs() {
        return traces.stream().map(t -> t.dir).toList();
    }

    public List<TraceClass> metadata() {
        return traces.stream().map(t -> t.meta).toList();
    }

    public List<Path> streamFiles() {
        return List.copyOf(streamFiles);
    }

    /** Total bytes of all data stream files. */
    public long streamBytes() throws IOException {
        long n = 0;
        for (Path f : streamFiles) {
            n += Files.size(f);
        }
        return n;
    }

    /** Damage found so far (decoding goes on after each). */
    public List<CtfProblem> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    /** Per stream file statistics, filled as streams are read to their end. */
    public List<StreamStats> streamStats() {
        synchronized (stats) {
            return stats.stream().sorted(Comparator.comparing(s -> s.file().toString())).toList();
        }
    }

    /** Sets when event layouts are compiled to bytecode (see {@link CompiledTrace#DEFAULT_CODEGEN_AFTER}). */
    void codegenAfter(int decodes) {
        for (CompiledTrace t : traces) {
            t.codegenAfter = decodes;
        }
    }

    List<CompiledTrace> compiledTraces() {
        return traces;
    }

    /** A decoder of the {@code i}th stream file on its own, reporting damage to {@code problems}. */
    StreamDecoder stream(int i, java.util.function.Consumer<CtfProblem> problems) throws IOException {
        return new StreamDecoder(streamOwners.get(i), streamFiles.get(i), problems);
    }

    /** Events of all streams in time order (ties: stream file order). */
    public Cursor cursor() throws IOException {
        List<StreamDecoder> ds = new ArrayList<>();
        for (int i = 0; i < streamFiles.size(); i++) {
            ds.add(new StreamDecoder(streamOwners.get(i), streamFiles.get(i), problems::add));
        }
        return new Cursor(ds);
    }

    /**
     * Decodes every field of every event, streams in parallel on {@code threads} threads, and counts events per
     * event class. Returns names and counts sorted by name.
     */
    public List<ClassCount> count(int threads) throws IOException {
        long[] total = new long[eventClasses.size()];
        int workers = Math.max(1, threads);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            // Packets are independent (each starts its clock at timestamp_begin), so the packets of every stream
            // are cut into ranges and the ranges decoded in parallel; a first pass reads only packet headers.
            List<Future<long[]>> parts = new ArrayList<>();
            List<Integer> streamOfPart = new ArrayList<>();
            StreamDecoder[] scans = new StreamDecoder[streamFiles.size()];
            for (int i = 0; i < streamFiles.size(); i++) {
                CompiledTrace t = streamOwners.get(i);
                Path f = streamFiles.get(i);
                long[] offsets;
                // the scan meets damaged packet headers first (the ranges hold only valid packets): it reports those
                StreamDecoder scan = new StreamDecoder(t, f, p -> {
                    if (p.isSkip()) {
                        problems.add(p);
                    }
                });
                try (scan) {
                    offsets = scan.scanPackets();
                }
                scans[i] = scan;
                int chunks = Math.max(1, Math.min(offsets.length, workers * 4));
                for (int c = 0; c < chunks; c++) {
                    long[] range = java.util.Arrays.copyOfRange(offsets, (int) ((long) offsets.length * c / chunks),
                            (int) ((long) offsets.length * (c + 1) / chunks));
                    if (range.length == 0) {
                        continue;
                    }
                    parts.add(pool.submit(() -> {
                        long[] cnt = new long[eventClasses.size() + 1];
                        try (StreamDecoder d = new StreamDecoder(t, f, problems::add)) {
                            d.onlyPackets(range);
                            while (d.next()) {
                                cnt[d.event.index]++;
                            }
                            cnt[cnt.length - 1] = d.events;
                        }
                        return cnt;
                    }));
                    streamOfPart.add(i);
                }
            }
            // Per-stream figures are summed here, on the calling thread: a pool task waiting for a stream's parts
            // would hold one of the decoding threads idle.
            long[] eventsOfStream = new long[streamFiles.size()];
            for (int k = 0; k < parts.size(); k++) {
                long[] c = parts.get(k).get();
                for (int j = 0; j < total.length; j++) {
                    total[j] += c[j];
                }
                eventsOfStream[streamOfPart.get(k)] += c[eventClasses.size()];
            }
            for (int i = 0; i < scans.length; i++) {
                StreamDecoder s = scans[i];
                stats.add(new StreamStats(streamFiles.get(i), s.streamClassId, s.packets, eventsOfStream[i],
                        s.discarded, s.lostPackets));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<ClassCount> out = new ArrayList<>();
        for (int k = 0; k < total.length; k++) {
            if (total[k] > 0) {
                out.add(new ClassCount(eventClasses.get(k).meta.name(), total[k]));
            }
        }
        out.sort(Comparator.comparing(ClassCount::name));
        return out;
    }

    /** Number of events of one event class. */
    public record ClassCount(String name, long events) {}

    @Override
    public void close() {
        // stream files are opened by cursors and closed with them
    }

    /**
     * Iterates the events of all streams merged by timestamp. {@link #event()} is a view valid until the next
     * call to {@link #next()}.
     */
    public final class Cursor implements AutoCloseable {
        private final StreamDecoder[] heap;
        private final CtfEvent[] views;
        private final long[] order;
        private int size;
        private StreamDecoder current;
        private CtfEvent currentView;
        private boolean started;

        private Cursor(List<StreamDecoder> ds) throws IOException {
            heap = new StreamDecoder[ds.size()];
            views = new CtfEvent[ds.size()];
            order = new long[ds.size()];
            for (int i = 0; i < ds.size(); i++) {
                StreamDecoder d = ds.get(i);
                heap[i] = d;
                views[i] = new CtfEvent(d);
                order[i] = i;
            }
            size = heap.length;
        }

        private final java.util.IdentityHashMap<StreamDecoder, CtfEvent> viewOf = new java.util.IdentityHashMap<>();

        /** Moves to the next event in time order; false at the end. */
        public boolean next() throws IOException {
            if (!started) {
                started = true;
                for (int i = 0; i < heap.length; i++) {
                    viewOf.put(heap[i], views[i]);
                    heap[i].rank = i;
                }
                StreamDecoder[] all = heap.clone();
                size = 0;
                for (StreamDecoder d : all) {
                    if (d.next()) {
                        push(d);
                    } else {
                        finish(d);
                    }
                }
            } else if (current != null) {
                if (current.next()) {
                    push(current);
                } else {
                    finish(current);
                }
            }
            if (size == 0) {
                current = null;
                return false;
            }
            current = pop();
            currentView = views[current.rank];
            return true;
        }

        private void finish(StreamDecoder d) throws IOException {
            stats.add(d.stats());
            d.close();
        }

        public CtfEvent event() {
            return currentView;
        }

        private boolean less(StreamDecoder a, StreamDecoder b) {
            long ta = a.timestampNs();
            long tb = b.timestampNs();
            if (ta != tb) {
                return ta < tb;
            }
            return a.rank < b.rank;
        }

        private void push(StreamDecoder d) {
            int i = size++;
            heap[i] = d;
            while (i > 0) {
                int p = (i - 1) >>> 1;
                if (!less(heap[i], heap[p])) {
                    break;
                }
                StreamDecoder t = heap[i];
                heap[i] = heap[p];
                heap[p] = t;
                i = p;
            }
        }

        private StreamDecoder pop() {
            StreamDecoder top = heap[0];
            heap[0] = heap[--size];
            heap[size] = null;
            int i = 0;
            while (true) {
                int l = 2 * i + 1;
                int r = l + 1;
                int m = i;
                if (l < size && less(heap[l], heap[m])) {
                    m = l;
                }
                if (r < size && less(heap[r], heap[m])) {
                    m = r;
                }
                if (m == i) {
                    break;
                }
                StreamDecoder t = heap[i];
                heap[i] = heap[m];
                heap[m] = t;
                i = m;
            }
            return top;
        }

        @Override
        public void close() throws IOException {
            for (StreamDecoder d : viewOf.keySet()) {
                d.close();
            }
            if (!started) {
                for (int i = 0; i < views.length; i++) {
                    if (heap[i] != null) {
                        heap[i].close();
                    }
                }
            }
        }
    }
}
