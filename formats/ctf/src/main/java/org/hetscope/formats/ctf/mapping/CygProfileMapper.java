package org.hetscope.formats.ctf.mapping;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.SkipTally;
import org.hetscope.model.SliceStack;
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
    private final SkipTally skips = new SkipTally();
    /** Open calls per thread: {addr, ts, call_site}. */
    private final SliceStack<String, long[]> stacks = new SliceStack<>(skips, "func_entry", "func_exit");
    private final Map<String, Long> trackOf = new HashMap<>();

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
        if (!trackOf.containsKey(key)) {
            trackOf.put(key, tracks.threadTrack(pkey, tid, e.contextString("procname")));
        }
        long ts = e.timestampNs();
        if (entry) {
            stacks.begin(key, new long[] {e.getLong("addr"), ts, e.getLong("call_site", 0)});
        } else {
            long[] f = stacks.end(key);
            if (f == null) {
                stacks.unmatchedEnd(e.streamFile() + " at " + ts + " ns");
            } else {
                emit(trackOf.get(key), f, ts, stacks.depth(key), true);
            }
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
        stacks.closeAll((key, f, depth) -> emit(trackOf.get(key), f, endNs, depth, false), "end of trace");
        skips.flushTo(tracks.sink);
    }
}
