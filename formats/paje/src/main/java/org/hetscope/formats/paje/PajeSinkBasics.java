package org.hetscope.formats.paje;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Entity;
import org.hetscope.model.Instant;
import org.hetscope.model.JsonText;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * The generic part of putting Paje onto the model, shared by every dialect: containers become tracks, states
 * slices, events instants, variables counter tracks, links rows of {@code paje_link}.
 */
public final class PajeSinkBasics {
    public static final PajeTables.Link LINK_TABLE = PajeTables.LINK;
    public static final PajeTables.EntityValue VALUE_TABLE = PajeTables.ENTITY_VALUE;

    /** Where problems go: reason, what (the skip detail), line, detail (with the location). */
    public interface Problems {
        void add(SkipReason reason, String what, long line, String detail);
    }

    private final Path file;
    private final TraceSink sink;
    private final Problems problems;
    /** Containers (under their parent's track) and their variables' counter tracks. */
    private final TrackTree tracks;
    private long processId = -1;
    private boolean linkTable;
    private int sortIndex;

    public PajeSinkBasics(Path file, TraceSink sink, Problems problems) {
        this.file = file;
        this.sink = sink;
        this.problems = problems;
        this.tracks = new TrackTree(sink);
    }

    /** Emits the track of a container (and a process or thread record for those kinds); returns its id. */
    public long track(PajeContainer c, TrackKind kind) {
        return track(c, kind, null);
    }

    /** As {@link #track(PajeContainer, TrackKind)}, for a container that is (or runs on) the device {@code deviceId}. */
    public long track(PajeContainer c, TrackKind kind, Long deviceId) {
        TrackTree.Node parent = c.parent() == null || c.parent().userId < 0 ? null : tracks.node(c.parent().userId);
        c.userId = tracks.track(parent, kind, c, n -> {
            Long pid = null;
            Long tid = null;
            if (kind == TrackKind.PROCESS) {
                processId = sink.newId(Entity.PROCESS);
                sink.process(new TraceProcess(processId, processId, c.name()));
                pid = processId;
            } else if (kind == TrackKind.THREAD) {
                long t = sink.newId(Entity.THREAD);
                long osTid = digits(c.alias());
                if (processId < 0) {
                    processId = sink.newId(Entity.PROCESS);
                    sink.process(new TraceProcess(processId, processId, "process"));
                }
                sink.thread(new TraceThread(t, osTid < 0 ? t : osTid, processId, c.name()));
                tid = t;
                pid = processId;
            }
            // only a process or thread container names one: the containers inside a process do not inherit it
            n.name(c.name()).process(pid).thread(tid).device(deviceId).sortIndex(sortIndex++);
        }).id();
        return c.userId;
    }

    private static long digits(String s) {
        String d = s.replaceAll("\\D", "");
        try {
            return d.isEmpty() ? -1 : Long.parseLong(d);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static final String VALUE_KEY = JsonText.encodeKey("value");
    private final JsonText json = new JsonText();
    /** The encoded JSON keys of each definition's extra fields, and the last definition asked for (runs repeat it). */
    private final Map<EventDefinition, String[]> jsonKeys = new IdentityHashMap<>();
    private EventDefinition lastDefinition;
    private String[] lastKeys;

    private String[] jsonKeys(EventDefinition def) {
        if (def != lastDefinition) {
            lastKeys = jsonKeys.computeIfAbsent(def,
                    d -> Arrays.stream(d.extraNames()).map(JsonText::encodeKey).toArray(String[]::new));
            lastDefinition = def;
        }
        return lastKeys;
    }

    /** The extra fields of a record as a JSON object text, or null when there are none. */
    public String argsJson(EventDefinition def, String[] extras) {
        if (def == null || extras == null || extras.length == 0) {
            return null;
        }
        json.reset();
        String[] keys = jsonKeys(def);
        for (int i = 0; i < extras.length; i++) {
            json.putEncoded(keys[i], extras[i]);
        }
        return json.toString();
    }

    public void state(PajeState s) {
        sink.slice(new Slice(sink.newId(Entity.SLICE), s.container().userId, s.start(), s.end() - s.start(),
                s.value().name(), Category.STATE, s.type().name(), s.depth(), null,
                argsJson(s.definition(), s.extras())));
    }

    public void event(PajeEvent e) {
        json.reset().putEncoded(VALUE_KEY, e.value().name());
        if (e.extras() != null) {
            String[] keys = jsonKeys(e.definition());
            for (int i = 0; i < keys.length; i++) {
                json.putEncoded(keys[i], e.extras()[i]);
            }
        }
        sink.instant(new Instant(sink.newId(Entity.INSTANT), e.container().userId, e.time(), e.type().name(),
                Category.MARKER, e.type().alias(), json.toString()));
    }

    public void variable(PajeContainer c, PajeType type, long time, double value) {
        long track = tracks.node(c.userId).child(TrackKind.COUNTER, type, n -> n.name(type.name()).process(null)
                .thread(null).device(null).sortIndex(sortIndex++).unit(unitOf(type.name()))).id();
        sink.counter(new CounterSample(track, time, value));
    }

    /** The unit written in parentheses at the end of a variable's name ({@code "Used (MB)"} gives MB). */
    static String unitOf(String name) {
        int open = name.lastIndexOf('(');
        int close = name.lastIndexOf(')');
        return open >= 0 && close > open ? name.substring(open + 1, close) : null;
    }

    public void link(PajeLink l) {
        if (!linkTable) {
            sink.defineTable(LINK_TABLE);
            linkTable = true;
        }
        long dur = l.end() - l.start();
        if (dur < 0) {
            problems.add(SkipReason.ENDS_BEFORE_START, "link", l.endLine(), l.key());
        }
        sink.row(LINK_TABLE, l.type().alias(), l.type().name(), l.container().userId, l.startContainer().userId,
                l.endContainer().userId, l.start(), dur, l.value(), l.key());
    }

    /** Records a declared entity value with its name and colour in {@code paje_entity_value}. */
    public void value(PajeType type, PajeValue v) {
        if (!valueTable) {
            sink.defineTable(VALUE_TABLE);
            valueTable = true;
        }
        sink.row(VALUE_TABLE, type.alias(), type.name(), v.alias(), v.name(), v.color());
    }

    private boolean valueTable;

    /** Records the reader's counts in trace_info. */
    public void info(PajeReader reader) {
        sink.info("paje.file", file.toString());
        sink.info("paje.lines", Long.toString(reader.lines()));
        if (reader.roundedTimes() > 0) {
            problems.add(SkipReason.ROUNDED_TIME, null, reader.firstRoundedLine(),
                    reader.roundedTimes() + " times");
        }
        reader.counts().forEach((k, v) -> sink.info("paje.count." + k.pajeName(), Long.toString(v)));
    }
}
