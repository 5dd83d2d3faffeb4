package org.hetscope.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hetscope sql FILE QUERY}: SQL over the store's documented schema. */
@Command(name = "sql", description = "Run a SQL query over a store (schema: docs/schema.md).")
public final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Parameters(index = "1", paramLabel = "QUERY")
    String query;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            TablePrinter.print(System.out, output.style(), store.query(query));
        }
        return 0;
    }
}
