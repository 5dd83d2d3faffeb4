package org.hetscope.spark;

import org.hetscope.store.Table;

/** Runs the analyses' SQL over a dataset: DuckDB ({@link DuckEngine}) or Spark SQL ({@link SparkEngine}). */
public interface Engine extends AutoCloseable {
    /** The dialect the queries are rendered for. */
    Analyses.Dialect dialect();

    /** Runs one query in this engine's dialect; values normalised ({@link Analyses#normalise}). */
    Table query(String sql);

    /** Runs analysis {@code name} ({@link Analyses#NAMES}). */
    default Table analysis(String name) {
        return Analyses.normalise(query(Analyses.render(name, dialect())), Analyses.TITLES.get(name));
    }

    @Override
    void close();
}
