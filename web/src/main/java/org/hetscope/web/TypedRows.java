package org.hetscope.web;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Reads a result set with typed getters (integers as Long, text as String), which is much cheaper than getObject. */
final class TypedRows {
    private TypedRows() {
    }

    static List<Object[]> read(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        int[] kind = new int[n];
        for (int i = 0; i < n; i++) {
            kind[i] = switch (md.getColumnType(i + 1)) {
                case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.NUMERIC, Types.DECIMAL -> 0;
                case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR -> 1;
                case Types.DOUBLE, Types.FLOAT, Types.REAL -> 2;
                default -> 3;
            };
        }
        List<Object[]> out = new ArrayList<>();
        while (rs.next()) {
            Object[] r = new Object[n];
            for (int i = 0; i < n; i++) {
                r[i] = switch (kind[i]) {
                    case 0 -> {
                        long v = rs.getLong(i + 1);
                        yield rs.wasNull() ? null : v;
                    }
                    case 1 -> rs.getString(i + 1);
                    case 2 -> {
                        double v = rs.getDouble(i + 1);
                        yield rs.wasNull() ? null : v;
                    }
                    default -> {
                        Object v = rs.getObject(i + 1);
                        yield v instanceof Number num ? (Object) num.longValue() : v;
                    }
                };
            }
            out.add(r);
        }
        return out;
    }
}
