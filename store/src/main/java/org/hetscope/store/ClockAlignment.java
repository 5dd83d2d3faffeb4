package org.hetscope.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Entity;

/**
 * Puts the traces of one import on one timeline. Every source keeps its own clock while it is read; afterwards
 * each gets an adjustment, store time = own time + offset + round(drift * (own time - drift origin)), found in
 * this order of preference:
 * <ol>
 *   <li>given: an offset (and drift) from the command line or a manifest;</li>
 *   <li>clock facts: the source's reader recorded where its zero lies on a clock another aligned source also
 *       uses (epoch ns for Kineto, Nsight, absolute CTF clocks; the OTF2 timer; a CTF clock uuid);</li>
 *   <li>messages: MPI sends and receives matched across two sources; the offset is the middle of the window
 *       of offsets that keep every message from arriving before it was sent, and the residual the half width
 *       of that window (the true offset lies within it when messages take no negative time); collective calls
 *       that no rank leaves before all entered (MPI_Barrier, MPI_Allreduce, ...) narrow the same window;</li>
 *   <li>marker: the first slice or instant of a name the user gives, on both sides (exact by definition);</li>
 *   <li>none: nothing relates the source to the others; its times are kept as they are.</li>
 * </ol>
 * The first source is the reference (offset 0) unless an offset is given for it. Adjustments are applied to
 * the rows in the writer before its commit, so slices are sorted and nested on the store's timeline.
 */
public final class ClockAlignment {
    public static final String REFERENCE = "reference";
    public static final String GIVEN = "given";
    public static final String FACTS = "clock facts";
    public static final String MESSAGES = "messages";
    public static final String COLLECTIVES = "collectives";
    public static final String MARKER = "marker";
    public static final String NONE = "none";

    /** How a user asked for one source to be aligned. */
    public record Request(Mode mode, long offsetNs, double drift, Long driftFromNs, String marker) {
        public enum Mode { AUTO, GIVEN, FACTS, MESSAGES, MARKER, NONE }

        public static Request auto() {
            return new Request(Mode.AUTO, 0, 0, null, null);
        }

        public static Request given(long offsetNs, double drift, Long driftFromNs) {
            return new Request(Mode.GIVEN, offsetNs, drift, driftFromNs, null);
        }

        public static Request of(Mode mode) {
            return new Request(mode, 0, 0, null, null);
        }

        public static Request marker(String name) {
            return new Request(Mode.MARKER, 0, 0, null, name);
        }
    }

    /**
     * The adjustment chosen for one source.
     *
     * @param domain the clock its reader said it uses, or null
     * @param originNs where the source's zero lies on that clock, or null
     * @param residualNs for messages, the half width of the window of causal offsets; 0 for markers; null where
     *     nothing was fitted
     * @param matches how many matched events the fit used, or null
     */
    public record Adjustment(String domain, Long originNs, long offsetNs, double drift, Long driftFromNs,
                             String method, Long residualNs, Long matches, String detail) {
        static Adjustment reference(StoreWriter.Source s) {
            Fact f = fact(s);
            return new Adjustment(f == null ? null : f.domain, f == null ? null : f.origin, 0, 0, null, REFERENCE,
                    null, null, "the timeline of the store is this source's own clock");
        }

        /** This adjustment applied to a time on the source's own clock. */
        public long apply(long t) {
            long shifted = Math.addExact(t, offsetNs);
            return drift == 0 ? shifted : Math.addExact(shifted, Math.round((t - driftFromNs) * drift));
        }
    }

    /** Where a source's zero lies on a named clock. */
    record Fact(String domain, long origin, String how) {}

    private final StoreWriter writer;
    private final List<StoreWriter.Source> sources;
    private final Map<Integer, Adjustment> done = new LinkedHashMap<>();

    private ClockAlignment(StoreWriter writer) {
        this.writer = writer;
        this.sources = writer.sources();
    }

