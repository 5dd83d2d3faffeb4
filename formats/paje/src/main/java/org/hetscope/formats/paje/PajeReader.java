package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.hetscope.formats.paje.EventDefinition.Field;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Progress;

/**
 * Reads a Paje trace file driven by its header: every {@code %EventDef} says which event kind an id stands for and
 * in which order its fields come, so any producer's field order and extra fields work (StarPU, PajeNG, ViTE).
 * Replays the container hierarchy, state stacks, variables and links, and hands the results to a
 * {@link PajeListener}. Lines that cannot be used are reported through {@link PajeListener#problem} with their
 * line number, and the rest of the trace is kept.
 *
 * <p>Paje files need not be sorted in time (StarPU writes some states late), so states and variable updates are
 * buffered per (container, type) and replayed in (time, line) order at the end.
 */
public final class PajeReader {
    /** Decimal exponent from the file's time unit to nanoseconds: 9 for seconds (the Paje default), 6 for ms. */
    private int timeShift;
    private final boolean autoTimeUnit;
    private final PajeListener listener;

    private final Map<Integer, EventDefinition> definitions = new LinkedHashMap<>();
    private final PajeDictionary dictionary = new PajeDictionary();
    private final List<PajeType> typeList = new ArrayList<>();
    private final List<PajeContainer> containerList = new ArrayList<>();
    private final Map<String, ArrayDeque<BlockLog.LinkEnd>> pendingLinkStarts = new HashMap<>();
    private final Map<String, ArrayDeque<BlockLog.LinkEnd>> pendingLinkEnds = new HashMap<>();
    private final Map<PajeEventKind, Long> counts = new java.util.EnumMap<>(PajeEventKind.class);

    /** Threads that decode blocks of a file besides the reading thread (0: the reading thread decodes alone). */
    private int blockThreads = threads();
    /** Bytes of a block; a file of fewer than two blocks is read on one thread. */
    private long blockBytes = Long.getLong("hetscope.paje.blockBytes", 8 << 20);
    /** Decodes in file order (the header, definitions, what blocks leave over) and keeps the tallies. */
    private final LineDecoder decoder = new LineDecoder(dictionary, 1 + blockThreads);
    private final InOrder inOrder = new InOrder();
    /** Cuts lines for this thread. */
    private LineCutter cutter;
    /** The block threads, while a file is read in blocks. */
    private ExecutorService pool;
    /** What killed a block thread, if anything did (see {@link Outcome#await(Future, java.util.function.Supplier)}). */
    private volatile Throwable poolThreadDied;

    // Header parsing state.
    private String defName;
    private int defId = -1;
    private List<String> defFields;

    // States and variables wait for the end of the file; past a budget they wait in a spill file.
    /**
     * Heap the buffered state and variable operations may take (as estimated by {@link StateBuffer#bytes}) before
     * they all go to the spill file: a fifth of the heap, so that traces that fit are replayed from memory.
     */
    private final long byteBudget = Runtime.getRuntime().maxMemory() / 5;
    /**
     * Buffered operations before a spill, whatever their size: tests set small values, here or with the property
     * {@code hetscope.paje.spillEvery} (to force spills through a whole import).
     */
    private long opBudget = Long.getLong("hetscope.paje.spillEvery", Long.MAX_VALUE);
    private BufferSpill spill;

    /**
     * @param timeShift decimal exponent from the file's time unit to nanoseconds (9 = seconds, 6 = milliseconds),
     *                  or null to choose from the header: milliseconds for StarPU's dialect (its definitions carry
     *                  {@code JobId} or {@code Handle} fields), seconds otherwise
     */
    public PajeReader(PajeListener listener, Integer timeShift) {
        this.listener = listener;
        this.autoTimeUnit = timeShift == null;
        this.timeShift = timeShift == null ? 9 : timeShift;
    }

    /**
     * Threads that may work beside the reading thread: {@code hetscope.paje.threads}, by default the processors (at
     * most 8); 0 keeps all the work of an import on the reading thread.
     */
    public static int threads() {
        return Math.max(0, Integer.getInteger("hetscope.paje.threads",
                Math.min(8, Runtime.getRuntime().availableProcessors())));
    }

