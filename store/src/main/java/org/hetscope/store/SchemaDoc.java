package org.hetscope.store;

import java.util.List;
import org.hetscope.model.TableSpec;

/**
 * The column reference of docs/schema.md, written from the table declarations themselves (a test in the cli
 * module, which sees every format's declarations, checks that the file holds exactly this text).
 */
public final class SchemaDoc {
    /** The lines that open and close the generated part of docs/schema.md. */
    public static final String BEGIN = "<!-- column reference: generated from the table declarations; do not edit -->";
    public static final String END = "<!-- end of column reference -->";

    private SchemaDoc() {}

    /** One section per table: its name, what a row is, and its columns with type and meaning. */
    public static String markdown(List<TableSpec> tables) {
        StringBuilder b = new StringBuilder(BEGIN).append('\n');
        for (TableSpec t : tables) {
            b.append("\n#### `").append(t.name()).append("`\n\n")
                    .append(Character.toUpperCase(t.doc().charAt(0))).append(t.doc().substring(1)).append(".\n\n");
            b.append("| column | type | meaning |\n|---|---|---|\n");
            for (TableSpec.Column<?> c : t.columns()) {
                b.append("| ").append(c.name()).append(" | ").append(c.type().name()).append(" | ")
                        .append(c.doc().replace("|", "\\|")).append(" |\n");
            }
        }
        return b.append('\n').append(END).append('\n').toString();
    }
}
