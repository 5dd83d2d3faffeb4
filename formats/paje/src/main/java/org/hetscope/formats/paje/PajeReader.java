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
import org.hetscope.formats.paje.EventDefinition.Field;
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
 *
 * <p>After the header, the body is cut into chunks of whole lines that worker threads decode ({@link LineDecoder}:
 * fields, times, values, shared Strings), while this thread applies the decoded chunks in file order: types,
 * containers, state buffers, listener calls and problem reports see every line in file order, with its number,
 * exactly as when one thread reads it all.
 */
public final class PajeReader {
    /** Decimal exponent from the file's time unit to nanoseconds: 9 for seconds (the Paje default), 6 for ms. */
    private int timeShift;
    private final boolean autoTimeUnit;
    private final PajeListener listener;

    private final Map<Integer, EventDefinition> definitions = new LinkedHashMap<>();
    private EventDefinition[] byId = new EventDefinition[64];
    private final Map<String, PajeType> types = new HashMap<>();
    private final List<PajeType> typeList = new ArrayList<>();
    private final Map<String, PajeContainer> containers = new HashMap<>();
    private final List<PajeContainer> containerList = new ArrayList<>();
    /** Link halves waiting for their other half, by type alias and key: one {@code Object[]} or a queue of them. */
    private final Map<String, Object> pendingLinkStarts = new HashMap<>();
    private final Map<String, Object> pendingLinkEnds = new HashMap<>();
    /** Decodes the lines this thread reads itself: the header, and the body when it is not decoded in parallel. */
    private final LineDecoder decoder = new LineDecoder();
    private final int chunkBytes;
    private final int workers;
    private final Map<PajeEventKind, Long> counts = new java.util.EnumMap<>(PajeEventKind.class);
    private final long[] kindCounts = new long[PajeEventKind.values().length];

    // Header parsing state.
    private String defName;
    private int defId = -1;
    private List<String> defFields;
    private boolean headerAnnounced;
    /** Whether a header line came after the first event line: the rest of the file is then decoded in order. */
    private boolean headerInBody;

    private long lineNo;
    private long roundedTimes;
    private long firstRoundedLine = -1;
    private long minTime = Long.MAX_VALUE;
    private long maxTime = Long.MIN_VALUE;