    /** Spills the buffered state and variable operations to disk every {@code ops} operations (for tests). */
    void spillEvery(long ops) {
        this.opBudget = ops;
    }

    /**
     * Decodes files in blocks of {@code bytes} on {@code threads} threads besides the reading one (for tests;
     * 0 threads: in file order on the reading thread). Must be called before reading.
     */
    void blocks(long bytes, int threads) {
        this.blockBytes = bytes;
        this.blockThreads = threads;
    }

    /** The decimal exponent to nanoseconds that was used (known after the header). */
    public int timeShift() {
        return timeShift;
    }

    /** How many body lines of each kind were read and accepted. */
    public Map<PajeEventKind, Long> counts() {
        counts.clear();
        long[] kindCounts = decoder.tally.kindCounts;
        for (PajeEventKind k : PajeEventKind.values()) {
            if (kindCounts[k.ordinal()] > 0) {
                counts.put(k, kindCounts[k.ordinal()]);
            }
        }
        return counts;
    }

    public Map<Integer, EventDefinition> definitions() {
        return definitions;
    }

    public List<PajeContainer> containers() {
        return containerList;
    }

    public List<PajeType> types() {
        return typeList;
    }

    public long lines() {
        return decoder.line;
    }

    /** How many times had digits below the nanosecond (rounded half-even), and the first such line (-1: none). */
    public long roundedTimes() {
        return decoder.tally.roundedTimes;
    }

    public long firstRoundedLine() {
        return decoder.tally.firstRoundedLine;
    }

    /** Reads a whole file and finishes the replay. */
    public void read(Path file, Progress progress) throws IOException {
        long size = Files.size(file);
        progress.start("Paje " + file.getFileName(), size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            LineCutter.Source source = LineCutter.Source.of(channel);
            if (blockThreads > 0 && size >= 2 * blockBytes) {
                AtomicInteger names = new AtomicInteger();
                pool = Executors.newFixedThreadPool(blockThreads, r -> {
                    Thread t = new Thread(r, "paje-blocks-" + names.incrementAndGet());
                    t.setDaemon(true);
                    t.setUncaughtExceptionHandler((dead, e) -> {
                        if (poolThreadDied == null) {
                            poolThreadDied = e;
                        }
                    });
                    return t;
                });
                readBlocks(source, size, progress);
            } else {
                inFileOrder(source, 0, Long.MAX_VALUE, progress);
            }
            progress.advance(size);
            finish();
        } finally {
            if (pool != null) {
                pool.shutdownNow();
                pool = null;
            }
            closeSpill();
        }
    }

    /** Reads a whole stream and finishes the replay. */
    public void read(InputStream in, Progress progress) throws IOException {
        try {
            inFileOrder(LineCutter.Source.of(in), 0, Long.MAX_VALUE, progress);
            finish();
        } finally {
            closeSpill();
        }
    }

    private void closeSpill() throws IOException {
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }

    /** Spills the buffers once they hold more operations or heap than their budget. */
    private void spillPastBudget() throws IOException {
        if (inOrder.ops >= opBudget || inOrder.bytes >= byteBudget) {
            spillBuffers();
        }
    }

    /** Writes every buffer's operations to the spill file as a run and empties the buffers. */
    private void spillBuffers() throws IOException {
        if (spill == null) {
            spill = BufferSpill.create();
        }
        for (PajeContainer c : containerList) {
            for (Object b : c.buffers) {
                if (b instanceof StateBuffer sb && sb.size() > 0) {
                    sb.runs.add(spill.write(sb));
                    sb.clear();
                } else if (b instanceof VariableBuffer vb && vb.size() > 0) {
                    vb.runs.add(spill.write(vb));
                    vb.clear();
                }
            }
        }
        inOrder.ops = 0;
        inOrder.bytes = 0;
    }

