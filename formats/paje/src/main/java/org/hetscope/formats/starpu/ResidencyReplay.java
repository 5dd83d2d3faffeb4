package org.hetscope.formats.starpu;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.paje.PajeListener;
import org.hetscope.model.Residency;

/**
 * Builds residency intervals from StarPU's MSI events, replayed in time order per (handle, memory node):
 * {@code SO}/{@code SS} open an interval in that state (a change between them closes one and opens the next),
 * {@code SI} closes it. Open intervals close at the handle's next {@code unregister}, else at the trace end.
 * Before the first MSI event of a (handle, node) the state is unknown and counts as absent.
 */
final class ResidencyReplay {
    private final PajeListener problems;
    private final long traceEnd;
    private final Map<String, List<Long>> unregisters;

    ResidencyReplay(PajeListener problems, long traceEnd, Map<String, List<Long>> unregisters) {
        this.problems = problems;
        this.traceEnd = traceEnd;
        this.unregisters = unregisters;
    }

    private static final class Open {
        String state;
        long since;
    }

    List<Residency> replay(List<StarpuImport.MemEvent> sortedMsi, Map<String, Long> blocks,
                           Map<Integer, Long> nodeIds) {
        List<Residency> out = new ArrayList<>();
        Map<String, Open> open = new HashMap<>();
        Map<String, long[]> keyIds = new HashMap<>();
        for (StarpuImport.MemEvent e : sortedMsi) {
            Long block = blocks.get(e.handle());
            Long node = nodeIds.get(e.node());
            if (block == null || node == null) {
                problems.problem("MSI event for an unknown handle or memory node", e.line(),
                        e.type() + " " + e.handle());
                continue;
            }
            String key = e.handle() + '@' + e.node();
            keyIds.putIfAbsent(key, new long[] {block, node});
            Open o = open.computeIfAbsent(key, k -> new Open());
            if (o.state != null) {
                Long u = unregisterIn(e.handle(), o.since, e.time());
                if (u != null) {
                    out.add(new Residency(block, node, o.since, u - o.since, o.state));
                    o.state = null;
                }
            }
            String next = switch (e.type()) {
                case "SO" -> "owner";
                case "SS" -> "shared";
                case "SI" -> null;
                default -> o.state;
            };
            if (e.type().equals("WU")) {
                continue;
            }
            if (next == null ? o.state != null : !next.equals(o.state)) {
                if (o.state != null) {
                    out.add(new Residency(block, node, o.since, e.time() - o.since, o.state));
                }
                o.state = next;
                o.since = e.time();
            }
        }
        for (var en : open.entrySet()) {
            Open o = en.getValue();
            if (o.state == null) {
                continue;
            }
            long[] ids = keyIds.get(en.getKey());
            String handle = en.getKey().substring(0, en.getKey().lastIndexOf('@'));
            Long u = unregisterIn(handle, o.since, Long.MAX_VALUE);
            long end = u != null ? u : Math.max(traceEnd, o.since);
            out.add(new Residency(ids[0], ids[1], o.since, end - o.since, o.state));
        }
        out.sort(java.util.Comparator.comparingLong(Residency::blockId).thenComparingLong(Residency::nodeId)
                .thenComparingLong(Residency::ts));
        return out;
    }

    /** The first unregister of the handle in [from, to), or null. */
    private Long unregisterIn(String handle, long from, long to) {
        List<Long> us = unregisters.get(handle);
        if (us == null) {
            return null;
        }
        Long best = null;
        for (long u : us) {
            if (u >= from && u < to && (best == null || u < best)) {
                best = u;
            }
        }
        return best;
    }
}
