package org.hetscope.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.ReadOnlySql;
import org.hetscope.store.Store;
import org.hetscope.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope sql FILE QUERY}: SQL over the store's documented schema. Only statements that read run; the
 * store's connection also refuses anything that would touch other files ({@link Store#open}), so this check is
 * for a clear message, not the only defence.
 */
@Command(name = "sql", description = "Run a read-only SQL query over a store (schema: docs/schema.md), or over a "
        + "Parquet dataset folder written by 'hetscope export' (docs/scale.md): SELECT, WITH, DESCRIBE, SUMMARIZE, "
        + "EXPLAIN, SHOW, PRAGMA table_info. Files outside the store or dataset cannot be read or written.")
public final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Option(names = "--trace", paramLabel = "NAME",
            description = "Over a dataset: read only this trace (the views of the standard library that join by id "
                    + "need one trace).")
    String trace;

    @Parameters(index = "1", paramLabel = "QUERY")
    String query;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        String refused = refusal(query);
        if (refused != null) {
            System.err.println("hetscope: " + refused + "; 'hetscope sql' runs queries that read the "
                    + "store (SELECT, WITH, DESCRIBE, SUMMARIZE, EXPLAIN, SHOW, PRAGMA table_info)");
            return 1;
        }
        boolean dataset = java.nio.file.Files.isDirectory(file);
        if (trace != null && !dataset) {
            System.err.println("hetscope: --trace chooses a trace of a dataset folder; " + file + " is not one");
            return 2;
        }
        try {
            if (dataset) {
                try (ParquetDataset d = ParquetDataset.open(file, trace)) {
                    TablePrinter.print(System.out, output.style(), d.query(query));
                }
            } else {
                try (Store store = Store.open(file)) {
                    TablePrinter.print(System.out, output.style(), store.query(query));
                }
            }
        } catch (StoreException e) {
            String m = e.getMessage();
            if (m != null && m.startsWith("Permission Error")) {
                System.err.println("hetscope: read-only: a query over a " + (dataset ? "dataset" : "store")
                        + " cannot read or write other files, attach databases or load extensions (" + m + ")");
                return 1;
            }
            throw e;
        }
        return 0;
    }

    /** Why {@code sql} is refused (its first statement that does not only read), or null if it only reads. */
    static String refusal(String sql) {
        return ReadOnlySql.refusal(sql);
    }

    /** The statements of {@code sql}, split at semicolons outside quotes and comments, comments removed. */
    static List<String> statements(String sql) {
        return ReadOnlySql.statements(sql);
    }
}
