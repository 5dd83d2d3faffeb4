package org.hetscope.model;

/**
 * Why a reader kept an item only generically or skipped it: the closed list of import problems, stored by
 * {@link #id()} in the {@code skipped} table (documented in docs/schema.md, which lists them all). A reader adds
 * the specifics of its source as a short detail (an event phase, a table, a category) beside the reason, never
 * inside it; positions go to the location.
 */
public enum SkipReason {
    // damage in the input: the import keeps everything intact and ends with exit code 3
    DAMAGED_RECORD("damaged_record", Severity.DAMAGED_INPUT,
            "a record (event, line, row) that breaks the format's syntax or rules: skipped"),
    DAMAGED_PACKET("damaged_packet", Severity.DAMAGED_INPUT,
            "a damaged CTF packet: the rest of the packet (or stream) is lost"),
    DAMAGED_PAGE("damaged_page", Severity.DAMAGED_INPUT,
            "rows on a damaged SQLite page or after it: stepped over"),
    NOT_UTF8("not_utf8", Severity.DAMAGED_INPUT, "a line with bytes that are not UTF-8: read with them replaced"),
    LINE_TOO_LONG("line_too_long", Severity.DAMAGED_INPUT, "a line longer than the line limit: skipped"),
    TRUNCATED("truncated", Severity.DAMAGED_INPUT, "a record cut short at the end of its file: skipped"),
    TRAILING_DATA("trailing_data", Severity.DAMAGED_INPUT, "data after the end of the document: ignored"),
    IMPOSSIBLE_TIME("impossible_time", Severity.DAMAGED_INPUT,
            "times the format rules out (an end before its start, a negative duration): skipped or kept as 0 ns"),
    READING_STOPPED("reading_stopped", Severity.DAMAGED_INPUT,
            "damage stopped the read (kept with --keep-partial): the rest of the trace is missing"),

    // items not stored (or not linked) although the input is whole
    EVENTS_DISCARDED("events_discarded", Severity.DATA_LOSS, "events the tracer discarded (its ring buffer was full)"),
    PACKETS_LOST("packets_lost", Severity.DATA_LOSS, "packets the tracer lost (a gap in the packet sequence numbers)"),
    UNMATCHED_END("unmatched_end", Severity.DATA_LOSS,
            "an end without its begin (the trace starts inside it): not stored as a slice"),
    UNENDED_INTERVAL("unended_interval", Severity.DATA_LOSS,
            "a begin whose end never came, of a kind that is not closed at the end of the trace: not stored"),
    INCOMPLETE("incomplete", Severity.DATA_LOSS,
            "an operation without its completion record (unfinished when the program ended, or failed): not stored"),
    UNKNOWN_RECORD("unknown_record", Severity.DATA_LOSS, "a record of a kind the reader does not know: skipped"),
    UNKNOWN_REFERENCE("unknown_reference", Severity.DATA_LOSS,
            "a record referring to something the trace lacks (a handle, dispatch, call or allocation made before "
                    + "tracing): skipped or kept unlinked"),
    UNKNOWN_THREAD("unknown_thread", Severity.DATA_LOSS,
            "CPU time or events on a CPU before its first sched_switch (the thread is unknown): not attributed"),
    BAD_VALUE("bad_value", Severity.DATA_LOSS, "a value that is not the number the record needs: skipped"),
    UNSUPPORTED_LAYOUT("unsupported_layout", Severity.DATA_LOSS,
            "a table or record layout this reader cannot read (another producer version): skipped"),
    TOO_LARGE("too_large", Severity.DATA_LOSS, "a value too large to keep: skipped"),
    NOT_CAPTURED("not_captured", Severity.DATA_LOSS,
            "a kernel or work-item path the capture could not instrument or rebuild"),

    // kept, generically or adjusted
    UNENDED_SLICE("unended_slice", Severity.INFO,
            "a begin without its end (tracing stopped inside it): closed at the end of the trace"),
    KEPT_GENERIC("kept_generic", Severity.INFO,
            "an event the reader does not map to the model: kept generically (instant, generic slice, trace_info)"),
    IGNORED_RECORD("ignored_record", Severity.INFO,
            "a record read past on purpose (naming or metadata records the store does not need)"),
    ROUNDED_TIME("rounded_time", Severity.INFO, "a time with digits below 1 ns: rounded half-even"),
    MISSING_BYTES("missing_bytes", Severity.INFO, "a copy or fill without a byte count: 0 bytes stored"),
    BYTES_FROM_CALL("bytes_from_call", Severity.INFO,
            "a copy or fill whose byte count comes from its API call's arguments"),
    UNLINKED("unlinked", Severity.INFO,
            "an activity or call whose correlation partner is missing from the trace: kept without a flow"),
    DUPLICATE_ID("duplicate_id", Severity.INFO,
            "an id used again where it must be unique: the first use is linked, later ones are not"),
    UNMATCHED_FLOW("unmatched_flow", Severity.INFO, "a flow or link with only one end in the trace: not drawn"),
    ENDS_BEFORE_START("ends_before_start", Severity.INFO,
            "an interval whose end precedes its start where producers write such: kept with 0 ns or as an instant"),
    MERGED_RECORD("merged_record", Severity.INFO, "a record of a call recorded twice: merged into the other"),
    INCONSISTENT_STATE("inconsistent_state", Severity.INFO,
            "an event that contradicts the state before it (events lost?): kept as far as it makes sense"),
    UNRELEASED("unreleased", Severity.INFO, "an object never released: its lifetime ends with the trace"),
    CLOCK_NOT_ALIGNED("clock_not_aligned", Severity.INFO,
            "a clock offset that cannot be applied: times kept without it"),
    TOLERATED("tolerated", Severity.INFO,
            "a deviation the format allows (such as a JSON trace without its closing ']')");

    /** How bad a reason is: damage in the input ends an import with exit code 3. */
    public enum Severity {
        /** Kept, generically or adjusted. */
        INFO,
        /** Not stored or not linked, although the input is whole. */
        DATA_LOSS,
        /** Damage in the input, stepped over. */
        DAMAGED_INPUT;

        /** The stored form: {@code info}, {@code data_loss}, {@code damaged_input}. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String id;
    private final Severity severity;
    private final String description;

    SkipReason(String id, Severity severity, String description) {
        this.id = id;
        this.severity = severity;
        this.description = description;
    }

    /** The stored identifier, e.g. {@code unended_slice}. */
    public String id() {
        return id;
    }

    public Severity severity() {
        return severity;
    }

    /** One line for people, as docs/schema.md lists it. */
    public String description() {
        return description;
    }

    public boolean damage() {
        return severity == Severity.DAMAGED_INPUT;
    }

    /** The reason stored as {@code id}, or null. */
    public static SkipReason byId(String id) {
        for (SkipReason r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        return null;
    }
}
