package org.hetscope.spark;

import java.io.IOException;
import java.nio.file.Path;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.Table;

/** The analyses on DuckDB over a Parquet dataset, on one machine and without Spark ({@link ParquetDataset}). */
public final class DuckEngine implements Engine {
    private final ParquetDataset dataset;

    public DuckEngine(Path dir) throws IOException {
        this.dataset = ParquetDataset.open(dir, null);
    }

    @Override
    public Analyses.Dialect dialect() {
        return Analyses.Dialect.DUCKDB;
    }

    @Override
    public Table query(String sql) {
        return Analyses.normalise(dataset.query(sql), null);
    }

    @Override
    public void close() {
        dataset.close();
    }
}
