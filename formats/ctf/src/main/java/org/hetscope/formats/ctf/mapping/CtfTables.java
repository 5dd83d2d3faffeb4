package org.hetscope.formats.ctf.mapping;

import java.util.List;
import org.hetscope.model.TableSpec;

/** The table the CTF reader adds to a store, declared once; documented in docs/schema.md. */
public final class CtfTables {
    private CtfTables() {}

    public static final class Binaries extends TableSpec {
        public final Column<Long> processId = bigint("process_id", "the process that loaded it");
        public final Column<Long> ts = bigint("ts", "event time (ns)");
        public final Column<String> event = varchar("event", "bin_info, soinfo, dlopen, build_id, debug_link, dlclose");
        public final Column<Long> baseAddress = bigint("base_address", "load address");
        public final Column<Long> size = bigint("size", "mapped size (bytes)");
        public final Column<String> path = varchar("path", "file path");
        public final Column<String> buildId = varchar("build_id", "build id, hex");
        public final Column<String> debugLink = varchar("debug_link", "debug link file name");

        Binaries() {
            super("ctf_binaries", "binaries loaded, from the LTTng statedump and dl events");
        }
    }

    public static final Binaries BINARIES = new Binaries();

    public static final List<TableSpec> ALL = List.of(BINARIES);
}