    /** Reads the lines that start in [from, to) on this thread, in file order. */
    private void inFileOrder(LineCutter.Source source, long from, long to, Progress progress) throws IOException {
        long[] nextReport = {from + (1 << 20)};
        if (cutter == null) {
            cutter = new LineCutter(1 << 22);
        }
        cutter.cut(source, from, to, (buf, start, end, last, offset) -> {
            decoder.line++;
            if (cutter.overlong) {
                damage(SkipReason.LINE_TOO_LONG, overlong(), overlongDetail(cutter, offset));
            } else {
                line(buf, start, end, last);
            }
            spillPastBudget();
            if (offset >= nextReport[0]) {
                progress.advance(offset);
                nextReport[0] = offset + (1 << 20);
            }
            return true;
        });
    }

    /** What a line too long to hold counts as (it is skipped: no Paje line is anywhere near as long). */
    private static String overlong() {
        return "line longer than " + org.hetscope.model.InputLimits.maxTokenBytes() + " bytes (the limit: -D"
                + org.hetscope.model.InputLimits.MAX_TOKEN_PROPERTY + "=N)";
    }

    private static String overlongDetail(LineCutter cutter, long offset) {
        return cutter.overlongBytes + " bytes from byte " + offset;
    }

    /** Decodes one line in file order and applies what it says. */
    private void line(byte[] buf, int start, int end, boolean last) {
        int r = decoder.decode(buf, start, end, last, inOrder);
        if (r == LineDecoder.FIRST_BODY) {
            announceHeader();
            r = decoder.decode(buf, start, end, last, inOrder);
        }
        if (r == LineDecoder.HEADER) {
            int i = start;
            while (buf[i] != '%') {
                i++;
            }
            int e = end > i && buf[end - 1] == '\r' ? end - 1 : end;
            headerLine(LineDecoder.text(buf, i, e));
            dictionary.changed();
        } else if (r == LineDecoder.DEFINITION) {
            try {
                define(decoder.definition(), buf);
            } catch (IllegalArgumentException e) {
                damage(SkipReason.DAMAGED_RECORD, "bad field value", e.getMessage());
            }
            dictionary.changed();
        }
    }

    /**
     * Reads a file in blocks decoded on other threads and applied here in file order. The first block is read
     * here (the header and the definitions that open a trace); a block whose decoder meets a header or definition
     * line leaves the rest of its lines to this thread, and a block decoded while the dictionary changed is read
     * again here, so that every line sees the definitions of the lines before it, as in a reading in file order.
     */
    private void readBlocks(LineCutter.Source source, long size, Progress progress) throws IOException {
        long next = 0;
        do {
            long to = Math.min(size, next + blockBytes);
            inFileOrder(source, next, to, progress);
            next = to;
        } while (!dictionary.announced && next < size);
        ThreadLocal<LineDecoder> decoders = ThreadLocal.withInitial(() -> new LineDecoder(dictionary,
                1 + blockThreads));
        ThreadLocal<LineCutter> cutters = ThreadLocal.withInitial(() -> new LineCutter(1 << 20));
        ThreadLocal<BlockLog.Sizes> sizes = ThreadLocal.withInitial(BlockLog.Sizes::new);
        int shift = timeShift;
        ArrayDeque<Future<BlockLog>> pending = new ArrayDeque<>();
        try {
            while (next < size || !pending.isEmpty()) {
                while (next < size && pending.size() < 2 * blockThreads) {
                    long from = next;
                    long to = Math.min(size, next + blockBytes);
                    pending.add(pool.submit(() -> decodeBlock(source, from, to, decoders.get(), cutters.get(),
                            sizes.get(), shift)));
                    next = to;
                }
                BlockLog log = Outcome.await(pending.poll(), () -> poolThreadDied);
                if (log.epoch != dictionary.epoch()) {
                    inFileOrder(source, log.from, log.to, progress);
                } else {
                    apply(log);
                    if (log.stop >= 0) {
                        inFileOrder(source, log.stop, log.to, progress);
                    }
                }
                progress.advance(log.to);
            }
        } finally {
            for (Future<BlockLog> f : pending) {
                f.cancel(true);
            }
        }
    }

