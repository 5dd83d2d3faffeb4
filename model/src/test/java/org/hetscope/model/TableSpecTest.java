package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableSpecTest {
    static final class Sample extends TableSpec {
        final Column<Long> id = bigint("id", "row id");
        final Column<String> name = varchar("name", "a name");
        final Column<Integer> rank = integer("rank", "a rank");
        final Column<Boolean> ok = bool("ok", "a flag");

        Sample() {
            super("sample_table", "rows for the test");
        }
    }

    @Test
    void fieldsAreTheColumnsInDeclarationOrder() {
        Sample s = new Sample();
        assertEquals("CREATE TABLE sample_table(id BIGINT, name VARCHAR, rank INTEGER, ok BOOLEAN)", s.ddl());
        assertEquals(List.of(0, 1, 2, 3), List.of(s.id.index(), s.name.index(), s.rank.index(), s.ok.index()));
        assertEquals("\"id\", \"name\", \"rank\", \"ok\"", s.columnList());
        assertEquals(s.rank, s.column("rank"));
        assertEquals("a rank", s.rank.doc());
    }

    @Test
    void valuesReadBackAsTheColumnsType() {
        Sample s = new Sample();
        assertEquals(7, s.rank.cast(7L)); // query layers widen INTEGER to Long
        assertEquals(7L, s.id.cast(7));
        assertEquals("x", s.name.cast("x"));
        assertNull(s.ok.cast(null));
    }

    @Test
    void parseMatchesADeclaredTableOfTheSameShape() {
        TableSpec p = TableSpec.parse("sample_table", "id BIGINT, name VARCHAR, rank INTEGER, ok BOOLEAN");
        assertTrue(p.sameShape(new Sample()));
        assertThrows(IllegalArgumentException.class, () -> TableSpec.parse("t", "a BIGINT, a VARCHAR"));
        assertThrows(IllegalArgumentException.class, () -> TableSpec.parse("t", "a"));
        assertThrows(IllegalArgumentException.class, () -> TableSpec.of("Bad Name", ""));
    }

    @Test
    void aTableInUseTakesNoMoreColumns() {
        TableSpec t = TableSpec.parse("t", "a BIGINT");
        t.ddl();
        assertThrows(IllegalStateException.class, () -> t.bigint("b", ""));
    }
}
