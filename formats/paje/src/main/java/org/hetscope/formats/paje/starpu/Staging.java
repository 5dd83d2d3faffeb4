package org.hetscope.formats.paje.starpu;

import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceSink;

/**
 * The tables one StarPU read writes its fetch links and copies to, for the store to join into
 * {@code starpu_transfer} once the rows they read are in ({@link TraceSink#derive}): the database sorts and joins out
 * of core, so the reader keeps nothing per transfer. Each read has its own (a suffix per read) and drops them with its
 * last statement.
 */
final class Staging {
    private final TraceSink sink;
    /** StarPU's fetch, prefetch and idle-fetch links with a {@code com_N} key, one per transfer. */
    final TableSpec fetchLink;
    /** The transfers built from the driver copies, by communication id. */
    final TableSpec copyTransfer;
    private boolean dropped;

    Staging(TraceSink sink, String suffix) {
        this.sink = sink;
        fetchLink = TableSpec.of("starpu_stage_fetch_link_" + suffix, "a read's fetch links, until joined");
        fetchLink.bigint("com", "communication id of the key com_N");
        fetchLink.bigint("start_ns", "start of the link");
        fetchLink.bigint("end_ns", "end of the link");
        fetchLink.bigint("start_line", "line of its start in paje.trace");
        fetchLink.bigint("end_line", "line of its end in paje.trace");
        fetchLink.varchar("class", "fetch, prefetch or idle_fetch");
        copyTransfer = TableSpec.of("starpu_stage_copy_transfer_" + suffix, "a read's copy transfers, until joined");
        copyTransfer.bigint("com", "communication id of the copy");
        copyTransfer.bigint("transfer_id", "its transfer row");
        sink.defineTable(fetchLink);
        sink.defineTable(copyTransfer);
    }

    /** Declares the statement that drops the tables (once). */
    void drop() {
        if (!dropped) {
            dropped = true;
            sink.derive("DROP TABLE IF EXISTS " + fetchLink.name());
            sink.derive("DROP TABLE IF EXISTS " + copyTransfer.name());
        }
    }

    /** {@code s} as an SQL string literal. */
    static String text(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
