package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The per-dispatch counters of a store (raw and derived), time independent (spec §2.2): a table per kernel name
 * with count, mean, min and max of each counter, the per-dispatch drill-down, the step series per device, and
 * which counted kernels overlapped another kernel on their device.
 */
public final class KernelCounters {
    /** One counted dispatch. */
    public record Dispatch(long sliceId, String kernel, long ts, long end, Long device, Map<String, Double> values) {}

    private final List<Dispatch> dispatches = new ArrayList<>();
    private final Set<String> rawNames = new LinkedHashSet<>();
    private final List<CounterExpression> derived = new ArrayList<>();
    private final Set<String> warnings = new LinkedHashSet<>();

    public KernelCounters(List<Dispatch> dispatches) {
        this.dispatches.addAll(dispatches);
        for (Dispatch d : dispatches) {
            rawNames.addAll(d.values().keySet());
        }
    }

    public static KernelCounters load(Store store) {
        Map<Long, Dispatch> byId = new LinkedHashMap<>();
        String sql = "SELECT s.id, s.name, s.ts, s.ts + s.dur, COALESCE(k.device_id, t.device_id), c.name, c.value "
                + "FROM kernel_counter c JOIN slice s ON s.id = c.slice_id JOIN track t ON t.id = s.track_id "
                + "LEFT JOIN kernel k ON k.slice_id = s.id ORDER BY s.ts, s.id";
        for (Object[] r : store.query(sql).rows()) {
            long id = (Long) r[0];
            Dispatch d = byId.computeIfAbsent(id, k -> new Dispatch(id, (String) r[1], (Long) r[2], (Long) r[3],
                    (Long) r[4], new LinkedHashMap<>()));
            d.values().put((String) r[5], r[6] == null ? Double.NaN : ((Number) r[6]).doubleValue());
        }
        return new KernelCounters(new ArrayList<>(byId.values()));
    }

    public Set<String> rawNames() {
        return rawNames;
    }

    public List<Dispatch> dispatches() {
        return dispatches;
    }

    /** Adds a derived counter {@code NAME=EXPRESSION}; unknown names are rejected here, at load time. */
    public CounterExpression derive(String definition) {
        Set<String> known = new LinkedHashSet<>(rawNames);
        derived.forEach(d -> known.add(d.name()));
        CounterExpression e = CounterExpression.parseDefinition(definition, known);
        derived.add(e);
        for (Dispatch d : dispatches) {
            d.values().put(e.name(), e.evaluate(d.values(), warnings::add));
        }
        return e;
    }

    public Collection<String> warnings() {
        return warnings;
    }

    public List<String> counterNames() {
        List<String> names = new ArrayList<>(rawNames);
        derived.forEach(d -> names.add(d.name()));
        return names;
    }

    /** One row per (kernel name, counter): count, mean, min, max over dispatches (NaN values left out). */
    public Table perKernel() {
        Table.Builder t = Table.builder("Counters per kernel", "kernel", "counter", "dispatches", "mean", "min",
                "max");
        Map<String, List<Dispatch>> byName = new TreeMap<>();
        dispatches.forEach(d -> byName.computeIfAbsent(d.kernel(), k -> new ArrayList<>()).add(d));
        for (Map.Entry<String, List<Dispatch>> e : byName.entrySet()) {
            for (String c : counterNames()) {
                long n = 0;
                double sum = 0;
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (Dispatch d : e.getValue()) {
                    Double v = d.values().get(c);
                    if (v == null || v.isNaN()) {
                        continue;
                    }
                    n++;
                    sum += v;
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                if (n > 0) {
                    t.row(e.getKey(), c, n, sum / n, min, max);
                }
            }
        }
        return t.build();
    }

    /** The drill-down: one row per dispatch with its exact values. */
    public Table perDispatch() {
        List<String> names = counterNames();
        List<String> cols = new ArrayList<>(List.of("slice_id", "kernel", "ts", "dur_ns", "overlapped"));
        cols.addAll(names);
        Set<Long> overlapped = overlapped();
        List<Object[]> rows = new ArrayList<>();
        for (Dispatch d : dispatches) {
            Object[] row = new Object[cols.size()];
            row[0] = d.sliceId();
            row[1] = d.kernel();
            row[2] = d.ts();
            row[3] = d.end() - d.ts();
            row[4] = overlapped.contains(d.sliceId());
            for (int i = 0; i < names.size(); i++) {
                row[5 + i] = d.values().get(names.get(i));
            }
            rows.add(row);
        }
        return new Table("Counters per dispatch", cols, rows);
    }

    /**
     * Counted kernels that overlapped another counted kernel on the same device: device-wide counters cannot
     * be attributed to one of them (spec §1.2).
     */
    public Set<Long> overlapped() {
        Map<Long, List<Dispatch>> byDevice = new LinkedHashMap<>();
        dispatches.forEach(d -> byDevice.computeIfAbsent(d.device() == null ? -1L : d.device(),
                k -> new ArrayList<>()).add(d));
        Set<Long> out = new LinkedHashSet<>();
        for (List<Dispatch> ds : byDevice.values()) {
            List<Dispatch> sorted = new ArrayList<>(ds);
            sorted.sort((a, b) -> Long.compare(a.ts(), b.ts()));
            long maxEnd = Long.MIN_VALUE;
            Dispatch holder = null;
            for (Dispatch d : sorted) {
                if (holder != null && d.ts() < maxEnd) {
                    out.add(d.sliceId());
                    out.add(holder.sliceId());
                }
                if (d.end() > maxEnd) {
                    maxEnd = d.end();
                    holder = d;
                }
            }
        }
        return out;
    }

    /**
     * The step series of one counter per device (spec §2.2): the value of kernel k holds from end(k) to the next
     * kernel end on that device; {@code scaled} divides by the largest value in [w0, w1).
     */
    public Table series(String counter, long w0, long w1) {
        Table.Builder t = Table.builder("Counter series " + counter, "device", "ts", "value", "scaled", "kernel");
        Map<Long, List<Dispatch>> byDevice = new TreeMap<>();
        dispatches.forEach(d -> byDevice.computeIfAbsent(d.device() == null ? -1L : d.device(),
                k -> new ArrayList<>()).add(d));
        for (Map.Entry<Long, List<Dispatch>> e : byDevice.entrySet()) {
            List<Dispatch> ds = new ArrayList<>(e.getValue());
            ds.sort((a, b) -> a.end() != b.end() ? Long.compare(a.end(), b.end()) : Long.compare(a.sliceId(),
                    b.sliceId()));
            double max = 0;
            for (int i = 0; i < ds.size(); i++) {
                Double v = ds.get(i).values().get(counter);
                long from = ds.get(i).end();
                long to = i + 1 < ds.size() ? ds.get(i + 1).end() : Long.MAX_VALUE;
                if (v != null && !v.isNaN() && from < w1 && to > w0) {
                    max = Math.max(max, Math.abs(v));
                }
            }
            for (Dispatch d : ds) {
                Double v = d.values().get(counter);
                if (v == null || d.end() >= w1) {
                    continue;
                }
                t.row(e.getKey(), d.end(), v, max == 0 ? null : v / max, d.kernel());
            }
        }
        return t.build();
    }
}
