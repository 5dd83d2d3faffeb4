package org.hetscope.formats.sqlite;

import java.util.List;
import java.util.Locale;

/**
 * One table as its CREATE TABLE statement declares it: the columns in record order, the column that aliases the
 * rowid (INTEGER PRIMARY KEY, stored as NULL in the record), and whether its rows are in a rowid b-tree at all.
 *
 * @param rowidAlias index of the INTEGER PRIMARY KEY column, or -1
 * @param virtualColumns whether a generated VIRTUAL column exists (it is not stored in the record)
 */
public record TableDefinition(String name, List<Column> columns, int rowidAlias, boolean withoutRowid,
                              boolean virtualColumns) {

    /** How SQLite converts values stored into a column; only REAL changes what is read back. */
    public enum Affinity { INTEGER, TEXT, BLOB, REAL, NUMERIC }

    /**
     * One declared column.
     *
     * @param defaultValue the constant DEFAULT (Long, Double, String, byte[]) or null; rows written before an
     *                     ALTER TABLE ADD COLUMN read it for the missing column
     */
    public record Column(String name, String declaredType, Affinity affinity, Object defaultValue) {
    }

    /** Index of the column called {@code name} (case-insensitive, as in SQL), or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the file scanner can read this table's rows (otherwise sqlite-jdbc must). */
    public boolean scannable() {
        return !withoutRowid && !virtualColumns;
    }

    /** The affinity SQLite derives from a declared type name (datatype3, section 3.1). */
    public static Affinity affinityOf(String declaredType) {
        String t = declaredType.toUpperCase(Locale.ROOT);
        if (t.contains("INT")) {
            return Affinity.INTEGER;
        }
        if (t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT")) {
            return Affinity.TEXT;
        }
        if (t.isEmpty() || t.contains("BLOB")) {
            return Affinity.BLOB;
        }
        if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
            return Affinity.REAL;
        }
        return Affinity.NUMERIC;
    }
}