    /**
     * Chooses and applies every source's adjustment.
     *
     * @param requests by source id; sources not named are {@link Request#auto()}
     * @return the adjustments, by source id in source order
     */
    public static Map<Integer, Adjustment> align(StoreWriter writer, Map<Integer, Request> requests) {
        writer.endSource();
        writer.flushRows();
        ClockAlignment a = new ClockAlignment(writer);
        try {
            a.run(requests);
        } catch (SQLException e) {
            throw new StoreException("cannot align the clocks of the sources", e);
        }
        Map<Integer, Adjustment> out = new LinkedHashMap<>();
        for (StoreWriter.Source s : a.sources) {
            out.put(s.id, s.adjustment);
        }
        return out;
    }

    private Request request(Map<Integer, Request> requests, StoreWriter.Source s) {
        return requests.getOrDefault(s.id, Request.auto());
    }

    private void run(Map<Integer, Request> requests) throws SQLException {
        if (sources.isEmpty()) {
            return;
        }
        for (StoreWriter.Source s : sources) {
            Request r = request(requests, s);
            if (r.mode() == Request.Mode.GIVEN) {
                Fact f = fact(s);
                Long from = r.drift() == 0 ? null : r.driftFromNs() != null ? r.driftFromNs() : firstTime(s);
                settle(s, new Adjustment(f == null ? null : f.domain, f == null ? null : f.origin, r.offsetNs(),
                        r.drift(), from, GIVEN, null, null, "given on the command line or in the manifest"));
            }
        }
        StoreWriter.Source first = sources.get(0);
        if (!done.containsKey(first.id)) {
            settle(first, Adjustment.reference(first));
        }
        while (done.size() < sources.size()) {
            if (alignByFacts(requests) || alignOneByEvents(requests)) {
                continue;
            }
            // Nothing relates what is left to what is aligned: the first of it keeps its own clock, and the
            // others may still align to it.
            for (StoreWriter.Source s : sources) {
                if (!done.containsKey(s.id)) {
                    Fact f = fact(s);
                    Request r = request(requests, s);
                    settle(s, new Adjustment(f == null ? null : f.domain, f == null ? null : f.origin, 0, 0, null,
                            NONE, null, null, why(r, s)));
                    break;
                }
            }
        }
    }

    private String why(Request r, StoreWriter.Source s) {
        return switch (r.mode()) {
            case NONE -> "asked to keep its own clock";
            case MARKER -> "marker '" + r.marker() + "' not found in it or in an aligned source";
            case FACTS -> "no clock fact shared with an aligned source";
            case MESSAGES -> "no MPI message or collective call matched with an aligned source";
            default -> "no clock fact shared with an aligned source and no MPI message or collective call matched; its "
                    + "own clock kept";
        };
    }

