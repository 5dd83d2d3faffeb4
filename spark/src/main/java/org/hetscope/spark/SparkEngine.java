package org.hetscope.spark;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.Table;

/**
 * The analyses on Spark SQL over a Parquet dataset: one temporary view per table folder, over the partitions of the
 * traces the manifest lists (partitions not in the manifest, e.g. of an export that did not finish, are not read),
 * with the partition column {@code trace} read as a string.
 */
public final class SparkEngine implements Engine {
    private static final Pattern TABLE = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private final SparkSession spark;

    public SparkEngine(SparkSession spark, Path dir) throws IOException {
        this.spark = spark;
        List<String> traces;
        try (ParquetDataset d = ParquetDataset.open(dir, null)) {
            traces = d.traces();
        }
        Path base = dir.toRealPath();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
            for (Path t : ds) {
                String table = t.getFileName().toString();
                if (!TABLE.matcher(table).matches() || !Files.isDirectory(t, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                List<String> parts = new ArrayList<>();
                for (String trace : traces) {
                    Path p = t.resolve("trace=" + trace);
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        parts.add(p.toUri().toString());
                    }
                }
                if (parts.isEmpty()) {
                    continue;
                }
                spark.read().option("basePath", t.toUri().toString()).parquet(parts.toArray(String[]::new))
                        .createOrReplaceTempView(table);
            }
        }
    }

    @Override
    public Analyses.Dialect dialect() {
        return Analyses.Dialect.SPARK;
    }

    @Override
    public Table query(String sql) {
        Dataset<Row> df = spark.sql(sql);
        String[] columns = df.columns();
        List<Object[]> rows = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            Object[] v = new Object[columns.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = Analyses.normalise(r.get(i));
            }
            rows.add(v);
        }
        return new Table(null, List.of(columns), rows);
    }

    /** The session is the caller's. */
    @Override
    public void close() {
    }

    /** A session with the settings the dataset needs (partition values stay strings: trace 0001 is not 1). */
    public static SparkSession session(String master, String app) {
        SparkSession.Builder b = SparkSession.builder().appName(app)
                .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
                .config("spark.ui.enabled", "false")
                // a query may read the dataset's views only, not any file by path (SELECT * FROM parquet.`/x`)
                .config("spark.sql.runSQLOnFiles", "false")
                .config("spark.sql.session.timeZone", "UTC");
        if (master != null) {
            b.master(master);
            if (master.startsWith("local")) {
                // Spark's default of 200 shuffle partitions is for clusters: on one machine each of the analyses'
                // grouping and window steps would run 200 mostly empty tasks
                b.config("spark.sql.shuffle.partitions", "8");
            }
        }
        return b.getOrCreate();
    }
}
