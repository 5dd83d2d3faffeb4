package org.hetscope.formats.ctf.mapping;

import org.hetscope.formats.ctf.CtfEvent;

/**
 * {@code lttng_ust_statedump:*} and {@code lttng_ust_dl:*}: process names and the binaries loaded into each
 * process (table {@code ctf_binaries}). The events are also kept as generic instants.
 */
final class StatedumpMapper implements EventMapper {
    static final CtfTables.Binaries TABLE = CtfTables.BINARIES;
    private final TrackRegistry tracks;
    private boolean defined;

    StatedumpMapper(TrackRegistry tracks) {
        this.tracks = tracks;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        if (!name.startsWith("lttng_ust_statedump:") && !name.startsWith("lttng_ust_dl:")) {
            return false;
        }
        String pkey = TrackRegistry.processKey(e);
        String what = name.substring(name.indexOf(':') + 1);
        switch (what) {
            case "procname" -> tracks.nameProcess(pkey, e.getString("procname"));
            case "bin_info", "soinfo", "dlopen", "build_id", "debug_link", "dlclose" -> {
                if (!defined) {
                    tracks.sink.defineTable(TABLE);
                    defined = true;
                }
                String path = e.getString("path");
                if (path == null) {
                    path = e.getString("sopath");
                }
                String buildId = null;
                if (what.equals("build_id")) {
                    StringBuilder b = new StringBuilder();
                    e.visitPayload(new HexBytes(b, "build_id"));
                    buildId = b.toString();
                }
                tracks.sink.row(TABLE, tracks.process(pkey, e.contextString("procname")), e.timestampNs(), name,
                        e.getLong("baddr", 0), e.has("memsz") ? e.getLong("memsz") : null, path, buildId,
                        what.equals("debug_link") ? e.getString("filename") : null);
            }
            default -> { }
        }
        return false; // also kept as a generic instant
    }

    @Override
    public void finish(long endNs) {}

    /** Collects the elements of one byte array field as hex. */
    private record HexBytes(StringBuilder out, String field) implements org.hetscope.formats.ctf.FieldVisitor {
        @Override
        public void integer(String name, long value, boolean signed, int size, int base) {
            if (name.equals(field)) {
                out.append(Character.forDigit((int) (value >> 4) & 15, 16)).append(Character.forDigit((int) value & 15, 16));
            }
        }

        @Override
        public void enumeration(String name, long value, boolean signed, String[] labels) {}

        @Override
        public void real(String name, double value) {}

        @Override
        public void string(String name, String value) {}
    }
}
