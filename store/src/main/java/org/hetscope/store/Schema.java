package org.hetscope.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.hetscope.model.TableSpec;

/** The DDL of the store, generated from the declarations in {@link CoreTables} (documented in docs/schema.md). */
public final class Schema {
    /** Bumped whenever a table or column changes; stored in {@code trace_info} as {@code schema_version}. */
    public static final int VERSION = 4;

    /** The SQL condition on a {@code skipped} row that it counts damage in the input (exit code 3). */
    public static final String SKIPPED_DAMAGE = "severity = 'damaged_input'";

    /**
     * {@code skipped} as a FROM item with the columns of this version (reason, severity, detail, location, count),
     * also in a store of version 3 or older, whose rows are (what, location, count): there the free text is the
     * reason and its {@code damaged input: } prefix the severity.
     */
    public static String skipped(Store store) {
        long current = ((Number) store.query("SELECT count(*) FROM information_schema.columns WHERE table_name = "
                + "'skipped' AND column_name = 'reason'").rows().get(0)[0]).longValue();
        return current > 0 ? "skipped" : "(SELECT what AS reason, CASE WHEN what LIKE 'damaged input: %' THEN "
                + "'damaged_input' END AS severity, NULL::VARCHAR AS detail, location, count FROM skipped) AS skipped";
    }

    private Schema() {}

    static void create(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            for (TableSpec t : CoreTables.ALL) {
                st.execute(t.ddl());
            }
            st.execute(CoreTables.KERNEL_VIEW);
        }
    }

    /** The whole DDL as one script (tests build stores by hand from it). */
    public static String ddl() {
        StringBuilder b = new StringBuilder();
        for (TableSpec t : CoreTables.ALL) {
            b.append(t.ddl()).append(";\n");
        }
        return b.append(CoreTables.KERNEL_VIEW).append(";\n").toString();
    }
}