    /** Decodes the lines of [from, to) on a block thread, up to the first header or definition line. */
    private BlockLog decodeBlock(LineCutter.Source source, long from, long to, LineDecoder d, LineCutter cutter,
                                 BlockLog.Sizes sizes, int shift) throws IOException {
        BlockLog log = new BlockLog(from, to, dictionary.epoch(), sizes);
        d.timeShift = shift;
        d.line = 0;
        log.stop = cutter.cut(source, from, to, (buf, start, end, last, offset) -> {
            d.line++;
            if (cutter.overlong) {
                d.damage(log, SkipReason.LINE_TOO_LONG, overlong(), overlongDetail(cutter, offset));
                return true;
            }
            if (d.decode(buf, start, end, last, log) != LineDecoder.DONE) {
                d.line--;
                return false;
            }
            return true;
        });
        log.lines = d.line;
        log.tally = d.takeTally();
        log.recordSizes();
        return log;
    }


    /** Applies a block's operations as if its lines were read here, after the lines read so far. */
    private void apply(BlockLog log) throws IOException {
        long base = decoder.line;
        deliver(log.inOrder, base);
        adopt(log.buffers, base);
        // the block's buffers are now the reader's: they count toward its spill budget
        inOrder.ops += log.ops;
        inOrder.bytes += log.bytes;
        decoder.tally.add(log.tally, base);
        decoder.line = base + log.lines;
        spillPastBudget();
    }

    /** Hands a block's events, link ends, destructions and problems on in line order. */
    private void deliver(List<Object> inOrderOfBlock, long base) {
        for (Object o : inOrderOfBlock) {
            if (o instanceof PajeEvent e) {
                listener.event(new PajeEvent(e.container(), e.type(), e.time(), e.value(), e.definition(), e.extras(),
                        e.line() + base));
            } else if (o instanceof BlockLog.LinkEnd l) {
                inOrder.link(l.type(), l.key(), l.start(), l.time(), l.container(), l.other(), l.value(),
                        l.line() + base);
            } else if (o instanceof BlockLog.Destroy d) {
                inOrder.destroy(d.container(), d.time(), d.line() + base);
            } else {
                BlockLog.Problem p = (BlockLog.Problem) o;
                listener.problem(p.reason(), p.what(), p.line() + base, p.detail());
            }
        }
    }

    /** Adopts a block's state and variable buffers into the reader's, per (container, type). */
    private void adopt(Object[][] blockBuffers, long base) {
        for (int ci = 0; ci < blockBuffers.length; ci++) {
            Object[] row = blockBuffers[ci];
            if (row == null) {
                continue;
            }
            PajeContainer c = containerList.get(ci);
            for (int slot = 0; slot < row.length; slot++) {
                if (row[slot] instanceof StateBuffer sb) {
                    inOrder.buffer(c, typeList.get(slot), StateBuffer::new).adopt(sb, base);
                } else if (row[slot] instanceof VariableBuffer vb) {
                    inOrder.buffer(c, typeList.get(slot), VariableBuffer::new).adopt(vb, base);
                }
            }
        }
    }

    /**
     * Applies decoded lines at once, in file order. Its counts are those of all the reader's buffers, the adopted
     * blocks' included, toward the spill budget.
     */
    private final class InOrder extends BufferingOperations {
        @Override
        public void event(PajeEvent event) {
            listener.event(event);
        }

        /** The reader's buffers are kept in their containers. */
        @Override
        @SuppressWarnings("unchecked")
        <B extends OperationBuffer<B>> B buffer(PajeContainer c, PajeType type, IntFunction<B> make) {
            if (type.slot >= c.buffers.length) {
                c.buffers = java.util.Arrays.copyOf(c.buffers, Math.max(type.slot + 1, typeList.size()));
            }
            Object b = c.buffers[type.slot];
            if (b == null) {
                b = make.apply(OperationBuffer.INITIAL);
                c.buffers[type.slot] = b;
            }
            return (B) b;
        }

        @Override
        public void link(PajeType type, String key, boolean start, long time, PajeContainer c, PajeContainer other,
                         String value, long line) {
            BlockLog.LinkEnd half = new BlockLog.LinkEnd(type, key, start, time, c, other, value, line);
            String k = type.alias() + '\u0000' + key;
            Map<String, ArrayDeque<BlockLog.LinkEnd>> waiting = start ? pendingLinkEnds : pendingLinkStarts;
            ArrayDeque<BlockLog.LinkEnd> q = waiting.get(k);
            if (q != null && !q.isEmpty()) {
                BlockLog.LinkEnd o = q.poll();
                if (q.isEmpty()) {
                    waiting.remove(k);
                }
                BlockLog.LinkEnd s = start ? half : o;
                BlockLog.LinkEnd e = start ? o : half;
                listener.link(new PajeLink(type, s.container(), s.other(), e.other(), s.time(), e.time(),
                        s.value() != null ? s.value() : e.value(), key, s.line(), e.line()));
            } else {
                (start ? pendingLinkStarts : pendingLinkEnds).computeIfAbsent(k, x -> new ArrayDeque<>()).add(half);
            }
        }

