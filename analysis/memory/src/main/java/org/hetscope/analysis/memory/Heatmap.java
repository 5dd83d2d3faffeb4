package org.hetscope.analysis.memory;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.hetscope.store.Table;

/**
 * Total presence time of every block on every memory node, normalised as chosen:
 * <ul>
 *   <li>{@code ABSOLUTE}: milliseconds present;</li>
 *   <li>{@code LIFETIME} (default): presence / (unregister − register) of the block;</li>
 *   <li>{@code RUN}: presence clipped to the run / the run's length; the run is the library's
 *       {@code hs_utilisation_window} (for StarPU, first task start to last task end);</li>
 *   <li>{@code FACET_MAX}: presence / the largest presence on the same node.</li>
 * </ul>
 * The table says which normalisation it used in its title and in the {@code normalisation} column.
 */
public final class Heatmap {
    /** How presence times are scaled. */
    public enum Normalisation { ABSOLUTE, LIFETIME, RUN, FACET_MAX;

        public static Normalisation parse(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    private Heatmap() {}

    public static Table of(MemoryTrace m, Normalisation norm) {
        long runStart = m.runStart;
        long runEnd = m.runEnd;
        Map<String, Long> presence = new java.util.LinkedHashMap<>();
        Map<String, Long> presenceRun = new HashMap<>();
        for (MemoryTrace.Block b : m.blocks.values()) {
            for (MemoryTrace.Node n : m.nodes.values()) {
                presence.put(b.id() + "/" + n.id(), 0L);
                presenceRun.put(b.id() + "/" + n.id(), 0L);
            }
        }
        for (MemoryTrace.Interval iv : m.residency) {
            String k = iv.blockId() + "/" + iv.nodeId();
            presence.merge(k, iv.end() - iv.ts(), Long::sum);
            presenceRun.merge(k, Intervals.overlap(iv.ts(), iv.end(), runStart, runEnd), Long::sum);
        }
        Map<Long, Long> facetMax = new HashMap<>();
        presence.forEach((k, v) -> facetMax.merge(Long.parseLong(k.split("/")[1]), v, Math::max));
        Table.Builder t = Table.builder("Presence heatmap, normalisation " + norm + " ("
                + describe(norm) + ")", "node", "block", "handle", "coordinates", "present_ns", "value",
                "normalisation");
        for (var e : presence.entrySet()) {
            String[] k = e.getKey().split("/");
            long block = Long.parseLong(k[0]);
            long node = Long.parseLong(k[1]);
            long ns = e.getValue();
            Double value = switch (norm) {
                case ABSOLUTE -> ns / 1e6;
                case LIFETIME -> {
                    Long[] life = m.lifetime.get(block);
                    long from = life != null && life[0] != null ? life[0] : m.traceStart;
                    long to = life != null && life[1] != null ? life[1] : m.traceEnd;
                    yield to > from ? (double) ns / (to - from) : null;
                }
                case RUN -> runEnd > runStart ? (double) presenceRun.get(e.getKey()) / (runEnd - runStart) : null;
                case FACET_MAX -> facetMax.get(node) > 0 ? (double) ns / facetMax.get(node) : 0.0;
            };
            MemoryTrace.Block b = m.blocks.get(block);
            t.row(m.nodeName(node), b.label(), b.handle(), b.coordinates(), ns, value, norm.name());
        }
        return t.build();
    }

    public static String describe(Normalisation n) {
        return switch (n) {
            case ABSOLUTE -> "milliseconds present";
            case LIFETIME -> "presence / (unregister - register) of the block";
            case RUN -> "presence within [first task start, last task end] / that span";
            case FACET_MAX -> "presence / largest presence on the same node";
        };
    }
}
