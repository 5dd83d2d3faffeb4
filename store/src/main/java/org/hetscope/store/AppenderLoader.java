package org.hetscope.store;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Writes batches through the DuckDB JDBC driver's public appender, one value at a time: the fallback when the
 * {@link ArrowStream} path cannot be used. The appender wants each value in its column's exact type, so a table
 * with a column of another SQL type (SMALLINT, TIMESTAMP, ...) is appended to a staging table of the batch's own
 * types and copied over with {@code INSERT ... SELECT}, the same casts the Arrow path gets from DuckDB. The
 * appender fills a table's columns in the table's order, so a table whose columns stand in another order than the
 * batch's goes through the staging table too, copied over by column name.
 */
final class AppenderLoader implements BatchLoader {
    static final String NAME = "appender";
    private static final String STAGE = "hetscope_stage_";

    private final DuckDBConnection connection;
    /** Per table: whether its columns stand in the batch's order (then the appender may fill it directly). */
    private final java.util.Map<String, Boolean> sameOrder = new java.util.HashMap<>();

    AppenderLoader(DuckDBConnection connection) {
        this.connection = connection;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void insert(ColumnBatch batch) {
        if (batch.rows() == 0) {
            return;
        }
        boolean exact = batch.columns.stream().allMatch(c -> c.sqlType().equalsIgnoreCase(c.type().name()))
                && sameOrder.computeIfAbsent(batch.table, t -> inBatchOrder(batch));
        String target = exact ? batch.table : STAGE + batch.table;
        try (Statement st = connection.createStatement()) {
            if (!exact) {
                st.execute("CREATE TABLE " + target + "(" + batch.columns.stream()
                        .map(c -> "\"" + c.name().replace("\"", "\"\"") + "\" " + c.type().name())
                        .collect(Collectors.joining(", ")) + ")");
            }
            // One appender per batch: it is confined to the thread that made it, and the pipelined writer's
            // last batches are flushed on another thread than the first ones.
            try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, target)) {
                append(appender, batch);
            }
            if (!exact) {
                int inserted = st.executeUpdate("INSERT INTO " + batch.table + " (" + batch.columnList()
                        + ") SELECT " + batch.columnList() + " FROM " + target);
                st.execute("DROP TABLE " + target);
                if (inserted != batch.rows()) {
                    throw new StoreException("DuckDB took " + inserted + " of " + batch.rows() + " rows of "
                            + batch.table);
                }
            }
        } catch (SQLException e) {
            throw new StoreException("writing " + batch.rows() + " rows of " + batch.table, e);
        }
    }

    private boolean inBatchOrder(ColumnBatch batch) {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (java.sql.PreparedStatement ps = connection.prepareStatement("SELECT column_name FROM "
                + "information_schema.columns WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, batch.table);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("reading the columns of " + batch.table, e);
        }
        return names.equals(batch.columns.stream().map(ColumnBatch.Column::name).toList());
    }

    private static void append(DuckDBAppender appender, ColumnBatch batch) throws SQLException {
        int width = batch.width();
        int rows = batch.rows();
        for (int r = 0; r < rows; r++) {
            appender.beginRow();
            for (int c = 0; c < width; c++) {
                if ((batch.validity(c)[r >>> 6] & (1L << r)) == 0) {
                    appender.appendNull();
                    continue;
                }
                switch (batch.columns.get(c).type()) {
                    case BIGINT -> appender.append(batch.longs(c)[r]);
                    case INTEGER -> appender.append(batch.ints(c)[r]);
                    case DOUBLE -> appender.append(batch.doubles(c)[r]);
                    case BOOLEAN -> appender.append(batch.ints(c)[r] != 0);
                    case VARCHAR -> {
                        int[] ends = batch.textEnds(c);
                        int start = r == 0 ? 0 : ends[r - 1];
                        appender.append(new String(batch.text(c), start, ends[r] - start, StandardCharsets.UTF_8));
                    }
                }
            }
            appender.endRow();
        }
    }
}
