package org.hetscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.hetscope.store.ParquetExport;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope export STORE... --parquet DIR}: every table of each store as Parquet, one hive-style partition
 * per store (trace) in a dataset folder that DuckDB ({@code hetscope sql DIR}) and Spark read as one dataset
 * (docs/scale.md).
 */
@Command(name = "export", description = "Write every table of stores as Parquet into a dataset folder: "
        + "DIR/TABLE/trace=NAME/part-0.parquet and DIR/" + "_hetscope_dataset.json (docs/scale.md); further stores add "
        + "their traces; 'hetscope sql DIR' queries it.")
public final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0..*", arity = "1..*", paramLabel = "STORE")
    List<Path> stores;

    @Option(names = "--parquet", required = true, paramLabel = "DIR",
            description = "The dataset folder (created if absent; else it must be empty or a dataset).")
    Path dir;

    @Option(names = "--trace", paramLabel = "NAME",
            description = "The trace's name in the dataset (one store only; default: the store's file name "
                    + "without extension).")
    String trace;

    @Option(names = "--force", description = "Replace a trace of the same name already in the dataset.")
    boolean force;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (trace != null && stores.size() > 1) {
            System.err.println("hetscope: --trace names one store's trace; " + stores.size() + " stores given");
            return 2;
        }
        Set<String> names = new HashSet<>();
        List<String> chosen = new ArrayList<>();
        for (Path s : stores) {
            String n = trace != null ? trace : ParquetExport.defaultName(s);
            if (!names.add(n)) {
                System.err.println("hetscope: two stores would both be trace '" + n + "'; export them one at a time "
                        + "with --trace NAME");
                return 2;
            }
            chosen.add(n);
        }
        Table.Builder t = Table.builder("export", "trace", "table", "rows");
        for (int i = 0; i < stores.size(); i++) {
            ParquetExport.Result r = ParquetExport.export(stores.get(i), dir, chosen.get(i), force);
            for (var e : r.tables().entrySet()) {
                t.row(r.trace(), e.getKey(), e.getValue());
            }
            for (String skipped : r.skippedTables()) {
                System.err.println("hetscope: warning: " + stores.get(i) + ": table " + skipped + " not exported");
            }
        }
        TablePrinter.print(System.out, output.style(), t.build());
        return 0;
    }
}