        @Override
        public void destroy(PajeContainer c, long time, long line) {
            if (c.isDestroyed()) {
                listener.problem(SkipReason.DAMAGED_RECORD, "bad field value", line,
                        "container '" + c.alias() + "' destroyed twice");
                return;
            }
            c.destroy(time);
            decoder.tally.kindCounts[PajeEventKind.DESTROY_CONTAINER.ordinal()]++;
        }

        @Override
        public void problem(SkipReason reason, String what, long line, String detail) {
            listener.problem(reason, what, line, detail);
        }
    }

    // ---- header ----

    private void headerLine(String line) {
        String[] parts = line.substring(1).trim().split("[ \t]+");
        if (parts.length == 0) {
            return;
        }
        if (parts[0].equals("EventDef")) {
            if (parts.length < 3) {
                damage(SkipReason.DAMAGED_RECORD, "bad %EventDef line", line.trim());
                defName = null;
                return;
            }
            defName = parts[1];
            try {
                defId = Integer.parseInt(parts[2]);
            } catch (NumberFormatException e) {
                damage(SkipReason.DAMAGED_RECORD, "bad %EventDef id", line.trim());
                defName = null;
                return;
            }
            defFields = new ArrayList<>();
        } else if (parts[0].equals("EndEventDef")) {
            if (defName != null) {
                PajeEventKind kind = PajeEventKind.byName(defName);
                if (kind == null) {
                    problem(SkipReason.UNKNOWN_RECORD, "Paje event kind in the header (its lines are skipped)",
                            defName + " " + defId);
                } else if (defId < 0 || defId > 1_000_000) {
                    damage(SkipReason.DAMAGED_RECORD, "event id out of range", defName + " " + defId);
                } else {
                    EventDefinition d = new EventDefinition(defId, kind, defFields);
                    List<Field> missing = d.required().stream().filter(f -> d.index(f) < 0).toList();
                    if (!missing.isEmpty()) {
                        damage(SkipReason.DAMAGED_RECORD,
                                "event definition lacks required fields (its lines are skipped)",
                                defName + " " + defId + " lacks " + missing);
                    } else {
                        definitions.put(defId, d);
                        dictionary.define(d);
                    }
                }
            }
            defName = null;
        } else if (defName != null && parts[0].isEmpty() && parts.length >= 2) {
            defFields.add(parts[1]);
        } else if (defName != null && !parts[0].isEmpty()) {
            // "%Name type" without a space after '%'
            defFields.add(parts[0]);
        }
    }

    private void announceHeader() {
        if (autoTimeUnit) {
            boolean starpu = definitions.values().stream().anyMatch(d -> d.extra("JobId") >= 0
                    || d.extra("Handle") >= 0);
            timeShift = starpu ? 6 : 9;
        }
        decoder.timeShift = timeShift;
        dictionary.announced = true;
        listener.header(java.util.Collections.unmodifiableMap(definitions));
    }

    private PajeType parentType(String text) {
        if (text.equals("0")) {
            return null;
        }
        PajeType p = dictionary.types.get(text);
        if (p == null || p.kind() != PajeType.Kind.CONTAINER) {
            throw new IllegalArgumentException("unknown container type '" + text + "'");
        }
        return p;
    }

    private void defineType(PajeType t) {
        if (dictionary.types.containsKey(t.alias())) {
            throw new IllegalArgumentException("type alias '" + t.alias() + "' defined twice");
        }
        dictionary.types.put(t.alias(), t);
        dictionary.types.putIfAbsent(t.name(), t);
        typeList.add(t);
        listener.type(t);
    }

