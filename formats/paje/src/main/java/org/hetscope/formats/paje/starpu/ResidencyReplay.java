package org.hetscope.formats.paje.starpu;

import org.hetscope.model.SkipReason;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.paje.PajeListener;

/**
 * Builds residency intervals from StarPU's MSI events, replayed in time order per (handle, memory node):
 * {@code SO}/{@code SS} open an interval in that state (a change between them closes one and opens the next),
 * {@code SI} closes it. Open intervals close at the handle's next {@code unregister}, else at the trace end.
 * Before the first MSI event of a (handle, node) the state is unknown and counts as absent.
 *
 * <p>The replay keeps the problems it meets until {@link #reportProblems} hands them on, after those of the manager
 * actions and the tasks.
 */
final class ResidencyReplay {
    private final long traceEnd;
    private final Map<String, List<Long>> unregisters;
    private final List<Problem> problems = new ArrayList<>();

    private record Problem(SkipReason reason, String what, long line, String detail) {
    }

    ResidencyReplay(long traceEnd, Map<String, List<Long>> unregisters) {
        this.traceEnd = traceEnd;
        this.unregisters = unregisters;
    }

    /** Tells {@code listener} the problems the replay met, in the order it met them. */
    void reportProblems(PajeListener listener) {
        for (Problem p : problems) {
            listener.problem(p.reason(), p.what(), p.line(), p.detail());
        }
    }

    private static final class Open {
        String state;
        long since;
        long block;
        long node;
    }

    /** The intervals, sorted by (block, node, start); the caller closes them. */
    Residencies replay(Iterable<StarpuImport.MemEvent> sortedMsi, Map<String, Long> blocks,
                       Map<Integer, Long> nodeIds) {
        Residencies out = new Residencies();
        Map<String, Map<Integer, Open>> open = new HashMap<>();
        for (StarpuImport.MemEvent e : sortedMsi) {
            Long block = blocks.get(e.handle());
            Long node = nodeIds.get(e.node());
            if (block == null || node == null) {
                problems.add(new Problem(SkipReason.UNKNOWN_REFERENCE,
                        "MSI event for an unknown handle or memory node", e.line(),
                        e.type() + " " + e.handle()));
                continue;
            }
            Open o = open.computeIfAbsent(e.handle(), k -> new HashMap<>()).computeIfAbsent(e.node(), k -> {
                Open x = new Open();
                x.block = block;
                x.node = node;
                return x;
            });
            if (o.state != null) {
                Long u = unregisterIn(e.handle(), o.since, e.time());
                if (u != null) {
                    out.add(block, node, o.since, u - o.since, o.state);
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
                    out.add(block, node, o.since, e.time() - o.since, o.state);
                }
                o.state = next;
                o.since = e.time();
            }
        }
        for (var perHandle : open.entrySet()) {
            for (Open o : perHandle.getValue().values()) {
                if (o.state == null) {
                    continue;
                }
                Long u = unregisterIn(perHandle.getKey(), o.since, Long.MAX_VALUE);
                long end = u != null ? u : Math.max(traceEnd, o.since);
                out.add(o.block, o.node, o.since, end - o.since, o.state);
            }
        }
        out.sort();
        return out;
    }

    /** The first unregister of the handle in [from, to), or null. */
    private Long unregisterIn(String handle, long from, long to) {
        long[] us = sortedUnregisters.computeIfAbsent(handle, h -> {
            List<Long> l = unregisters.get(h);
            return l == null ? new long[0] : l.stream().mapToLong(Long::longValue).sorted().toArray();
        });
        int i = java.util.Arrays.binarySearch(us, from);
        if (i < 0) {
            i = -i - 1;
        } else {
            while (i > 0 && us[i - 1] == from) {
                i--;
            }
        }
        return i < us.length && us[i] < to ? us[i] : null;
    }

    private final Map<String, long[]> sortedUnregisters = new HashMap<>();
}