    /** Aligns every source it can through a clock fact shared with an aligned one; whether any was. */
    private boolean alignByFacts(Map<Integer, Request> requests) throws SQLException {
        boolean any = false;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (StoreWriter.Source s : sources) {
                Request.Mode mode = request(requests, s).mode();
                if (done.containsKey(s.id) || (mode != Request.Mode.AUTO && mode != Request.Mode.FACTS)) {
                    continue;
                }
                Fact f = fact(s);
                if (f == null) {
                    continue;
                }
                for (StoreWriter.Source a : sources) {
                    Adjustment aa = done.get(a.id);
                    Fact af = aa == null ? null : fact(a);
                    if (af != null && af.domain.equals(f.domain)) {
                        long offset = Math.addExact(aa.offsetNs(), Math.subtractExact(f.origin, af.origin));
                        settle(s, new Adjustment(f.domain, f.origin, offset, 0, null, FACTS, null, null,
                                f.how + "; against source " + a.id + " (" + af.how + ")"));
                        changed = true;
                        any = true;
                        break;
                    }
                }
            }
        }
        return any;
    }

    /** Aligns the first source it can through matched events (messages, or its marker); whether it did. */
    private boolean alignOneByEvents(Map<Integer, Request> requests) throws SQLException {
        for (StoreWriter.Source s : sources) {
            if (done.containsKey(s.id)) {
                continue;
            }
            Request r = request(requests, s);
            Adjustment a = switch (r.mode()) {
                case AUTO, MESSAGES -> byMessages(s);
                case MARKER -> byMarker(s, r.marker());
                default -> null;
            };
            if (a != null) {
                settle(s, a);
                return true;
            }
        }
        return false;
    }

    private void settle(StoreWriter.Source s, Adjustment a) throws SQLException {
        s.adjustment = a;
        done.put(s.id, a);
        apply(s, a);
    }

    // ---- clock facts -------------------------------------------------------------------------------------

    /** The clock a source's reader said its times are on, from the {@code trace_info} keys it wrote. */
    static Fact fact(StoreWriter.Source s) {
        Map<String, String> f = s.facts;
        String base = f.get("chrome.baseTimeNanoseconds");
        if (base != null) {
            Long b = parseLong(base);
            if (b != null) {
                return new Fact("unix epoch", b, "Kineto baseTimeNanoseconds " + b);
            }
        }
        if (f.containsKey("chrome.schemaVersion") || f.containsKey("chrome.distributedInfo")) {
            // PyTorch's profiler (Kineto) writes times as µs since the Unix epoch
            return new Fact("unix epoch", 0, "Kineto times since the Unix epoch");
        }
        Long nsys = parseLong(f.get("nsys.session_start_utc_ns"));
        if (nsys != null) {
            return new Fact("unix epoch", nsys, "Nsight session start " + nsys + " ns UTC");
        }
        Long ticks = parseLong(f.get("otf2.global_offset_ticks"));
        Long resolution = parseLong(f.get("otf2.timer_resolution"));
        if (ticks != null && resolution != null && resolution > 0) {
            long ns = Math.floorDiv(ticks, resolution) * 1_000_000_000L
                    + Math.floorMod(ticks, resolution) * 1_000_000_000L / resolution;
            return new Fact("OTF2 timer", ns, "OTF2 global offset " + ticks + " ticks at " + resolution + " Hz");
        }
        for (Map.Entry<String, String> e : f.entrySet()) {
            if (e.getKey().startsWith("ctf.trace.") && e.getKey().contains(".clock.")) {
                String v = e.getValue();
                String domain = v.startsWith("absolute") ? "unix epoch" : "CTF clock " + v;
                return new Fact(domain, 0, "CTF clock " + e.getKey().substring(e.getKey().lastIndexOf('.') + 1)
                        + " (" + v + ")");
            }
        }
        if (f.containsKey("opencl.tracer")) {
            return new Fact("host monotonic", 0, "OpenCL capture times on the host's System.nanoTime");
        }
        return null;
    }

    private static Long parseLong(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---- matched events ----------------------------------------------------------------------------------

    /**
     * Fits the offset of {@code s} from the MPI sends and receives it shares with aligned sources: a message
     * from an aligned source to {@code s} bounds the offset from below (it cannot arrive before it left), one
     * from {@code s} to an aligned source from above.
     */
    private Adjustment byMessages(StoreWriter.Source s) throws SQLException {
        String ranges = rangesOf(Entity.INSTANT);
        // A rank is the pid of the process of the track; sends name the receiving rank, receives the sending one.
        // The k-th send from a to b on (communicator, tag) is the k-th receive of b from a on it (MPI ordering).
        String sql = """
                WITH m AS (
                    SELECT i.id, i.ts, i.name, r.src, p.pid AS rank,
                           TRY_CAST(json_extract_string(i.args, '$.receiver') AS BIGINT) AS receiver,
                           TRY_CAST(json_extract_string(i.args, '$.sender') AS BIGINT) AS sender,
                           TRY_CAST(json_extract_string(i.args, '$.communicator') AS BIGINT) AS comm,
                           TRY_CAST(json_extract_string(i.args, '$.tag') AS BIGINT) AS tag
                    FROM instant i JOIN (%s) r(src, lo, hi) ON i.id > r.lo AND i.id <= r.hi
                    JOIN track t ON t.id = i.track_id JOIN process p ON p.id = t.process_id
                    WHERE i.name IN ('MPI send', 'MPI recv') AND i.args IS NOT NULL AND json_valid(i.args)),
                s AS (SELECT src, ts, rank AS a, receiver AS b, comm, tag,
                             row_number() OVER (PARTITION BY src, rank, receiver, comm, tag ORDER BY ts, id) AS k
                      FROM m WHERE name = 'MPI send' AND receiver IS NOT NULL),
                v AS (SELECT src, ts, sender AS a, rank AS b, comm, tag,
                             row_number() OVER (PARTITION BY src, sender, rank, comm, tag ORDER BY ts, id) AS k
                      FROM m WHERE name = 'MPI recv' AND sender IS NOT NULL)
                SELECT s.src, s.ts, v.src, v.ts FROM s JOIN v
                  ON s.a = v.a AND s.b = v.b AND s.comm IS NOT DISTINCT FROM v.comm
                     AND s.tag IS NOT DISTINCT FROM v.tag AND s.k = v.k
                WHERE s.src <> v.src AND (s.src = ? OR v.src = ?)""".formatted(ranges);
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        long in = 0;
        long out = 0;
        java.util.Set<Integer> partners = new java.util.TreeSet<>();
        try (PreparedStatement ps = writer.connection().prepareStatement(sql)) {
            ps.setInt(1, s.id);
            ps.setInt(2, s.id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int sendSrc = rs.getInt(1);
                    long sendTs = rs.getLong(2);
                    int recvSrc = rs.getInt(3);
                    long recvTs = rs.getLong(4);
                    if (sendSrc == s.id && done.containsKey(recvSrc)) {
                        // recv (aligned) >= send + offset
                        hi = Math.min(hi, recvTs - sendTs);
                        out++;
                        partners.add(recvSrc);
                    } else if (recvSrc == s.id && done.containsKey(sendSrc)) {
                        // recv + offset >= send (aligned)
                        lo = Math.max(lo, sendTs - recvTs);
                        in++;
                        partners.add(sendSrc);
                    }
                }
            }
        }
        // Collectives that no rank leaves before every rank entered bound the offset on both sides at once.
        long[] coll = collectiveWindow(s);
        long collectives = coll[2];
        if (collectives > 0) {
            lo = Math.max(lo, coll[0]);
            hi = Math.min(hi, coll[1]);
            partners.addAll(collectivePartners);
        }
        if (in + out + collectives == 0) {
            return null;
        }
        Fact f = fact(s);
        String domain = f == null ? null : f.domain;
        Long origin = f == null ? null : f.origin;
        String method = collectives == 0 ? MESSAGES : in + out == 0 ? COLLECTIVES : MESSAGES + " and " + COLLECTIVES;
        String against = "with source" + (partners.size() > 1 ? "s " : " ") + joined(partners);
        String what = (in + out > 0 ? (in + out) + " MPI messages (" + in + " in, " + out + " out)" : "")
                + (in + out > 0 && collectives > 0 ? " and " : "")
                + (collectives > 0 ? collectives + " collective calls (" + String.join(", ", collectiveNamesSeen)
                        + ")" : "") + " " + against;
        if (collectives == 0 && (in == 0 || out == 0)) {
            // One direction only bounds the offset on one side: the bound itself is the smallest change that
            // keeps every message causal, and nothing says how far the truth lies beyond it.
            long offset = in == 0 ? hi : lo;
            return new Adjustment(domain, origin, offset, 0, null, method, null, in + out,
                    what + ", all " + (in == 0 ? "sent from" : "received by") + " this source: offset is the "
                            + "causal bound (" + (in == 0 ? "at most " : "at least ") + offset + " ns), residual "
                            + "unknown");
        }
        long offset = Math.floorDiv(lo, 2) + Math.floorDiv(hi, 2) + ((lo & 1) + (hi & 1)) / 2;
        long half = Math.abs(Math.subtractExact(hi, lo));
        long residual = (half + 1) / 2;
        String window = lo <= hi
                ? "offsets keeping all causal: [" + lo + ", " + hi + "] ns"
                : "no offset keeps all causal (window [" + lo + ", " + hi + "] ns is empty: clock drift or "
                        + "mismatched events)";
        return new Adjustment(domain, origin, offset, 0, null, method, residual, in + out + collectives,
                what + "; " + window);
    }

    /**
     * Collective operations after which every rank has entered: no rank leaves its k-th call of one of them before
     * every rank has entered its k-th. A rank is the pid of the slice's process; calls are matched by name and
     * order on each rank (all on one communicator, as a trace without communicator arguments must assume).
     */
    static final List<String> COLLECTIVE_NAMES = List.of("MPI_Barrier", "MPI_Allreduce", "MPI_Allgather",
            "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce_scatter",
            "MPI_Reduce_scatter_block");
    private final java.util.Set<Integer> collectivePartners = new java.util.TreeSet<>();
    private final java.util.Set<String> collectiveNamesSeen = new java.util.TreeSet<>();

    /**
     * {lo, hi, calls}: the offsets of {@code s} that keep its collective calls consistent with those of aligned
     * sources: per (name, k), the offset is at least (last entry among aligned ranks - first exit among s's
     * ranks) and at most (first exit among aligned ranks - last entry among s's ranks). O(n) after the numbering.
     */
    private long[] collectiveWindow(StoreWriter.Source s) throws SQLException {
        collectivePartners.clear();
        collectiveNamesSeen.clear();
        StringBuilder aligned = new StringBuilder();
        for (Integer id : done.keySet()) {
            aligned.append(aligned.isEmpty() ? "" : ", ").append(id);
        }
        if (aligned.isEmpty()) {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0};
        }
        StringBuilder names = new StringBuilder();
        for (String n : COLLECTIVE_NAMES) {
            names.append(names.isEmpty() ? "" : ", ").append('\'').append(n).append('\'');
        }
        String sql = """
                WITH c AS (
                    SELECT r.src, r.src = ? AS mine, p.pid AS rank, sl.name, sl.ts, sl.ts + sl.dur AS end_ts,
                           row_number() OVER (PARTITION BY r.src, p.pid, sl.name ORDER BY sl.ts, sl.id) AS k
                    FROM slice sl JOIN (%s) r(src, lo, hi) ON sl.id > r.lo AND sl.id <= r.hi
                    JOIN track t ON t.id = sl.track_id JOIN process p ON p.id = t.process_id
                    WHERE sl.name IN (%s) AND (r.src = ? OR r.src IN (%s))),
                g AS (SELECT name, k, mine, max(ts) AS last_entry, min(end_ts) AS first_exit,
                             count(*) AS calls, min(src) AS a_src, max(src) AS b_src
                      FROM c GROUP BY name, k, mine)
                SELECT x.name, y.last_entry - x.first_exit, y.first_exit - x.last_entry, x.calls + y.calls,
                       y.a_src, y.b_src
                FROM g x JOIN g y ON x.name = y.name AND x.k = y.k AND x.mine AND NOT y.mine""".formatted(
                rangesOf(Entity.SLICE), names, aligned);
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        long calls = 0;
        try (PreparedStatement ps = writer.connection().prepareStatement(sql)) {
            ps.setInt(1, s.id);
            ps.setInt(2, s.id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    collectiveNamesSeen.add(rs.getString(1));
                    lo = Math.max(lo, rs.getLong(2));
                    hi = Math.min(hi, rs.getLong(3));
                    calls += rs.getLong(4);
                    collectivePartners.add(rs.getInt(5));
                    collectivePartners.add(rs.getInt(6));
                }
            }
        }
        return new long[] {lo, hi, calls};
    }

    /** Aligns the first slice or instant named {@code name} of {@code s} with the earliest one of aligned sources. */
    private Adjustment byMarker(StoreWriter.Source s, String name) throws SQLException {
        Long mine = firstNamed(List.of(s), name);
        List<StoreWriter.Source> aligned = new ArrayList<>();
        for (StoreWriter.Source a : sources) {
            if (done.containsKey(a.id)) {
                aligned.add(a);
            }
        }
        Long theirs = firstNamed(aligned, name);
        if (mine == null || theirs == null) {
            return null;
        }
        Fact f = fact(s);
        return new Adjustment(f == null ? null : f.domain, f == null ? null : f.origin, theirs - mine, 0, null,
                MARKER, 0L, 1L, "first '" + name + "' at " + mine + " ns here, " + theirs + " ns in the aligned sources");
    }

    private Long firstNamed(List<StoreWriter.Source> of, String name) throws SQLException {
        if (of.isEmpty()) {
            return null;
        }
        StringBuilder where = new StringBuilder();
        StringBuilder whereInstant = new StringBuilder();
        for (StoreWriter.Source s : of) {
            long[] sl = s.idRange(Entity.SLICE);
            long[] in = s.idRange(Entity.INSTANT);
            where.append(where.isEmpty() ? "" : " OR ").append("(id > ").append(sl[0]).append(" AND id <= ")
                    .append(sl[1]).append(')');
            whereInstant.append(whereInstant.isEmpty() ? "" : " OR ").append("(id > ").append(in[0])
                    .append(" AND id <= ").append(in[1]).append(')');
        }
        String sql = "SELECT min(ts) FROM (SELECT ts FROM slice WHERE name = ? AND (" + where + ") UNION ALL "
                + "SELECT ts FROM instant WHERE name = ? AND (" + whereInstant + "))";
        try (PreparedStatement ps = writer.connection().prepareStatement(sql)) {
            ps.setString(1, name);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }

    private static String joined(java.util.Collection<Integer> ids) {
        StringBuilder b = new StringBuilder();
        for (Integer i : ids) {
            b.append(b.isEmpty() ? "" : ", ").append(i);
        }
        return b.toString();
    }

    /** {@code VALUES (source, lo, hi), ...}: the ids of {@code e} each source holds are (lo, hi]. */
    private String rangesOf(Entity e) {
        StringBuilder b = new StringBuilder("VALUES ");
        for (StoreWriter.Source s : sources) {
            long[] r = s.idRange(e);
            b.append(s == sources.get(0) ? "" : ", ").append('(').append(s.id).append(", ").append(r[0])
                    .append(", ").append(r[1]).append(')');
        }
        return b.toString();
    }

    // ---- applying ----------------------------------------------------------------------------------------

    /** The earliest time of a source on its own clock (slices, instants, counters), the origin of its drift. */
    private Long firstTime(StoreWriter.Source s) throws SQLException {
        long[] sl = s.idRange(Entity.SLICE);
        long[] in = s.idRange(Entity.INSTANT);
        long[] tr = s.idRange(Entity.TRACK);
        String sql = "SELECT min(t) FROM (SELECT min(ts) AS t FROM slice WHERE id > " + sl[0] + " AND id <= " + sl[1]
                + " UNION ALL SELECT min(ts) FROM instant WHERE id > " + in[0] + " AND id <= " + in[1]
                + " UNION ALL SELECT min(ts) FROM counter WHERE track_id > " + tr[0] + " AND track_id <= " + tr[1]
                + ")";
        try (Statement st = writer.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            long v = rs.getLong(1);
            return rs.wasNull() ? 0L : v;
        }
    }

    /** Rewrites every time of the source's rows; durations change only with drift. */
    private void apply(StoreWriter.Source s, Adjustment a) throws SQLException {
        if (a.offsetNs() == 0 && a.drift() == 0) {
            return;
        }
        List<String> updates = new ArrayList<>();
        updates.add(update("slice", "id", s.idRange(Entity.SLICE), a, List.of("ts"), "ts", "dur"));
        updates.add(update("instant", "id", s.idRange(Entity.INSTANT), a, List.of("ts"), null, null));
        updates.add(update("counter", "track_id", s.idRange(Entity.TRACK), a, List.of("ts"), null, null));
        updates.add(update("transfer", "id", s.idRange(Entity.TRANSFER), a, List.of("ts"), "ts", "dur"));
        updates.add(update("residency", "block_id", s.idRange(Entity.MEMORY_BLOCK), a, List.of("ts"), "ts", "dur"));
        updates.add(update("task", "id", s.idRange(Entity.TASK), a, List.of("submit_ts", "start_ts", "end_ts"),
                null, null));
        for (Map.Entry<String, Long> e : s.extraRowsEnd.entrySet()) {
            long start = s.extraRowsStart.getOrDefault(e.getKey(), -1L);
            if (e.getValue() > start) {
                String u = updateExtra(e.getKey(), start, e.getValue(), a);
                if (u != null) {
                    updates.add(u);
                }
            }
        }
        try (Statement st = writer.connection().createStatement()) {
            for (String u : updates) {
                if (u != null) {
                    st.execute(u);
                }
            }
        }
    }

    private static String shifted(String column, Adjustment a) {
        String base = "(" + column + " + (" + a.offsetNs() + "))";
        if (a.drift() == 0) {
            return base;
        }
        return "(" + base + " + CAST(round((" + column + " - (" + a.driftFromNs() + ")) * " + a.drift()
                + ") AS BIGINT))";
    }

    private static String update(String table, String key, long[] range, Adjustment a, List<String> times,
                                 String start, String dur) {
        if (range[1] <= range[0]) {
            return null;
        }
        StringBuilder set = new StringBuilder();
        for (String t : times) {
            set.append(set.isEmpty() ? "" : ", ").append(t).append(" = ").append(shifted(t, a));
        }
        if (dur != null && a.drift() != 0) {
            // the end moves with the clock too: the duration is the difference of the adjusted ends
            set.append(", ").append(dur).append(" = ").append(shifted("(" + start + " + " + dur + ")", a))
                    .append(" - ").append(shifted(start, a));
        }
        return "UPDATE " + table + " SET " + set + " WHERE " + key + " > " + range[0] + " AND " + key + " <= "
                + range[1];
    }

    /**
     * Extra tables: BIGINT columns named {@code ts} or {@code *_ts}, of the rows the source appended: row ids in
     * (afterRow, lastRow].
     */
    private String updateExtra(String table, long afterRow, long lastRow, Adjustment a) throws SQLException {
        List<String> times = new ArrayList<>();
        boolean hasDur = false;
        try (PreparedStatement ps = writer.connection().prepareStatement(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' AND "
                        + "table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String c = rs.getString(1);
                    if (!"BIGINT".equals(rs.getString(2))) {
                        continue;
                    }
                    if (c.equals("ts") || c.endsWith("_ts")) {
                        times.add(c);
                    } else if (c.equals("dur")) {
                        hasDur = true;
                    }
                }
            }
        }
        if (times.isEmpty()) {
            return null;
        }
        String u = update(table, "rowid", new long[] {afterRow, lastRow}, a, times,
                hasDur && times.contains("ts") ? "ts" : null, hasDur && times.contains("ts") ? "dur" : null);
        return u;
    }
}