    /** Applies a line that defines a type, a value or a container. */
    private void define(EventDefinition def, byte[] buf) {
        PajeEventKind kind = def.kind();
        LineDecoder d = decoder;
        switch (kind) {
            case DEFINE_CONTAINER_TYPE, DEFINE_EVENT_TYPE, DEFINE_STATE_TYPE, DEFINE_VARIABLE_TYPE -> {
                String name = d.str(buf, def, def.index(Field.NAME));
                String alias = d.str(buf, def, Field.ALIAS, name);
                PajeType parent = parentType(d.str(buf, def, def.index(Field.TYPE)));
                PajeType.Kind k = switch (kind) {
                    case DEFINE_CONTAINER_TYPE -> PajeType.Kind.CONTAINER;
                    case DEFINE_EVENT_TYPE -> PajeType.Kind.EVENT;
                    case DEFINE_STATE_TYPE -> PajeType.Kind.STATE;
                    default -> PajeType.Kind.VARIABLE;
                };
                if (k != PajeType.Kind.CONTAINER && parent == null) {
                    throw new IllegalArgumentException("a " + k.name().toLowerCase() + " type needs a container type");
                }
                defineType(new PajeType(typeList.size(), k, alias, name, parent, null, null));
            }
            case DEFINE_LINK_TYPE -> {
                String name = d.str(buf, def, def.index(Field.NAME));
                String alias = d.str(buf, def, Field.ALIAS, name);
                PajeType parent = parentType(d.str(buf, def, def.index(Field.TYPE)));
                PajeType from = parentType(d.str(buf, def, def.index(Field.START_CONTAINER_TYPE)));
                PajeType to = parentType(d.str(buf, def, def.index(Field.END_CONTAINER_TYPE)));
                defineType(new PajeType(typeList.size(), PajeType.Kind.LINK, alias, name, parent, from, to));
            }
            case DEFINE_ENTITY_VALUE -> {
                PajeType type = d.type(buf, def, null);
                String name = d.str(buf, def, def.index(Field.NAME));
                String alias = d.str(buf, def, Field.ALIAS, name);
                String color = d.str(buf, def, Field.COLOR, null);
                PajeValue v = new PajeValue(alias, name, color, true);
                type.addValue(v);
                listener.value(type, v);
            }
            case CREATE_CONTAINER -> {
                long t = d.time(buf, def);
                String name = d.str(buf, def, def.index(Field.NAME));
                String alias = d.str(buf, def, Field.ALIAS, name);
                PajeType type = d.type(buf, def, PajeType.Kind.CONTAINER);
                String parentText = d.str(buf, def, def.index(Field.CONTAINER));
                PajeContainer parent = parentText.equals("0") ? null : d.container(parentText);
                if (dictionary.containers.containsKey(alias)) {
                    throw new IllegalArgumentException("container '" + alias + "' created twice");
                }
                PajeContainer c = new PajeContainer(containerList.size(), alias, name, type, parent, t);
                containerList.add(c);
                dictionary.containers.put(alias, c);
                dictionary.containers.putIfAbsent(name, c);
                listener.container(c);
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        d.tally.kindCounts[kind.ordinal()]++;
    }

    private void problem(SkipReason reason, String what, String detail) {
        listener.problem(reason, what, decoder.line, detail);
    }

    /** A line or header definition that does not parse: skipped and reported as damage in the input. */
    private void damage(SkipReason reason, String what, String detail) {
        decoder.damage(inOrder, reason, what, detail);
    }

    // ---- end of trace: replay states and variables ----

    /**
     * With block threads: has them gather and sort every buffer ahead of the replay, in the replay's order, so that
     * the replay mostly finds its buffers ready. Null without block threads.
     */
    private ArrayDeque<Future<?>> prepareReplay() {
        if (pool == null) {
            return null;
        }
        ArrayDeque<Future<?>> prepared = new ArrayDeque<>();
        for (PajeContainer c : containerList) {
            for (Object b : c.buffers) {
                if (b instanceof OperationBuffer<?> ob) {
                    prepared.add(pool.submit(ob::prepare));
                }
            }
        }
        return prepared;
    }

    private void finish() throws IOException {
        if (!dictionary.announced) {
            announceHeader();
        }
        long maxTime = decoder.tally.maxTime;
        long minTime = decoder.tally.minTime;
        long end = maxTime == Long.MIN_VALUE ? 0 : maxTime;
        long start = minTime == Long.MAX_VALUE ? 0 : minTime;
        ArrayDeque<Future<?>> prepared = prepareReplay();
        listener.bodyRead(start, end);
        for (PajeContainer c : containerList) {
            for (int slot = 0; slot < c.buffers.length; slot++) {
                Object b = c.buffers[slot];
                if (b != null && prepared != null) {
                    Outcome.await(prepared.poll(), () -> poolThreadDied);
                }
                if (b instanceof StateBuffer sb) {
                    replayStates(c, typeList.get(slot), sb, end);
                } else if (b instanceof VariableBuffer vb) {
                    replayVariables(c, typeList.get(slot), vb);
                }
                c.buffers[slot] = null;
            }
        }
        for (ArrayDeque<BlockLog.LinkEnd> q : pendingLinkEnds.values()) {
            for (BlockLog.LinkEnd o : q) {
                listener.problem(SkipReason.UNMATCHED_FLOW, "link end without start", o.line(), "key never started");
            }
        }
        for (ArrayDeque<BlockLog.LinkEnd> q : pendingLinkStarts.values()) {
            for (BlockLog.LinkEnd o : q) {
                listener.problem(SkipReason.UNMATCHED_FLOW, "link start without end", o.line(), "key never ended");
            }
        }
        listener.end(start, end);
    }

    private void replayStates(PajeContainer c, PajeType type, StateBuffer b, long traceEnd) {
        StateBuffer.Ops ops = b.runs.isEmpty() ? b.cursor() : spill.merged(b);
        long close = c.isDestroyed() ? c.destroyed() : traceEnd;
        // decided once here, not per operation: a branch that flips between containers makes the JIT recompile
        long lastTime = c.isDestroyed() ? c.destroyed() : Long.MAX_VALUE;
        // The open states, bottom first: entry k is the state opened at depth k.
        StateBuffer stack = new StateBuffer();
        int top = 0;
        while (ops.next()) {
            long t = ops.time();
            if (t > lastTime) {
                listener.problem(SkipReason.INCONSISTENT_STATE, "state change after its container was destroyed",
                        ops.line(),
                        c.alias() + " destroyed earlier");
                continue;
            }
            switch (ops.op()) {
                case StateBuffer.SET -> {
                    // A set replaces the whole stack of this (container, type), as in Paje's reference semantics.
                    while (top > 0) {
                        top--;
                        emitState(c, type, stack, top, t, top, false);
                    }
                    ops.copyTo(stack, top++);
                }
                case StateBuffer.PUSH -> ops.copyTo(stack, top++);
                case StateBuffer.POP -> {
                    if (top == 0) {
                        listener.problem(SkipReason.UNMATCHED_END, "pop without push", ops.line(),
                                c.alias() + " " + type.alias());
                    } else {
                        top--;
                        emitState(c, type, stack, top, t, top, false);
                    }
                }
                default -> {
                    while (top > 0) {
                        top--;
                        emitState(c, type, stack, top, t, top, false);
                    }
                }
            }
        }
        while (top > 0) {
            top--;
            emitState(c, type, stack, top, Math.max(close, stack.time[top]), top, true);
        }
    }

    private void emitState(PajeContainer c, PajeType type, StateBuffer b, int i, long end, int depth,
                           boolean byEnd) {
        listener.state(new PajeState(c, type, b.time[i], end, b.value[i], depth, b.def == null ? null : b.def[i],
                b.extras == null ? null : b.extras[i], b.line[i], byEnd));
    }

    private void replayVariables(PajeContainer c, PajeType type, VariableBuffer b) {
        VariableBuffer.Ops ops = b.runs.isEmpty() ? b.cursor() : spill.merged(b);
        double v = 0;
        while (ops.next()) {
            v = switch (ops.op()) {
                case VariableBuffer.SET -> ops.value();
                case VariableBuffer.ADD -> v + ops.value();
                default -> v - ops.value();
            };
            listener.variable(c, type, ops.time(), v, ops.line());
        }
    }
}
