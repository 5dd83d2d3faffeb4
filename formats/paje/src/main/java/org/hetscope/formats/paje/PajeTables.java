package org.hetscope.formats.paje;

import java.util.List;
import org.hetscope.model.TableSpec;

/** The tables the Paje reader adds to a store (any producer), declared once; documented in docs/schema.md. */
public final class PajeTables {
    private PajeTables() {}

    public static final class Link extends TableSpec {
        public final Column<String> type = varchar("type", "link type alias");
        public final Column<String> name = varchar("name", "link type name");
        public final Column<Long> containerTrackId = bigint("container_track_id", "the link's container");
        public final Column<Long> fromTrackId = bigint("from_track_id", "start container");
        public final Column<Long> toTrackId = bigint("to_track_id", "end container");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<String> value = varchar("value", "the link's value");
        public final Column<String> linkKey = varchar("link_key", "the key start and end were matched by");

        Link() {
            super("paje_link", "Paje links matched by (type, key), FIFO when a key repeats");
        }
    }

    public static final class EntityValue extends TableSpec {
        public final Column<String> type = varchar("type", "type alias");
        public final Column<String> typeName = varchar("type_name", "type name");
        public final Column<String> alias = varchar("alias", "value alias");
        public final Column<String> name = varchar("name", "value name");
        public final Column<String> color = varchar("color", "colour as written, e.g. \"0.0 .7 1.0\"");

        EntityValue() {
            super("paje_entity_value", "declared entity values with their names and colours");
        }
    }

    public static final Link LINK = new Link();
    public static final EntityValue ENTITY_VALUE = new EntityValue();

    /** Every table of this family. */
    public static final List<TableSpec> ALL = List.of(LINK, ENTITY_VALUE);
}
