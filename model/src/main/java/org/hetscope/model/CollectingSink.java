package org.hetscope.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sink that keeps every record in lists: the in-memory form of the model, for tests and small traces.
 */
public class CollectingSink implements TraceSink {
    /** Last id handed out per entity, by ordinal: an array, not a map, as every record takes an id. */
    private final long[] nextIds = new long[Entity.values().length];
    public final List<TraceProcess> processes = new ArrayList<>();
    public final List<TraceThread> threads = new ArrayList<>();
    public final List<Device> devices = new ArrayList<>();
    public final List<Track> tracks = new ArrayList<>();
    public final List<Slice> slices = new ArrayList<>();
    public final List<Instant> instants = new ArrayList<>();
    public final List<CounterSample> counters = new ArrayList<>();
    public final List<Flow> flows = new ArrayList<>();
    public final List<KernelLaunch> kernels = new ArrayList<>();
    public final List<KernelCounter> kernelCounters = new ArrayList<>();
    public final List<Transfer> transfers = new ArrayList<>();
    public final List<MemoryNode> memoryNodes = new ArrayList<>();
    public final List<MemoryBlock> memoryBlocks = new ArrayList<>();
    public final List<Residency> residencies = new ArrayList<>();
    public final List<Task> tasks = new ArrayList<>();
    public final List<TaskAccess> taskAccesses = new ArrayList<>();
    public final List<TaskDependency> taskDependencies = new ArrayList<>();
    public final Map<String, String> info = new LinkedHashMap<>();
    /** Tables declared with {@link #defineTable}, by name. */
    public final Map<String, TableSpec> extraTables = new LinkedHashMap<>();
    /** Rows of the tables declared with {@link #defineTable}. */
    public final Map<String, List<Object[]>> extraRows = new LinkedHashMap<>();
    /** Statements given to {@link #derive}, in order (not run: there is no database here). */
    public final List<String> derived = new ArrayList<>();
    /** Skipped items: {@link #key} of (reason, detail) to count. */
    public final Map<String, Long> skipped = new LinkedHashMap<>();
    /** Skipped items with their first locations. */
    public final SkipTally skips = new SkipTally();

    @Override
    public long newId(Entity entity) {
        return ++nextIds[entity.ordinal()];
    }

    @Override public void process(TraceProcess p) { processes.add(p); }
    @Override public void thread(TraceThread t) { threads.add(t); }
    @Override public void device(Device d) { devices.add(d); }
    @Override public void track(Track t) { tracks.add(t); }
    @Override public void slice(Slice s) { slices.add(s); }
    @Override public void instant(Instant i) { instants.add(i); }
    @Override public void counter(CounterSample c) { counters.add(c); }
    @Override public void flow(Flow f) { flows.add(f); }
    @Override public void kernel(KernelLaunch k) { kernels.add(k); }
    @Override public void kernelCounter(KernelCounter c) { kernelCounters.add(c); }
    @Override public void transfer(Transfer t) { transfers.add(t); }
    @Override public void memoryNode(MemoryNode n) { memoryNodes.add(n); }
    @Override public void memoryBlock(MemoryBlock b) { memoryBlocks.add(b); }
    @Override public void residency(Residency r) { residencies.add(r); }
    @Override public void task(Task t) { tasks.add(t); }
    @Override public void taskAccess(TaskAccess a) { taskAccesses.add(a); }
    @Override public void taskDependency(TaskDependency d) { taskDependencies.add(d); }
    @Override
    public void defineTable(TableSpec table) {
        TableSpec old = extraTables.putIfAbsent(table.name(), table);
        if (old != null && !old.sameShape(table)) {
            throw new IllegalArgumentException("table " + table.name() + " already declared as " + old.ddl());
        }
        extraRows.putIfAbsent(table.name(), new ArrayList<>());
    }

    @Override
    public void row(TableSpec table, Object... values) {
        List<Object[]> rows = extraRows.get(table.name());
        if (rows == null) {
            throw new IllegalArgumentException("table " + table.name() + " was not declared");
        }
        if (values.length != table.width()) {
            throw new IllegalArgumentException(table.name() + ": row has " + values.length + " values for "
                    + table.width() + " columns");
        }
        rows.add(values.clone());
    }

    @Override public void info(String key, String value) { info.put(key, value); }
    @Override public void derive(String sql) { derived.add(sql); }

    @Override
    public void skipped(SkipReason reason, String detail, String where, long count) {
        skips.add(reason, detail, where, count);
        if (count > 0) {
            skipped.merge(key(reason, detail), count, Long::sum);
        }
    }

    /** How {@link #skipped} names a (reason, detail): {@code "id"} or {@code "id: detail"}. */
    public static String key(SkipReason reason, String detail) {
        return detail == null || detail.isEmpty() ? reason.id() : reason.id() + ": " + detail;
    }

    /** Whether a key of {@link #skipped} is of a reason of severity damaged input. */
    public static boolean isDamageKey(String key) {
        int colon = key.indexOf(':');
        SkipReason r = SkipReason.byId(colon < 0 ? key : key.substring(0, colon));
        return r != null && r.damage();
    }

    /** The items counted as damage in the input. */
    public long damagedTotal() {
        return skips.total(SkipReason.Severity.DAMAGED_INPUT);
    }

    public long skippedTotal() {
        return skipped.values().stream().mapToLong(Long::longValue).sum();
    }
}
