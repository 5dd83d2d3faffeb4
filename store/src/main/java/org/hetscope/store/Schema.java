package org.hetscope.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.hetscope.model.TableSpec;

/** The DDL of the store, generated from the declarations in {@link CoreTables} (documented in docs/schema.md). */
public final class Schema {
    /** Bumped whenever a table or column changes; stored in {@code trace_info} as {@code schema_version}. */
    public static final int VERSION = 3;

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
