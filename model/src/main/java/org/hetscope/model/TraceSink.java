package org.hetscope.model;

/**
 * Where a reader puts what it decoded. Readers ask the sink for ids ({@link #newId(Entity)}) so that several
 * traces can go into one store without clashes, then emit records that refer to each other by those ids.
 *
 * <p>Records may arrive in any time order. A reader reports what it could not place or had to skip through
 * {@link #skipped(String, String, long)}; nothing is dropped silently.
 */
public interface TraceSink {

    long newId(Entity entity);

    void process(TraceProcess process);

    void thread(TraceThread thread);

    void device(Device device);

    void track(Track track);

    void slice(Slice slice);

    void instant(Instant instant);

    void counter(CounterSample sample);

    void flow(Flow flow);

    void kernel(KernelLaunch kernel);

    void kernelCounter(KernelCounter counter);

    void transfer(Transfer transfer);

    void memoryNode(MemoryNode node);

    void memoryBlock(MemoryBlock block);

    void residency(Residency residency);

    void task(Task task);

    void taskAccess(TaskAccess access);

    void taskDependency(TaskDependency dependency);

    /**
     * Declares a table beyond the core schema, for records only one family of formats has (e.g. memory-manager
     * requests of a task runtime). The {@link TableSpec} is the table's one declaration: the store creates the
     * table from it and analyses read the table through its columns. Declaring the same table twice is allowed.
     * Document such tables in docs/schema.md.
     */
    void defineTable(TableSpec table);

    /**
     * Appends a row to a table declared with {@link #defineTable}; values are Long, Integer, Double, String,
     * Boolean or null, one per column of {@code table}, in the order its columns are declared.
     */
    void row(TableSpec table, Object... values);

    /** A trace-level fact: source file, format, clock, a flag such as {@code serialized_by_profiler}. */
    void info(String key, String value);

    /**
     * Counts {@code count} items the reader kept only generically or skipped, with the reason and where.
     *
     * @param what a short class of item, e.g. {@code "event phase 'P'"} or {@code "unbalanced E"}
     * @param where the file and position of the first such item
     */
    void skipped(String what, String where, long count);

    /** The prefix of {@link #skipped} reasons that are damage in the input, not items kept generically. */
    String DAMAGE = "damaged input: ";

    /**
     * Counts {@code count} items lost to damage in the input (a corrupt packet, page or line) that the reader
     * stepped over: reported like skipped items, and an import that met any ends with a non-zero exit code even
     * though it keeps everything intact.
     */
    default void damaged(String what, String where, long count) {
        skipped(DAMAGE + what, where, count);
    }
}
