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
    private final Map<String, ArrayDeque<Object[]>> pendingLinkStarts = new HashMap<>();
    private final Map<String, ArrayDeque<Object[]>> pendingLinkEnds = new HashMap<>();
    private final DecimalText decimals = new DecimalText();
    private final ByteStrings.Allowance stringAllowance = new ByteStrings.Allowance();
    private final Map<PajeEventKind, Long> counts = new java.util.EnumMap<>(PajeEventKind.class);
    private final long[] kindCounts = new long[PajeEventKind.values().length];

    // Header parsing state.
    private String defName;
    private int defId = -1;
    private List<String> defFields;
    private boolean headerAnnounced;

    // Tokenizer output.
    private int[] fs = new int[32];
    private int[] fe = new int[32];
    private int nf;

    private long lineNo;
    private long roundedTimes;
    private long firstRoundedLine = -1;
    private long minTime = Long.MAX_VALUE;
    private long maxTime = Long.MIN_VALUE;

    // States and variables wait for the end of the file; past a budget they wait in a spill file.
    /**
     * Heap the buffered state and variable operations may take (as estimated by {@link #stateBytes}) before they
     * all go to the spill file: a fifth of the heap, so that traces that fit are replayed from memory.
     */
    private final long byteBudget = Runtime.getRuntime().maxMemory() / 5;
    /**
     * Buffered operations before a spill, whatever their size: tests set small values, here or with the property
     * {@code hetscope.paje.spillEvery} (to force spills through a whole import).
     */
    private long opBudget = Long.getLong("hetscope.paje.spillEvery", Long.MAX_VALUE);
    private BufferSpill spill;
    private long bufferedOps;
    private long bufferedBytes;

    /** Heap an operation takes in a {@link StateBuffer}: its columns, and the array of its extra fields. */
    private static long stateBytes(String[] extras) {
        return 40 + (extras == null ? 0 : 16 + 4L * extras.length);
    }

    /** Heap an operation takes in a {@link VariableBuffer} (its columns, with their growth slack). */
    private static final long VARIABLE_BYTES = 40;

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

    /** Spills the buffered state and variable operations to disk every {@code ops} operations (for tests). */
    void spillEvery(long ops) {
        this.opBudget = ops;
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
        try {
            readLines(in, progress);
        } finally {
            if (spill != null) {
                spill.close();
                spill = null;
            }
        }
    }

    /** Writes every buffer's operations to the spill file as a run and empties the buffers. */
    private void spillBuffers() throws IOException {
        if (spill == null) {
            spill = BufferSpill.create();
        }
        for (PajeContainer c : containerList) {
            for (Object b : c.buffers) {
                if (b instanceof StateBuffer sb && sb.n > 0) {
                    sb.runs.add(spill.write(sb));
                    sb.clear();
                } else if (b instanceof VariableBuffer vb && vb.n > 0) {
                    vb.runs.add(spill.write(vb));
                    vb.clear();
                }
            }
        }
        bufferedOps = 0;
        bufferedBytes = 0;
    }

    private void readLines(InputStream in, Progress progress) throws IOException {
        byte[] buf = new byte[1 << 22];
        int len = 0;
        long consumed = 0;
        long nextReport = 1 << 20;
        while (true) {
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                break;
            }
            len += n;
            int pos = 0;
            while (true) {
                int nl = indexOf(buf, pos, len, (byte) '\n');
                if (nl < 0) {
                    break;
                }
                lineNo++;
                line(buf, pos, nl, false);
                pos = nl + 1;
                if (bufferedOps >= opBudget || bufferedBytes >= byteBudget) {
                    spillBuffers();
                }
            }
            consumed += pos;
            if (pos == 0 && len == buf.length) {
                buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            } else {
                System.arraycopy(buf, pos, buf, 0, len - pos);
                len -= pos;
            }
            if (consumed >= nextReport) {
                progress.advance(consumed);
                nextReport = consumed + (1 << 20);
            }
        }
        if (len > 0) {
            lineNo++;
            line(buf, 0, len, true);
        }
        progress.advance(consumed + len);
        finish();
    }

    private static int indexOf(byte[] buf, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private void line(byte[] buf, int start, int end, boolean last) {
        if (end > start && buf[end - 1] == '\r') {
            end--;
        }
        int i = start;
        while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
            i++;
        }
        if (i == end || buf[i] == '#') {
            return;
        }
        if (buf[i] == '%') {
            headerLine(new String(buf, i, end - i, java.nio.charset.StandardCharsets.UTF_8));
            return;
        }
        int id = 0;
        int j = i;
        while (j < end && buf[j] >= '0' && buf[j] <= '9' && j - i < 9) {
            id = id * 10 + (buf[j] - '0');
            j++;
        }
        if (j == i || (j < end && buf[j] != ' ' && buf[j] != '\t')) {
            damage("line that is neither a header line nor an event", "'" + text(buf, i, Math.min(end, i + 40))
                    + "'");
            return;
        }
        if (!headerAnnounced) {
            announceHeader();
        }
        EventDefinition def = id < byId.length ? byId[id] : null;
        if (def == null) {
            damage("undefined event id", "id " + id);
            return;
        }
        if (!tokenize(buf, j, end)) {
            damage(last ? "truncated last line" : "unterminated quoted string", "event id " + id);
            return;
        }
        if (nf != def.fieldCount()) {
            if (nf < def.fieldCount()) {
                damage(last ? "truncated last line" : "line with missing fields",
                        def.kind().pajeName() + " " + id + " needs " + def.fieldCount() + " fields, found " + nf);
            } else {
                damage("line with extra fields",
                        def.kind().pajeName() + " " + id + " has " + def.fieldCount() + " fields, found " + nf);
            }
            return;
        }
        try {
            event(def, buf);
        } catch (IllegalArgumentException e) {
            damage("bad field value", e.getMessage());
        }
    }

    private static String text(byte[] buf, int from, int to) {
        return new String(buf, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Splits fields after the id; quoted fields lose their quotes. False for an unterminated quote. */
    private boolean tokenize(byte[] buf, int i, int end) {
        nf = 0;
        while (true) {
            while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
                i++;
            }
            if (i >= end) {
                return true;
            }
            if (nf == fs.length) {
                fs = java.util.Arrays.copyOf(fs, nf * 2);
                fe = java.util.Arrays.copyOf(fe, nf * 2);
            }
            if (buf[i] == '"') {
                int close = indexOf(buf, i + 1, end, (byte) '"');
                if (close < 0) {
                    return false;
                }
                fs[nf] = i + 1;
                fe[nf] = close;
                i = close + 1;
            } else {
                int s = i;
                while (i < end && buf[i] != ' ' && buf[i] != '\t') {
                    i++;
                }
                fs[nf] = s;
                fe[nf] = i;
            }
            nf++;
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
                    EventDefinition d = new EventDefinition(defId, kind, defFields, stringAllowance);
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

    private String str(byte[] buf, EventDefinition def, int field) {
        return def.strings(field).get(buf, fs[field], fe[field] - fs[field]);
    }

    private long time(byte[] buf, EventDefinition def) {
        int f = def.index(Field.TIME);
        long t;
        try {
            t = decimals.scaled(buf, fs[f], fe[f] - fs[f], timeShift);
            if (decimals.lastRounded()) {
                roundedTimes++;
                if (firstRoundedLine < 0) {
                    firstRoundedLine = lineNo;
                }
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad time '" + text(buf, fs[f], fe[f]) + "'");
        }
        if (t < minTime) {
            minTime = t;
        }
        if (t > maxTime) {
            maxTime = t;
        }
        return t;
    }

    private String[] extras(byte[] buf, EventDefinition def) {
        int[] idx = def.extraIndex();
        if (idx.length == 0) {
            return null;
        }
        String[] out = new String[idx.length];
        for (int k = 0; k < idx.length; k++) {
            out[k] = str(buf, def, idx[k]);
        }
        return out;
    }

    private PajeType type(byte[] buf, EventDefinition def, PajeType.Kind expected) {
        int f = def.index(Field.TYPE);
        ByteStrings table = def.strings(f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot >= 0 && table.meaning(slot) instanceof PajeType t && (expected == null || t.kind() == expected)) {
            return t;
        }
        String text = table.string(slot);
        PajeType type = types.get(text);
        if (type == null) {
            throw new IllegalArgumentException("unknown type '" + text + "'");
        }
        if (expected != null && type.kind() != expected) {
            throw new IllegalArgumentException("type '" + text + "' is a " + type.kind().name().toLowerCase()
                    + " type, not a " + expected.name().toLowerCase() + " type");
        }
        // A text, once it names a type, always names that type: aliases and names are never redefined.
        if (slot >= 0) {
            table.mean(slot, type);
        }
        return type;
    }

    /** The container named by the CONTAINER field of a line. */
    private PajeContainer container(byte[] buf, EventDefinition def) {
        return container(buf, def, def.index(Field.CONTAINER));
    }

    /** The container named by field {@code f} of a line, resolved once per distinct text of that field. */
    private PajeContainer container(byte[] buf, EventDefinition def, int f) {
        ByteStrings table = def.strings(f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot >= 0 && table.meaning(slot) instanceof PajeContainer c) {
            return c;
        }
        PajeContainer c = container(table.string(slot));
        if (slot >= 0) {
            table.mean(slot, c);
        }
        return c;
    }

    /** What the VALUE field of a line names among the values of {@code type}. */
    private PajeValue value(byte[] buf, EventDefinition def, PajeType type) {
        int f = def.index(Field.VALUE);
        ByteStrings table = def.strings(f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot < 0) {
            return type.value(table.string(slot));
        }
        // One text may be a value of several types (StarPU's worker and thread states share theirs).
        ValuesByType memo;
        if (table.meaning(slot) instanceof ValuesByType m) {
            memo = m;
        } else {
            memo = new ValuesByType();
            table.mean(slot, memo);
        }
        int t = type.slot;
        if (t < memo.values.length && memo.values[t] != null && memo.versions[t] == type.valuesVersion()) {
            return memo.values[t];
        }
        PajeValue v = type.value(table.string(slot));
        if (t >= memo.values.length) {
            memo.values = java.util.Arrays.copyOf(memo.values, t + 1);
            memo.versions = java.util.Arrays.copyOf(memo.versions, t + 1);
        }
        memo.values[t] = v;
        memo.versions[t] = type.valuesVersion();
        return v;
    }

    /**
     * What one value text was resolved to, per type (by {@link PajeType#slot}); an entry is valid while its type
     * declares no further values.
     */
    private static final class ValuesByType {
        PajeValue[] values = new PajeValue[0];
        int[] versions = new int[0];
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

    private void event(EventDefinition def, byte[] buf) {
        PajeEventKind kind = def.kind();
        switch (kind) {
            case DEFINE_CONTAINER_TYPE, DEFINE_EVENT_TYPE, DEFINE_STATE_TYPE, DEFINE_VARIABLE_TYPE -> {
                String name = str(buf, def, def.index(Field.NAME));
                String alias = def.index(Field.ALIAS) >= 0 ? str(buf, def, def.index(Field.ALIAS)) : name;
                PajeType parent = parentType(str(buf, def, def.index(Field.TYPE)));
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
                String name = str(buf, def, def.index(Field.NAME));
                String alias = def.index(Field.ALIAS) >= 0 ? str(buf, def, def.index(Field.ALIAS)) : name;
                PajeType parent = parentType(str(buf, def, def.index(Field.TYPE)));
                PajeType from = parentType(str(buf, def, def.index(Field.START_CONTAINER_TYPE)));
                PajeType to = parentType(str(buf, def, def.index(Field.END_CONTAINER_TYPE)));
                defineType(new PajeType(typeList.size(), PajeType.Kind.LINK, alias, name, parent, from, to));
            }
            case DEFINE_ENTITY_VALUE -> {
                PajeType type = type(buf, def, null);
                String name = str(buf, def, def.index(Field.NAME));
                String alias = def.index(Field.ALIAS) >= 0 ? str(buf, def, def.index(Field.ALIAS)) : name;
                String color = def.index(Field.COLOR) >= 0 ? str(buf, def, def.index(Field.COLOR)) : null;
                PajeValue v = new PajeValue(alias, name, color, true);
                type.addValue(v);
                listener.value(type, v);
            }
            case CREATE_CONTAINER -> {
                long t = time(buf, def);
                String name = str(buf, def, def.index(Field.NAME));
                String alias = def.index(Field.ALIAS) >= 0 ? str(buf, def, def.index(Field.ALIAS)) : name;
                PajeType type = type(buf, def, PajeType.Kind.CONTAINER);
                String parentText = str(buf, def, def.index(Field.CONTAINER));
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
                long t = time(buf, def);
                PajeContainer c = container(buf, def, def.index(Field.NAME));
                if (c.isDestroyed()) {
                    throw new IllegalArgumentException("container '" + c.alias() + "' destroyed twice");
                }
                c.destroy(t);
            }
            case NEW_EVENT -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.EVENT);
                PajeContainer c = container(buf, def);
                PajeValue v = value(buf, def, type);
                listener.event(new PajeEvent(c, type, t, v, def, extras(buf, def), lineNo));
            }
            case SET_STATE, PUSH_STATE, POP_STATE, RESET_STATE -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.STATE);
                PajeContainer c = container(buf, def);
                PajeValue v = def.index(Field.VALUE) >= 0 ? value(buf, def, type) : null;
                byte op = switch (kind) {
                    case SET_STATE -> StateBuffer.SET;
                    case PUSH_STATE -> StateBuffer.PUSH;
                    case POP_STATE -> StateBuffer.POP;
                    default -> StateBuffer.RESET;
                };
                StateBuffer sb = buffer(c, type, StateBuffer.class);
                String[] x = extras(buf, def);
                sb.add(t, lineNo, op, v, def.extraIndex().length == 0 ? null : def, x);
                bufferedOps++;
                bufferedBytes += stateBytes(x);
            }
            case SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.VARIABLE);
                PajeContainer c = container(buf, def);
                int f = def.index(Field.VALUE);
                double value;
                try {
                    value = decimals.toDouble(buf, fs[f], fe[f] - fs[f]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad variable value '" + text(buf, fs[f], fe[f]) + "'");
                }
                byte op = kind == PajeEventKind.SET_VARIABLE ? VariableBuffer.SET
                        : kind == PajeEventKind.ADD_VARIABLE ? VariableBuffer.ADD : VariableBuffer.SUB;
                buffer(c, type, VariableBuffer.class).add(t, lineNo, op, value);
                bufferedOps++;
                bufferedBytes += VARIABLE_BYTES;
            }
            case START_LINK, END_LINK -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.LINK);
                PajeContainer c = container(buf, def);
                boolean start = kind == PajeEventKind.START_LINK;
                PajeContainer end = container(buf, def, def.index(start ? Field.START_CONTAINER
                        : Field.END_CONTAINER));
                String value = def.index(Field.VALUE) >= 0 ? str(buf, def, def.index(Field.VALUE)) : null;
                String key = str(buf, def, def.index(Field.KEY));
                String k = type.alias() + '\u0000' + key;
                Object[] half = {t, end, value, lineNo, c};
                Map<String, ArrayDeque<Object[]>> other = start ? pendingLinkEnds : pendingLinkStarts;
                ArrayDeque<Object[]> q = other.get(k);
                if (q != null && !q.isEmpty()) {
                    Object[] o = q.poll();
                    if (q.isEmpty()) {
                        other.remove(k);
                    }
                    emitLink(type, key, start ? half : o, start ? o : half);
                } else {
                    (start ? pendingLinkStarts : pendingLinkEnds).computeIfAbsent(k, x -> new ArrayDeque<>())
                            .add(half);
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
        for (ArrayDeque<Object[]> q : pendingLinkEnds.values()) {
            for (Object[] o : q) {
                listener.problem("link end without start", (Long) o[3], "key never started");
            }
        }
        for (ArrayDeque<Object[]> q : pendingLinkStarts.values()) {
            for (Object[] o : q) {
                listener.problem("link start without end", (Long) o[3], "key never ended");
            }
        }
        listener.end(minTime == Long.MAX_VALUE ? 0 : minTime, end);
    }

    private void replayStates(PajeContainer c, PajeType type, StateBuffer b, long traceEnd) {
        StateBuffer.Ops ops = b.runs.isEmpty() ? b.cursor() : spill.merged(b);
        long close = c.isDestroyed() ? c.destroyed() : traceEnd;
        // The open states, bottom first: entry k is the state opened at depth k.
        StateBuffer stack = new StateBuffer();
        int top = 0;
        while (ops.next()) {
            long t = ops.time();
            if (c.isDestroyed() && t > c.destroyed()) {
                listener.problem("state change after its container was destroyed", ops.line(),
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
                        listener.problem("pop without push", ops.line(), c.alias() + " " + type.alias());
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
