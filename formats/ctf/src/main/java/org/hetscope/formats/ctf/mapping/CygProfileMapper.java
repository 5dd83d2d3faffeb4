package org.hetscope.formats.ctf.mapping;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;

/**
 * {@code lttng_ust_cyg_profile[_fast]:func_entry/func_exit}: a call stack per thread, one slice per call,
 * named through a symbol map when one is found ({@link SymbolMap}), else by address.
 */
final class CygProfileMapper implements EventMapper {
    private final TrackRegistry tracks;
    private final SymbolMap symbols;
    private final Map<String, ArrayDeque<long[]>> stacks = new HashMap<>();
    private final Map<String, Long> trackOf = new HashMap<>();
    private long unmatchedExits;
    private String firstUnmatched;

    CygProfileMapper(TrackRegistry tracks, SymbolMap symbols) {
        this.tracks = tracks;
        this.symbols = symbols;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        if (!name.startsWith("lttng_ust_cyg_profile")) {
            return false;
        }
        boolean entry = name.endsWith(":func_entry");
        if (!entry && !name.endsWith(":func_exit")) {
            return false;
        }
        String pkey = TrackRegistry.processKey(e);
        long tid = e.contextLong("vtid", e.contextLong("tid", -1));
        String key = pkey + "/" + tid;
        ArrayDeque<long[]> stack = stacks.computeIfAbsent(key, k -> new ArrayDeque<>());
        if (!trackOf.containsKey(key)) {
            trackOf.put(key, tracks.threadTrack(pkey, tid, e.contextString("procname")));
        }
        long ts = e.timestampNs();
        if (entry) {
            stack.push(new long[] {e.getLong("addr"), ts, e.getLong("call_site", 0)});
        } else if (stack.isEmpty()) {
            if (unmatchedExits++ == 0) {
                firstUnmatched = e.streamFile() + " at " + ts + " ns";
            }
        } else {
            long[] f = stack.pop();
            emit(trackOf.get(key), f, ts, stack.size(), true);
        }
        return true;
    }

    private void emit(long track, long[] f, long end, int depth, boolean closed) {
        String sym = symbols == null ? null : symbols.name(f[0]);
        String name = sym != null ? sym : "0x" + Long.toHexString(f[0]);
        String args = "{\"addr\":\"0x" + Long.toHexString(f[0]) + "\"" + (f[2] != 0 ? ",\"call_site\":\"0x"
                + Long.toHexString(f[2]) + "\"" : "") + (closed ? "" : ",\"unfinished\":true") + "}";
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), track, f[1], Math.max(0, end - f[1]), name,
                Category.CPU_OP, "cyg_profile", depth, null, args));
    }

    @Override
    public void finish(long endNs) {
        long open = 0;
        for (Map.Entry<String, ArrayDeque<long[]>> en : stacks.entrySet()) {
            ArrayDeque<long[]> s = en.getValue();
            while (!s.isEmpty()) {
                long[] f = s.pop();
                open++;
                emit(trackOf.get(en.getKey()), f, endNs, s.size(), false);
            }
        }
        if (open > 0) {
            tracks.sink.skipped(SkipReason.UNENDED_SLICE, "func_entry", "end of trace", open);
        }
        if (unmatchedExits > 0) {
            tracks.sink.skipped(SkipReason.UNMATCHED_END, "func_exit", firstUnmatched, unmatchedExits);
        }
    }
}