    /**
     * @param timeShift decimal exponent from the file's time unit to nanoseconds (9 = seconds, 6 = milliseconds),
     *                  or null to choose from the header: milliseconds for StarPU's dialect (its definitions carry
     *                  {@code JobId} or {@code Handle} fields), seconds otherwise
     */
    public PajeReader(PajeListener listener, Integer timeShift) {
        // Chunks of 1 MiB stay below G1's humongous-object size; the reader's own thread resolves the decoded
        // lines and the workers decode the next chunks meanwhile.
        this(listener, timeShift, 1 << 20, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /** With chunks of {@code chunkBytes} decoded by {@code workers} threads (0: all on the caller's thread). */
    PajeReader(PajeListener listener, Integer timeShift, int chunkBytes, int workers) {
        this.listener = listener;
        this.autoTimeUnit = timeShift == null;
        this.timeShift = timeShift == null ? 9 : timeShift;
        this.chunkBytes = chunkBytes;
        this.workers = workers;
        decoder.use(byId, this.timeShift, false);
    }

    /** The decimal exponent to nanoseconds that was used (known after the header). */
    public int timeShift() {
        return timeShift;
    }

    /** How many body lines of each kind were read and accepted. */
    public Map<PajeEventKind, Long> counts() {
        counts.clear();
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
        return lineNo;
    }

    /** How many times had digits below the nanosecond (rounded half-even), and the first such line (-1: none). */
    public long roundedTimes() {
        return roundedTimes;
    }

    public long firstRoundedLine() {
        return firstRoundedLine;
    }

    /** Reads a whole file and finishes the replay. */
    public void read(Path file, Progress progress) throws IOException {
        long size = Files.size(file);
        progress.start("Paje " + file.getFileName(), size);
        try (InputStream in = Files.newInputStream(file)) {
            read(in, progress);
        }
    }

    /** Reads a whole stream and finishes the replay. */
    public void read(InputStream in, Progress progress) throws IOException {
        LineChunks chunks = new LineChunks(in, chunkBytes);
        ParallelDecoding parallel = null;
        long nextReport = 1 << 24;
        try {
            while (true) {
                if (parallel == null) {
                    LineChunks.Chunk c = chunks.next();
                    if (c == null) {
                        break;
                    }
                    lineByLine(c.buf(), 0, c.length(), c.endsFile());
                    // The header is complete and the workers can decode with a copy of its definitions. Small
                    // inputs (one chunk) never get here, and need no threads.
                    if (headerAnnounced && !headerInBody && workers > 0) {
                        parallel = new ParallelDecoding(chunks, workers, byId, timeShift);
                    }
                } else {
                    DecodedLines d = parallel.next();
                    if (d == null) {
                        break;
                    }
                    if (headerInBody) {
                        lineByLine(d.buf, d.from, d.to, d.endsFile);
                    } else {
                        apply(d);
                    }
                    parallel.recycle(d);
                }
                if (chunks.consumed() >= nextReport) {
                    progress.advance(chunks.consumed());
                    nextReport = chunks.consumed() + (1 << 24);
                }
            }
        } finally {
            if (parallel != null) {
                parallel.close();
            }
        }
        progress.advance(chunks.consumed());
        finish();
    }

    /**
     * Decodes and applies the lines of {@code buf[pos, to)} one at a time on this thread, so that each line is
     * decoded with the definitions of the header lines before it.
     */
    private void lineByLine(byte[] buf, int pos, int to, boolean endsFile) {
        DecodedLines one = new DecodedLines(buf, pos, to, endsFile, 1);
        while (pos < to) {
            int nl = LineDecoder.indexOf(buf, pos, to, (byte) '\n');
            int end = nl < 0 ? to : nl;
            int next = nl < 0 ? to : nl + 1;
            lineNo++;
            one.reset(buf, pos, to, endsFile);
            if (!decoder.line(one, buf, pos, end, nl < 0, 0, next)) {
                announceHeader();
                decoder.use(byId, timeShift, true);
                decoder.line(one, buf, pos, end, nl < 0, 0, next);
            }
            if (one.n > 0) {
                apply(one, 0);
            }
            pos = next;
        }
    }

    /** Applies the records of a chunk decoded by a worker. */
    private void apply(DecodedLines d) {
        long base = lineNo;
        for (int k = 0; k < d.n; k++) {
            lineNo = base + d.line[k] + 1;
            apply(d, k);
            if (headerInBody) {
                // The workers decoded the rest with the definitions from before this header line.
                lineByLine(d.buf, d.next[k], d.to, d.endsFile);
                return;
            }
        }
        lineNo = base + d.lines;
    }

    /** Reports or applies one decoded line; {@link #lineNo} is its line. */
    private void apply(DecodedLines d, int k) {
        boolean last = k == d.lastRecord;
        EventDefinition def = d.def[k];
        switch (d.outcome[k]) {
            case DecodedLines.HEADER -> {
                headerLine(d.text(k));
                if (headerAnnounced) {
                    headerInBody = true;
                }
                decoder.use(byId, timeShift, headerAnnounced);
            }
            case DecodedLines.NOT_EVENT -> damage("line that is neither a header line nor an event",
                    "'" + text(d.buf, d.textStart[k], Math.min(d.textEnd[k], d.textStart[k] + 40)) + "'");
            case DecodedLines.UNDEFINED -> damage("undefined event id", "id " + d.id[k]);
            case DecodedLines.UNTERMINATED -> damage(last ? "truncated last line" : "unterminated quoted string",
                    "event id " + d.id[k]);
            case DecodedLines.FIELD_COUNT -> {
                int nf = d.fieldCount[k];
                if (nf < def.fieldCount()) {
                    damage(last ? "truncated last line" : "line with missing fields",
                            def.kind().pajeName() + " " + d.id[k] + " needs " + def.fieldCount() + " fields, found "
                                    + nf);
                } else {
                    damage("line with extra fields",
                            def.kind().pajeName() + " " + d.id[k] + " has " + def.fieldCount() + " fields, found "
                                    + nf);
                }
            }
            default -> {
                try {
                    event(def, d, k);
                } catch (IllegalArgumentException e) {
                    damage("bad field value", e.getMessage());
                }
            }
        }
    }

    private static String text(byte[] buf, int from, int to) {
        return new String(buf, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
    }
    // ---- header ----

    private void headerLine(String line) {
        String[] parts = line.substring(1).trim().split("[ \t]+");
        if (parts.length == 0) {
            return;
        }
        if (parts[0].equals("EventDef")) {
            if (parts.length < 3) {
                damage("bad %EventDef line", line.trim());
                defName = null;
                return;
            }
            defName = parts[1];
            try {
                defId = Integer.parseInt(parts[2]);
            } catch (NumberFormatException e) {
                damage("bad %EventDef id", line.trim());
                defName = null;
                return;
            }
            defFields = new ArrayList<>();
        } else if (parts[0].equals("EndEventDef")) {
            if (defName != null) {
                PajeEventKind kind = PajeEventKind.byName(defName);
                if (kind == null) {
                    problem("unknown Paje event kind in header (its lines are skipped)", defName + " " + defId);
                } else if (defId < 0 || defId > 1_000_000) {
                    damage("event id out of range", defName + " " + defId);
                } else {
                    EventDefinition d = new EventDefinition(defId, kind, defFields);
                    List<Field> missing = d.required().stream().filter(f -> d.index(f) < 0).toList();
                    if (!missing.isEmpty()) {
                        damage("event definition lacks required fields (its lines are skipped)",
                                defName + " " + defId + " lacks " + missing);
                    } else {
                        definitions.put(defId, d);
                        if (defId >= byId.length) {
                            byId = java.util.Arrays.copyOf(byId, Math.max(defId + 1, byId.length * 2));
                        }
                        byId[defId] = d;
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
        headerAnnounced = true;
        if (autoTimeUnit) {
            boolean starpu = definitions.values().stream().anyMatch(d -> d.extra("JobId") >= 0
                    || d.extra("Handle") >= 0);
            timeShift = starpu ? 6 : 9;
        }
        listener.header(java.util.Collections.unmodifiableMap(definitions));
    }

    // ---- body ----

    /** The time of a decoded line, counted in the trace's bounds and rounding. */
    private long time(DecodedLines d, int k) {
        if (d.timeError[k] != null) {
            throw new IllegalArgumentException(d.timeError[k]);
        }
        long t = d.time[k];
        if (d.rounded[k]) {
            roundedTimes++;
            if (firstRoundedLine < 0) {
                firstRoundedLine = lineNo;
            }
        }
        if (t < minTime) {
            minTime = t;
        }
        if (t > maxTime) {
            maxTime = t;
        }
        return t;
    }

    private PajeType type(String t, EventDefinition def, PajeType.Kind expected) {
        if (t == def.lastTypeText && (expected == null || def.lastType.kind() == expected)) {
            return def.lastType;
        }
        PajeType type = types.get(t);
        if (type == null) {
            throw new IllegalArgumentException("unknown type '" + t + "'");
        }
        if (expected != null && type.kind() != expected) {
            throw new IllegalArgumentException("type '" + t + "' is a " + type.kind().name().toLowerCase()
                    + " type, not a " + expected.name().toLowerCase() + " type");
        }
        def.lastTypeText = t;
        def.lastType = type;
        return type;
    }

    /** The container named by the CONTAINER field of a line, through the definition's one-entry cache. */
    private PajeContainer lineContainer(String text, EventDefinition def) {
        if (text == def.lastContainerText) {
            return def.lastContainer;
        }
        PajeContainer c = container(text);
        def.lastContainerText = text;
        def.lastContainer = c;
        return c;
    }

    private PajeContainer container(String alias) {
        PajeContainer c = containers.get(alias);
        if (c == null) {
            throw new IllegalArgumentException("unknown container '" + alias + "'");
        }
        return c;
    }

    private PajeType parentType(String text) {
        if (text.equals("0")) {
            return null;
        }
        PajeType p = types.get(text);
        if (p == null || p.kind() != PajeType.Kind.CONTAINER) {
            throw new IllegalArgumentException("unknown container type '" + text + "'");
        }
        return p;
    }

    private void defineType(PajeType t) {
        if (types.containsKey(t.alias())) {
            throw new IllegalArgumentException("type alias '" + t.alias() + "' defined twice");
        }
        types.put(t.alias(), t);
        types.putIfAbsent(t.name(), t);
        typeList.add(t);
        listener.type(t);
    }

    /** A standard field of a decoded line, or null when its definition lacks it. */
    private static String field(DecodedLines d, int k, EventDefinition def, Field f) {
        int i = def.index(f);
        return i < 0 ? null : d.field(k, i);
    }

    @SuppressWarnings("unchecked")
    private void event(EventDefinition def, DecodedLines d, int k) {
        PajeEventKind kind = def.kind();
        switch (kind) {
            case DEFINE_CONTAINER_TYPE, DEFINE_EVENT_TYPE, DEFINE_STATE_TYPE, DEFINE_VARIABLE_TYPE -> {
                String name = field(d, k, def, Field.NAME);
                String alias = def.index(Field.ALIAS) >= 0 ? field(d, k, def, Field.ALIAS) : name;
                PajeType parent = parentType(field(d, k, def, Field.TYPE));
                PajeType.Kind tk = switch (kind) {
                    case DEFINE_CONTAINER_TYPE -> PajeType.Kind.CONTAINER;
                    case DEFINE_EVENT_TYPE -> PajeType.Kind.EVENT;
                    case DEFINE_STATE_TYPE -> PajeType.Kind.STATE;
                    default -> PajeType.Kind.VARIABLE;
                };
                if (tk != PajeType.Kind.CONTAINER && parent == null) {
                    throw new IllegalArgumentException("a " + tk.name().toLowerCase() + " type needs a container type");
                }
                defineType(new PajeType(typeList.size(), tk, alias, name, parent, null, null));
            }
            case DEFINE_LINK_TYPE -> {
                String name = field(d, k, def, Field.NAME);
                String alias = def.index(Field.ALIAS) >= 0 ? field(d, k, def, Field.ALIAS) : name;
                PajeType parent = parentType(field(d, k, def, Field.TYPE));
                PajeType from = parentType(field(d, k, def, Field.START_CONTAINER_TYPE));
                PajeType to = parentType(field(d, k, def, Field.END_CONTAINER_TYPE));
                defineType(new PajeType(typeList.size(), PajeType.Kind.LINK, alias, name, parent, from, to));
            }
            case DEFINE_ENTITY_VALUE -> {
                PajeType type = type(field(d, k, def, Field.TYPE), def, null);
                String name = field(d, k, def, Field.NAME);
                String alias = def.index(Field.ALIAS) >= 0 ? field(d, k, def, Field.ALIAS) : name;
                String color = field(d, k, def, Field.COLOR);
                PajeValue v = new PajeValue(alias, name, color, true);
                type.addValue(v);
                listener.value(type, v);
            }
            case CREATE_CONTAINER -> {
                long t = time(d, k);
                String name = field(d, k, def, Field.NAME);
                String alias = def.index(Field.ALIAS) >= 0 ? field(d, k, def, Field.ALIAS) : name;
                PajeType type = type(field(d, k, def, Field.TYPE), def, PajeType.Kind.CONTAINER);
                String parentText = field(d, k, def, Field.CONTAINER);
                PajeContainer parent = parentText.equals("0") ? null : container(parentText);
                if (containers.containsKey(alias)) {
                    throw new IllegalArgumentException("container '" + alias + "' created twice");
                }
                PajeContainer c = new PajeContainer(alias, name, type, parent, t);
                containers.put(alias, c);
                containers.putIfAbsent(name, c);
                containerList.add(c);
                listener.container(c);
            }
            case DESTROY_CONTAINER -> {
                long t = time(d, k);
                PajeContainer c = container(field(d, k, def, Field.NAME));
                if (c.isDestroyed()) {
                    throw new IllegalArgumentException("container '" + c.alias() + "' destroyed twice");
                }
                c.destroy(t);
            }
            case NEW_EVENT -> {
                long t = time(d, k);
                PajeType type = type(field(d, k, def, Field.TYPE), def, PajeType.Kind.EVENT);
                PajeContainer c = lineContainer(field(d, k, def, Field.CONTAINER), def);
                PajeValue v = type.value(field(d, k, def, Field.VALUE));
                listener.event(new PajeEvent(c, type, t, v, def, d.extras[k], lineNo));
            }
            case SET_STATE, PUSH_STATE, POP_STATE, RESET_STATE -> {
                long t = time(d, k);
                PajeType type = type(field(d, k, def, Field.TYPE), def, PajeType.Kind.STATE);
                PajeContainer c = lineContainer(field(d, k, def, Field.CONTAINER), def);
                PajeValue v = def.index(Field.VALUE) >= 0 ? type.value(field(d, k, def, Field.VALUE)) : null;
                byte op = switch (kind) {
                    case SET_STATE -> StateBuffer.SET;
                    case PUSH_STATE -> StateBuffer.PUSH;
                    case POP_STATE -> StateBuffer.POP;
                    default -> StateBuffer.RESET;
                };
                StateBuffer sb = buffer(c, type, StateBuffer.class);
                sb.add(t, lineNo, op, v, def.extraIndex().length == 0 ? null : def, d.extras[k]);
            }
            case SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE -> {
                long t = time(d, k);
                PajeType type = type(field(d, k, def, Field.TYPE), def, PajeType.Kind.VARIABLE);
                PajeContainer c = lineContainer(field(d, k, def, Field.CONTAINER), def);
                if (d.valueError[k] != null) {
                    throw new IllegalArgumentException(d.valueError[k]);
                }
                byte op = kind == PajeEventKind.SET_VARIABLE ? VariableBuffer.SET
                        : kind == PajeEventKind.ADD_VARIABLE ? VariableBuffer.ADD : VariableBuffer.SUB;
                buffer(c, type, VariableBuffer.class).add(t, lineNo, op, d.value[k]);
            }
            case START_LINK, END_LINK -> {
                long t = time(d, k);
                PajeType type = type(field(d, k, def, Field.TYPE), def, PajeType.Kind.LINK);
                PajeContainer c = container(field(d, k, def, Field.CONTAINER));
                boolean start = kind == PajeEventKind.START_LINK;
                PajeContainer end = container(field(d, k, def, start ? Field.START_CONTAINER
                        : Field.END_CONTAINER));
                String value = field(d, k, def, Field.VALUE);
                String key = field(d, k, def, Field.KEY);
                String typeText = field(d, k, def, Field.TYPE);
                // The decoder joined type text and key already (and hashed them); the type's alias is the key
                // unless the line named the type by its name.
                String linkKey = typeText.equals(type.alias()) ? d.field(k, def.fieldCount())
                        : type.alias() + '\u0000' + key;
                Object[] half = {t, end, value, lineNo, c};
                Map<String, Object> other = start ? pendingLinkEnds : pendingLinkStarts;
                Object q = other.get(linkKey);
                if (q != null) {
                    Object[] o;
                    if (q instanceof ArrayDeque<?> many) {
                        o = (Object[]) many.poll();
                        if (many.isEmpty()) {
                            other.remove(linkKey);
                        }
                    } else {
                        o = (Object[]) q;
                        other.remove(linkKey);
                    }
                    emitLink(type, key, start ? half : o, start ? o : half);
                } else {
                    Map<String, Object> mine = start ? pendingLinkStarts : pendingLinkEnds;
                    Object waiting = mine.putIfAbsent(linkKey, half);
                    if (waiting instanceof ArrayDeque<?> many) {
                        ((ArrayDeque<Object[]>) many).add(half);
                    } else if (waiting != null) {
                        ArrayDeque<Object[]> many = new ArrayDeque<>();
                        many.add((Object[]) waiting);
                        many.add(half);
                        mine.put(linkKey, many);
                    }
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        kindCounts[kind.ordinal()]++;
    }
    private void emitLink(PajeType type, String key, Object[] s, Object[] e) {
        listener.link(new PajeLink(type, (PajeContainer) s[4], (PajeContainer) s[1], (PajeContainer) e[1],
                (Long) s[0], (Long) e[0], s[2] != null ? (String) s[2] : (String) e[2], key, (Long) s[3],
                (Long) e[3]));
    }

    @SuppressWarnings("unchecked")
    private <T> T buffer(PajeContainer c, PajeType type, Class<T> cls) {
        if (type.slot >= c.buffers.length) {
            c.buffers = java.util.Arrays.copyOf(c.buffers, Math.max(type.slot + 1, typeList.size()));
        }
        Object b = c.buffers[type.slot];
        if (b == null) {
            b = cls == StateBuffer.class ? new StateBuffer() : new VariableBuffer();
            c.buffers[type.slot] = b;
        }
        return (T) b;
    }

    private void problem(String what, String detail) {
        listener.problem(what, lineNo, detail);
    }

    /** A line or header definition that does not parse: skipped and reported as damage in the input. */
    private void damage(String what, String detail) {
        listener.problem(org.hetscope.model.TraceSink.DAMAGE + what, lineNo, detail);
    }

    // ---- end of trace: replay states and variables ----

    private void finish() {
        if (!headerAnnounced) {
            announceHeader();
        }
        listener.linesRead();
        long end = maxTime == Long.MIN_VALUE ? 0 : maxTime;
        for (PajeContainer c : containerList) {
            for (int slot = 0; slot < c.buffers.length; slot++) {
                Object b = c.buffers[slot];
                if (b instanceof StateBuffer sb) {
                    replayStates(c, typeList.get(slot), sb, end);
                } else if (b instanceof VariableBuffer vb) {
                    replayVariables(c, typeList.get(slot), vb);
                }
                c.buffers[slot] = null;
            }
        }
        for (Object q : pendingLinkEnds.values()) {
            for (Object[] o : halves(q)) {
                listener.problem("link end without start", (Long) o[3], "key never started");
            }
        }
        for (Object q : pendingLinkStarts.values()) {
            for (Object[] o : halves(q)) {
                listener.problem("link start without end", (Long) o[3], "key never ended");
            }
        }
        listener.end(minTime == Long.MAX_VALUE ? 0 : minTime, end);
    }

    @SuppressWarnings("unchecked")
    private static Iterable<Object[]> halves(Object pending) {
        if (pending instanceof ArrayDeque<?> many) {
            return (ArrayDeque<Object[]>) many;
        }
        return java.util.Collections.singletonList((Object[]) pending);
    }

    private void replayStates(PajeContainer c, PajeType type, StateBuffer b, long traceEnd) {
        int[] order = b.order();
        long close = c.isDestroyed() ? c.destroyed() : traceEnd;
        int[] stack = new int[8];
        int top = 0;
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            long t = b.time[i];
            if (c.isDestroyed() && t > c.destroyed()) {
                listener.problem("state change after its container was destroyed", b.line[i],
                        c.alias() + " destroyed earlier");
                continue;
            }
            switch (b.op[i]) {
                case StateBuffer.SET -> {
                    // A set replaces the whole stack of this (container, type), as in Paje's reference semantics.
                    while (top > 0) {
                        top--;
                        emitState(c, type, b, stack[top], t, top, false);
                    }
                    stack[top++] = i;
                }
                case StateBuffer.PUSH -> {
                    if (top == stack.length) {
                        stack = java.util.Arrays.copyOf(stack, top * 2);
                    }
                    stack[top++] = i;
                }
                case StateBuffer.POP -> {
                    if (top == 0) {
                        listener.problem("pop without push", b.line[i], c.alias() + " " + type.alias());
                    } else {
                        top--;
                        emitState(c, type, b, stack[top], t, top, false);
                    }
                }
                default -> {
                    while (top > 0) {
                        top--;
                        emitState(c, type, b, stack[top], t, top, false);
                    }
                }
            }
        }
        while (top > 0) {
            top--;
            int i = stack[top];
            emitState(c, type, b, i, Math.max(close, b.time[i]), top, true);
        }
    }

    private void emitState(PajeContainer c, PajeType type, StateBuffer b, int i, long end, int depth,
                           boolean byEnd) {
        listener.state(new PajeState(c, type, b.time[i], end, b.value[i], depth, b.def == null ? null : b.def[i],
                b.extras == null ? null : b.extras[i], b.line[i], byEnd));
    }

    private void replayVariables(PajeContainer c, PajeType type, VariableBuffer b) {
        int[] order = b.order();
        double v = 0;
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            v = switch (b.op[i]) {
                case VariableBuffer.SET -> b.value[i];
                case VariableBuffer.ADD -> v + b.value[i];
                default -> v - b.value[i];
            };
            listener.variable(c, type, b.time[i], v, b.line[i]);
        }
    }
}
