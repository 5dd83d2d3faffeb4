package org.hetscope.model;

/**
 * Where a reader puts what it decoded. Readers ask the sink for ids ({@link #newId(Entity)}) so that several
 * traces can go into one store without clashes, then emit records that refer to each other by those ids.
 *
 * <p>Records may arrive in any time order. A reader reports what it could not place or had to skip through
 * {@link #skipped(SkipReason, String, String, long)} with a reason from the closed list; nothing is dropped silently.
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

    /**
     * Declares SQL that derives rows from those this reader wrote (a join or sort that the database does out of core,
     * e.g. task dependencies from JobId edges), run by the store when it comes, on every row written before it (on the
     * store's thread while the reader goes on, and before clocks are aligned): declare it once the rows it reads are
     * all written. A table that only feeds such a statement is declared with {@link #defineTable} under a name of its
     * own per read and dropped by the reader's last statement. A sink without a database (tests'
     * {@link CollectingSink}) keeps the statements and runs nothing.
     */
    default void derive(String sql) {
    }

    /**
     * Declares a query, run in order with the {@link #derive} statements, whose rows (reason id, detail, where,
     * count) are counted as skipped items as if reported through {@link #skipped} when the source ends: the problems
     * a derived table found (rows a join left unmatched, keys seen twice), counted by the database, with their first
     * location. Rows with a count of 0 add nothing. A sink without a database runs nothing.
     */
    default void deriveSkipped(String query) {
    }

    /** A trace-level fact: source file, format, clock, a flag such as {@code serialized_by_profiler}. */
    void info(String key, String value);

    /**
     * Counts {@code count} items the reader kept only generically or skipped. Reasons of severity
     * {@link SkipReason.Severity#DAMAGED_INPUT} make an import end with a non-zero exit code even though it keeps
     * everything intact.
     *
     * @param reason why, from the closed list
     * @param detail what of the source it concerns, short and without positions (e.g. {@code "phase 'P'"},
     *               a table name), or null; rows are counted per (reason, detail)
     * @param where the file and position of the first such item
     */
    void skipped(SkipReason reason, String detail, String where, long count);

    /** {@link #skipped(SkipReason, String, String, long)} without a detail. */
    default void skipped(SkipReason reason, String where, long count) {
        skipped(reason, null, where, count);
    }
}
