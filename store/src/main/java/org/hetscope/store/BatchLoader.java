package org.hetscope.store;

import org.duckdb.DuckDBConnection;

/**
 * How a full {@link ColumnBatch} reaches its table. Two ways exist: {@link ArrowStream}, the cheaper one, which
 * depends on a non-public entry point of the DuckDB JDBC driver, and {@link AppenderLoader}, the driver's public
 * appender. {@link #choose} picks one per store when the writer starts; {@code trace_info} key {@value #INFO_KEY}
 * records which one wrote the store.
 */
interface BatchLoader {
    /** System property that forces a loader: {@code appender} or {@code arrow-stream}; unset or {@code auto} picks. */
    String PROPERTY = "hetscope.store.loader";
    /** The {@code trace_info} key naming the loader that wrote the store. */
    String INFO_KEY = "store_loader";

    /** The name recorded in {@code trace_info}. */
    String name();

    /** Appends the batch's rows to its table; the batch is left as it was. */
    void insert(ColumnBatch batch);

    /**
     * The Arrow stream path when it can be set up on this driver (or when forced), else the public appender. A
     * failed setup is told once on standard error, since the import then runs slower but is otherwise the same.
     */
    static BatchLoader choose(DuckDBConnection connection) {
        String forced = System.getProperty(PROPERTY, "").trim();
        switch (forced) {
            case AppenderLoader.NAME:
                return new AppenderLoader(connection);
            case ArrowStream.NAME:
                return ArrowStream.loader(connection); // forced: a failure is the import's failure
            case "", "auto":
                break;
            default:
                throw new StoreException("-D" + PROPERTY + "=" + forced + ": expected " + ArrowStream.NAME + ", "
                        + AppenderLoader.NAME + " or auto");
        }
        try {
            return ArrowStream.loader(connection);
        } catch (RuntimeException | LinkageError e) {
            ArrowStream.warnOnce("hetscope: " + e.getMessage() + "; writing the store through the driver's public"
                    + " appender instead (slower, same store)");
            return new AppenderLoader(connection);
        }
    }
}
