package org.hetscope.formats.chrome;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.InputLimits;
import org.hetscope.model.Instant;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.LongLongMap;
import org.hetscope.model.Nanos;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.SliceStack;
import org.hetscope.model.TraceSink;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;

/**
 * Streams one Chrome Trace Event JSON file (array or object form, plain or gzip) into a {@link TraceSink}. The
 * document is never held in memory: events are decoded one at a time; only what must be matched later (open B
 * events, async begins, flow ends, correlation ids) is kept.
 */
final class ChromeTraceReader {
    /** Deepest nesting of arrays and objects read; deeper values are skipped as damage (see {@link #resync}). */
    static final int MAX_DEPTH = 1000;

    /**
     * Longest string or member name, in characters: a longer one ends the parser's token, and the event holding it
     * is skipped and counted instead of filling the heap ({@link InputLimits#maxTokenBytes}).
     */
    private final int maxToken = InputLimits.maxTokenBytes();
    private final JsonFactory json = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(maxToken)
                    .maxNameLength(maxToken).maxNestingDepth(MAX_DEPTH).build())
            // a parser is replaced after a skipped token (resync): closing the old one must not close the file
            .disable(com.fasterxml.jackson.core.StreamReadFeature.AUTO_CLOSE_SOURCE)
            .build();

    private final Path file;
    private final TraceSink sink;
    private final Progress progress;
    private final ChromeTracks tree;
    private final EventFields ev = new EventFields();
    private final StringBuilder argsText = new StringBuilder(256);
    private final SkipTally skipped = new SkipTally();
    /** Open 'B' events per (pid, tid). */
    private final SliceStack<String, OpenSlice> openB;
    private final Map<String, OpenSlice> openAsync = new HashMap<>();
    private final SliceIndex sliceIndex = new SliceIndex();
    private final List<FlowEnd> flowEnds = new ArrayList<>();
    /** Kineto's correlation ids are unique in the trace (its GPU events carry the device as pid): one process. */
    private final FlowLinker correlationFlows;
    /** Byte counts that API calls carry ("size" in ROCm runtime args), for copies that lack their own. */
    private final LongLongMap apiBytesByCorrelation = new LongLongMap();
    /** Copies without a byte count, completed from their API call's size at the end. */
    private final List<TransferWithoutBytes> transfersWithoutBytes = new ArrayList<>();

    private record TransferWithoutBytes(Transfer transfer, String where) {}
    private CountingStream counting;
    /** The JSON text as the parser reads it (the file, or what gzip makes of it), counted for positions. */
    private CountingStream text;
    /** What the parser reads: the text, or after a {@link #resync} what was left of it behind a prefix. */
    private InputStream source;
    private ParserInput input;
    private Gunzip gunzip;
    private boolean gzip;
    private boolean objectForm;
    /** The array form ended without its closing ']' (allowed). */
    private boolean endedWithoutBracket;
    /** Added to the parser's byte offsets and lines: nonzero once a {@link #resync} started a new parser. */
    private long offsetBase;
    private long lineBase;
    /** The latest time of any event (ts, or ts + dur), where unended 'B' slices are closed. */
    private long traceEnd = Long.MIN_VALUE;
    private JsonParser parser;
    private long events;
    private long kernelCounters;

    /** A B event (or async b) waiting for its end. */
    private record OpenSlice(long trackId, String key, String name, String cat, long ts, String args, long offset,
                             long line) {}

    /** An s/t/f flow event, bound to a slice once all slices are known. */
    private record FlowEnd(String cat, String id, char ph, String threadKey, long ts, boolean enclosing,
                           String where) {}

    ChromeTraceReader(Path file, TraceSink sink, Progress progress) {
        this.file = file;
        this.sink = sink;
        this.progress = progress;
        this.tree = new ChromeTracks(sink);
        this.correlationFlows = new FlowLinker(sink, true, 0);
        this.openB = new SliceStack<>(skipped, UNENDED, STRAY_END);
    }

    void read() throws IOException, TraceFormatException {
        long size = Files.size(file);
        progress.start("import " + file.getFileName(), size);
        try (InputStream raw = Files.newInputStream(file)) {
            counting = new CountingStream(new BufferedInputStream(raw, 1 << 16));
            counting.mark(2);
            int b0 = counting.read();
            int b1 = counting.read();
            counting.reset();
            if (b0 == 0x1f && b1 == 0x8b) {
                gzip = true;
                try {
                    gunzip = new Gunzip(counting);
                } catch (IOException e) {
                    throw new TraceFormatException(file, "compressed byte " + counting.count,
                            "damaged gzip header (" + e.getMessage() + ")");
                }
                text = new CountingStream(new BufferedInputStream(gunzip, 1 << 16));
            } else {
                text = counting;
            }
            source = text;
            input = new ParserInput(source);
            TraceFormatException failure = null;
            try {
                // the parser reads the first bytes at once, to detect the encoding
                parser = json.createParser(input);
                readDocument();
                checkEnd();
            } catch (TraceFormatException e) {
                failure = e;
            } catch (JsonProcessingException e) {
                failure = damage(plain(e), e.getLocation());
            } catch (ZipException e) {
                failure = new TraceFormatException(file, gzipPosition(), "damaged gzip data (" + e.getMessage()
                        + "); nothing after it can be read");
            } catch (java.io.EOFException e) {
                failure = new TraceFormatException(file, gzip ? gzipPosition() : null, gzip
                        ? "the file ends inside the gzip stream (cut short?)" : "the file ends early");
            }
            // What was read before any damage is still placed (tracks, flows), then the damage is reported.
            try {
                finish();
            } catch (TraceFormatException e) {
                if (failure == null) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** Where decompression failed: in the compressed file and in the text it had given so far. */
    private String gzipPosition() {
        return "compressed byte " + gunzip.consumed() + " (decompressed byte " + gunzip.produced + ")";
    }

    /** A parser's message without Jackson's internals (the names of its settings). */
    private String plain(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return switch (constraint(e)) {
                case STRING -> "a string longer than " + maxToken + " characters (the limit: -D"
                        + InputLimits.MAX_TOKEN_PROPERTY + "=N)";
                case NAME -> "a member name longer than " + maxToken + " characters (the limit: -D"
                        + InputLimits.MAX_TOKEN_PROPERTY + "=N)";
                case DEPTH -> "arrays or objects nested deeper than " + MAX_DEPTH + " levels";
                case NUMBER -> "a number with too many digits";
                case OTHER -> "a value beyond the JSON reader's limits";
            };
        }
        String m = String.valueOf(e.getOriginalMessage());
        // Jackson names its own settings and classes in some messages; the user needs none of that.
        for (String tail : new String[] {" (from `", " (start marker at ", "\n at [Source"}) {
            int cut = m.indexOf(tail);
            if (cut > 0) {
                m = m.substring(0, cut);
            }
        }
        return m;
    }

    private enum Constraint { STRING, NAME, DEPTH, NUMBER, OTHER }

    private static Constraint constraint(JsonProcessingException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.startsWith("String value length")) {
            return Constraint.STRING;
        }
        if (m.startsWith("Name length")) {
            return Constraint.NAME;
        }
        if (m.contains("nesting depth")) {
            return Constraint.DEPTH;
        }
        if (m.startsWith("Number value length")) {
            return Constraint.NUMBER;
        }
        return Constraint.OTHER;
    }

    /** After the document: anything but white space there is damage (the document is kept, the rest ignored). */
    private void checkEnd() throws IOException {
        if (endedWithoutBracket) {
            return;
        }
        String end = position(parser.currentLocation());
        JsonToken t;
        try {
            t = parser.nextToken();
        } catch (JsonProcessingException e) {
            t = JsonToken.NOT_AVAILABLE;
        }
        if (t != null) {
            count(SkipReason.TRAILING_DATA, "JSON", end);
        }
    }

    /**
     * Steps over a value the parser gave up on (a string or name past the length limit, nesting past
     * {@link #MAX_DEPTH}), whose bytes it has half read: scans the raw text on to where the value at
     * {@code depth} ends, then reads on with a new parser that starts there in the same state, so that the trace
     * around it is kept. {@code depth} 1 resumes in the top-level container, 2 in the object form's event array.
     */
    private void resync(StreamConstraintsException e, int depth) throws IOException {
        Constraint kind = constraint(e);
        int open = parser.getParsingContext() == null ? 0 : parser.getParsingContext().getNestingDepth();
        JsonLocation at = parser.currentLocation();
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        parser.releaseBuffered(held);
        parser.close();
        byte[] released = held.toByteArray();
        // the parser's offset is what it took from its input: the released bytes start there
        long restAt = offsetBase + at.getByteOffset();
        long line = lineBase + Math.max(1, at.getLineNr());
        // A string is checked as it grows and once more after its closing quote: the parser may stand inside it or
        // just after it.
        boolean inString = (kind == Constraint.STRING || kind == Constraint.NAME)
                && !input.endsWithClosingQuote(released.length);
        boolean escaped = false;
        InputStream rest = new Concat(released, source);
        byte[] buf = new byte[1 << 16];
        byte[] leftover = new byte[0];
        int n;
        // Up to the ',' or closing bracket that ends the current element of the container at `depth`.
        scan:
        while ((n = rest.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                byte c = buf[i];
                if (inString) {
                    if (escaped) {
                        escaped = false;
                    } else if (c == '\\') {
                        escaped = true;
                    } else if (c == '"') {
                        inString = false;
                    }
                    continue;
                }
                if (c == '\n') {
                    line++;
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    open++;
                } else if (((c == '}' || c == ']') && open-- <= depth) || (c == ',' && open <= depth)) {
                    leftover = java.util.Arrays.copyOfRange(buf, i, n);
                    restAt += i;
                    break scan;
                }
            }
            restAt += n;
        }
        // The new parser first reads a prefix that puts it at the same depth, then the text after the value.
        byte[] prefix = (depth == 1 ? (objectForm ? "{\"\":0" : "[0") : "{\"traceEvents\":[0")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        // the scan read `rest` (released bytes, then source) up to leftover: the source is where the text goes on
        source = Concat.of(prefix, leftover, source);
        input = new ParserInput(source);
        parser = json.createParser(input);
        for (int k = depth == 1 ? (objectForm ? 3 : 2) : 4; k > 0; k--) {
            parser.nextToken();
        }
        offsetBase = restAt - prefix.length;
        lineBase = line - 1;
    }

    private TraceFormatException damage(String reason, JsonLocation loc) {
        return new TraceFormatException(file, position(loc), reason);
    }

    private String position(JsonLocation loc) {
        if (loc == null) {
            return null;
        }
        String where = (gzip ? "decompressed byte " : "byte ") + Math.max(0, offsetBase + loc.getByteOffset())
                + " (line " + (lineBase + loc.getLineNr());
        // columns are the parser's own only until a resync (it starts a new parser mid-line)
        return where + (lineBase == 0 && offsetBase == 0 ? ", column " + loc.getColumnNr() + ")" : ")");
    }

    private String eventPosition() {
        return (gzip ? "decompressed byte " : "byte ") + ev.offset + " (line " + ev.line + ")";
    }

    private void readDocument() throws IOException, TraceFormatException {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.START_ARRAY) {
            readEvents(true);
        } else if (t == JsonToken.START_OBJECT) {
            objectForm = true;
            readObjectForm();
        } else {
            throw damage("not a Chrome trace: expected '[' or '{' at the start", parser.currentLocation());
        }
    }

    private void readObjectForm() throws IOException, TraceFormatException {
        JsonToken t;
        while ((t = nextTopLevelField()) == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            try {
                readTopLevelField(key);
            } catch (StreamConstraintsException e) {
                count(SkipReason.DAMAGED_RECORD, "top-level field '" + key + "': " + plain(e),
                        position(parser.currentLocation()));
                resync(e, 1);
            }
        }
        if (t == null) {
            throw damage("file ends before the closing '}' of the trace object", parser.currentLocation());
        }
        if (!sawEvents) {
            throw damage("no 'traceEvents' array in the trace object", parser.currentLocation());
        }
    }

    /** The next member of the trace object; a member name past the length limit is skipped with its value. */
    private JsonToken nextTopLevelField() throws IOException {
        while (true) {
            try {
                return parser.nextToken();
            } catch (StreamConstraintsException e) {
                count(SkipReason.DAMAGED_RECORD, "top-level field: " + plain(e), position(parser.currentLocation()));
                resync(e, 1);
            }
        }
    }

    private boolean sawEvents;

    private void readTopLevelField(String key) throws IOException, TraceFormatException {
        JsonToken v = parser.nextToken();
        if (v == null) {
            throw damage("file ends after field '" + key + "'", parser.currentLocation());
        }
        switch (key) {
            case "traceEvents" -> {
                if (v != JsonToken.START_ARRAY) {
                    throw damage("'traceEvents' must be an array", parser.currentLocation());
                }
                sawEvents = true;
                readEvents(false);
            }
            case "deviceProperties" -> readDeviceProperties(v);
            default -> {
                if (v.isScalarValue()) {
                    sink.info("chrome." + key, parser.getText());
                } else {
                    argsText.setLength(0);
                    copy(v, TOP_LEVEL_KEPT);
                    if (!copyOverflow && argsText.length() <= TOP_LEVEL_KEPT) {
                        sink.info("chrome." + key, argsText.toString());
                    } else {
                        count(SkipReason.TOO_LARGE, "top-level field '" + key + "'", position(
                                parser.currentLocation()));
                    }
                }
            }
        }
    }

    private void readDeviceProperties(JsonToken v) throws IOException, TraceFormatException {
        if (v != JsonToken.START_ARRAY) {
            parser.skipChildren();
            count(SkipReason.BAD_VALUE, "deviceProperties that is not an array", position(parser.currentLocation()));
            return;
        }
        JsonToken t;
        while ((t = parser.nextToken()) == JsonToken.START_OBJECT) {
            Map<String, String> props = new LinkedHashMap<>();
            JsonToken f;
            while ((f = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                JsonToken val = parser.nextToken();
                if (val == null) {
                    break;
                }
                if (val.isScalarValue()) {
                    props.put(key, parser.getText());
                } else {
                    argsText.setLength(0);
                    copy(val, maxToken);
                    props.put(key, argsText.toString());
                }
            }
            if (f == null) {
                throw damage("file ends inside deviceProperties", parser.currentLocation());
            }
            String id = props.get("id");
            if (id == null) {
                count(SkipReason.BAD_VALUE, "device properties without an id", position(parser.currentLocation()));
                continue;
            }
            try {
                tree.deviceProperties(Long.parseLong(id), props);
            } catch (NumberFormatException e) {
                count(SkipReason.BAD_VALUE, "device properties with a non-numeric id",
                        position(parser.currentLocation()));
            }
        }
        if (t != JsonToken.END_ARRAY) {
            throw damage("deviceProperties must hold objects", parser.currentLocation());
        }
    }

    private void readEvents(boolean arrayForm) throws IOException, TraceFormatException {
        int depth = arrayForm ? 1 : 2;
        while (true) {
            JsonToken t;
            try {
                t = parser.nextToken();
            } catch (StreamConstraintsException e) {
                count(SkipReason.DAMAGED_RECORD, "trace event: " + plain(e), position(parser.currentLocation()));
                resync(e, depth);
                continue;
            } catch (JsonProcessingException e) {
                if (arrayForm && String.valueOf(e.getOriginalMessage()).contains("end-of-input")) {
                    // The array form may legally end without its closing ']' (a trace cut at a clean event edge).
                    count(SkipReason.TOLERATED, "missing closing ']'", position(parser.currentLocation()));
                    endedWithoutBracket = true;
                    return;
                }
                throw e;
            }
            if (t == JsonToken.END_ARRAY) {
                return;
            }
            if (t == null) {
                if (arrayForm) {
                    count(SkipReason.TOLERATED, "missing closing ']'", position(parser.currentLocation()));
                    endedWithoutBracket = true;
                    return;
                }
                throw damage("file ends inside 'traceEvents'", parser.currentLocation());
            }
            try {
                if (t != JsonToken.START_OBJECT) {
                    String where = position(parser.currentTokenLocation());
                    parser.skipChildren();
                    count(SkipReason.DAMAGED_RECORD, "trace event that is not an object", where);
                    continue;
                }
                readEvent();
            } catch (StreamConstraintsException e) {
                count(SkipReason.DAMAGED_RECORD, "trace event: " + plain(e),
                        t == JsonToken.START_OBJECT ? eventPosition()
                        : position(parser.currentTokenLocation()));
                resync(e, depth);
                continue;
            }
            if (ev.bad != null) {
                count(SkipReason.DAMAGED_RECORD, "trace event: " + ev.bad, eventPosition());
            } else {
                dispatch();
            }
            if ((++events & 0x3fff) == 0) {
                progress.advance(counting.count);
            }
        }
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> t.toString();
        };
    }

    private void readEvent() throws IOException, TraceFormatException {
        ev.reset();
        JsonLocation start = parser.currentTokenLocation();
        ev.offset = offsetBase + start.getByteOffset();
        ev.line = lineBase + start.getLineNr();
        JsonToken t;
        while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            JsonToken v = parser.nextToken();
            if (v == null) {
                break;
            }
            switch (key) {
                case "ph" -> ev.ph = text(v, key);
                case "cat" -> ev.cat = v == JsonToken.VALUE_NULL ? null : text(v, key);
                case "name" -> ev.name = v == JsonToken.VALUE_NULL ? null : text(v, key);
                case "pid" -> ev.pid = idText(v, key);
                case "tid" -> ev.tid = idText(v, key);
                case "ts" -> {
                    ev.ts = micros(v, key);
                    ev.hasTs = true;
                }
                case "dur" -> {
                    ev.dur = micros(v, key);
                    ev.hasDur = true;
                }
                case "id" -> ev.id = idText(v, key);
                case "id2" -> ev.id = id2(v);
                case "bp" -> ev.bp = text(v, key);
                case "s" -> ev.scope = text(v, key);
                case "args" -> readArgs(v);
                default -> parser.skipChildren();
            }
        }
        if (t == null) {
            throw damage("file ends inside a trace event that starts at " + eventPosition(),
                    parser.currentLocation());
        }
    }

    /**
     * Marks the event as bad (it is skipped and counted once read to its end) and steps over the value, so that the
     * events after it are read.
     */
    private void bad(JsonToken v, String reason) throws IOException {
        if (ev.bad == null) {
            ev.bad = reason;
        }
        parser.skipChildren();
    }

    private String text(JsonToken v, String key) throws IOException {
        if (v != JsonToken.VALUE_STRING) {
            bad(v, "'" + key + "' must be a string, found " + describe(v));
            return null;
        }
        return parser.getText();
    }

    private String idText(JsonToken v, String key) throws IOException {
        if (v == JsonToken.VALUE_STRING || v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getText();
        }
        bad(v, "'" + key + "' must be a number or a string, found " + describe(v));
        return null;
    }

    private String id2(JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            bad(v, "'id2' must be an object, found " + describe(v));
            return null;
        }
        String id = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String scope = parser.currentName();
            JsonToken val = parser.nextToken();
            if (val != null && val.isScalarValue()) {
                id = scope + ":" + parser.getText();
            } else {
                parser.skipChildren();
            }
        }
        return id;
    }

    private long micros(JsonToken v, String key) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) {
            bad(v, "'" + key + "' must be a number of microseconds, found " + describe(v));
            return 0;
        }
        long ns;
        try {
            ns = Nanos.fromMicros(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
        } catch (Nanos.BadNumber e) {
            bad(v, "'" + key + "': " + e.getMessage());
            return 0;
        }
        if (v == JsonToken.VALUE_NUMBER_FLOAT && Nanos.lastRounded()) {
            count(SkipReason.ROUNDED_TIME, null, position(parser.currentTokenLocation()));
        }
        return ns;
    }

    private void readArgs(JsonToken v) throws IOException {
        argsText.setLength(0);
        copyLimit = maxToken;
        copyOverflow = false;
        if (v != JsonToken.START_OBJECT) {
            argsText.append("{\"value\":");
            copyValue(v, argsText, 0, false);
            argsText.append('}');
        } else {
            copyValue(v, argsText, 0, true);
        }
        if (copyOverflow) {
            bad(v, "'args' longer than " + maxToken + " characters (the limit: -D" + InputLimits.MAX_TOKEN_PROPERTY
                    + "=N)");
            argsText.setLength(0);
            return;
        }
        ev.args = v == JsonToken.START_OBJECT && argsText.length() <= 2 ? null : argsText.toString();
    }

    /** Top-level members of the trace object longer than this (as JSON text) are counted, not kept. */
    private static final int TOP_LEVEL_KEPT = 65536;
    /** How long a copy may grow before the rest of the value is skipped ({@link #copyOverflow} tells). */
    private int copyLimit = Integer.MAX_VALUE;
    private boolean copyOverflow;

    /** Copies a value into argsText, up to {@code limit} characters. */
    private void copy(JsonToken v, int limit) throws IOException {
        copyLimit = limit;
        copyOverflow = false;
        copyValue(v, argsText, 0, false);
    }

    /** Skips what is left of the array or object the parser stands in. */
    private void skipRest() throws IOException {
        int depth = 1;
        while (depth > 0) {
            JsonToken t = parser.nextToken();
            if (t == null) {
                return;
            }
            if (t.isStructStart()) {
                depth++;
            } else if (t.isStructEnd()) {
                depth--;
            }
        }
    }

    /** Copies a JSON value as compact text; at depth 1 of args it also picks out the values the model needs. */
    private void copyValue(JsonToken v, StringBuilder out, int depth, boolean pick) throws IOException {
        switch (v) {
            case START_OBJECT -> {
                out.append('{');
                boolean first = true;
                JsonToken t;
                while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
                    if (out.length() > copyLimit) {
                        copyOverflow = true;
                        skipRest();
                        return;
                    }
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    String key = parser.currentName();
                    JsonText.quote(out, key);
                    out.append(':');
                    JsonToken val = parser.nextToken();
                    if (val == null) {
                        return;
                    }
                    if (pick && depth == 0) {
                        pickArg(key, val);
                    }
                    copyValue(val, out, depth + 1, pick && depth == 0 && isDimension(key));
                }
                if (t == null) {
                    return;
                }
                out.append('}');
            }
            case START_ARRAY -> {
                out.append('[');
                boolean first = true;
                JsonToken t;
                int index = 0;
                while ((t = parser.nextToken()) != JsonToken.END_ARRAY && t != null) {
                    if (out.length() > copyLimit) {
                        copyOverflow = true;
                        parser.skipChildren();
                        skipRest();
                        return;
                    }
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    if (pick && t == JsonToken.VALUE_NUMBER_INT) {
                        try {
                            pickDimension(index, parser.getLongValue());
                        } catch (com.fasterxml.jackson.core.exc.InputCoercionException e) {
                            bad(t, "'" + dimensionKey + "' holds a number out of range");
                        }
                    }
                    index++;
                    copyValue(t, out, depth + 1, false);
                }
                out.append(']');
            }
            case VALUE_STRING ->
                    JsonText.quote(out, parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                    out.append(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
            case VALUE_TRUE -> out.append("true");
            case VALUE_FALSE -> out.append("false");
            case VALUE_NULL -> out.append("null");
            default -> out.append("null");
        }
    }

    private String dimensionKey;

    private boolean isDimension(String key) {
        if (key.equals("grid") || key.equals("block")) {
            dimensionKey = key;
            return true;
        }
        return false;
    }

    private void pickDimension(int index, long value) {
        if (index >= 3) {
            return;
        }
        if ("grid".equals(dimensionKey)) {
            ev.grid[index] = value;
            ev.gridLen = index + 1;
        } else {
            ev.block[index] = value;
            ev.blockLen = index + 1;
        }
    }

    private void pickArg(String key, JsonToken val) throws IOException {
        try {
            pickNumberArg(key, val);
        } catch (com.fasterxml.jackson.core.exc.InputCoercionException e) {
            bad(val, "args '" + key + "' holds a number out of range");
        }
    }

    private void pickNumberArg(String key, JsonToken val) throws IOException {
        boolean integer = val == JsonToken.VALUE_NUMBER_INT;
        if (integer || val == JsonToken.VALUE_NUMBER_FLOAT) {
            ev.addNumeric(key, parser.getDoubleValue());
        }
        switch (key) {
            case "correlation" -> {
                if (integer) {
                    ev.correlation = parser.getLongValue();
                    ev.hasCorrelation = true;
                }
            }
            case "device" -> {
                if (integer) {
                    ev.device = parser.getLongValue();
                    ev.hasDevice = true;
                }
            }
            case "stream" -> {
                if (integer) {
                    ev.stream = parser.getLongValue();
                    ev.hasStream = true;
                } else if (val == JsonToken.VALUE_STRING) {
                    Long s = parseLooseLong(parser.getText());
                    if (s != null) {
                        ev.stream = s;
                        ev.hasStream = true;
                    }
                }
            }
            case "bytes" -> {
                if (integer) {
                    ev.bytes = parser.getLongValue();
                    ev.hasBytes = true;
                }
            }
            case "size" -> {
                if (!ev.hasBytes && val == JsonToken.VALUE_STRING) {
                    Long s = parseLooseLong(parser.getText());
                    if (s != null) {
                        ev.bytes = s;
                        ev.hasBytes = true;
                    }
                }
            }
            case "kind" -> {
                if (val == JsonToken.VALUE_STRING) {
                    ev.kindArg = parser.getText();
                }
            }
            case "registers per thread" -> {
                if (integer) {
                    ev.registers = parser.getIntValue();
                }
            }
            case "shared memory" -> {
                if (integer) {
                    ev.sharedMemory = parser.getLongValue();
                }
            }
            case "name" -> {
                if (val == JsonToken.VALUE_STRING) {
                    ev.nameArg = parser.getText();
                }
            }
            case "labels" -> {
                if (val == JsonToken.VALUE_STRING) {
                    ev.labelsArg = parser.getText();
                }
            }
            case "sort_index" -> {
                if (integer) {
                    ev.sortIndex = parser.getLongValue();
                    ev.hasSortIndex = true;
                }
            }
            default -> { }
        }
    }

    private static Long parseLooseLong(String s) {
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---- mapping one event onto the model ----

    private void dispatch() {
        String ph = ev.ph;
        if (ph == null) {
            count(SkipReason.KEPT_GENERIC, "event without 'ph' (instant)", eventPosition());
            generic("?");
            return;
        }
        if (ph.length() != 1) {
            count(SkipReason.KEPT_GENERIC, "unknown phase '" + ph + "' (instant)", eventPosition());
            generic(ph);
            return;
        }
        char p = ph.charAt(0);
        if (p != 'M' && !ev.hasTs) {
            count(SkipReason.DAMAGED_RECORD, "trace event: phase '" + ph + "' without 'ts'", eventPosition());
            return;
        }
        if (ev.hasTs) {
            // a sum past Long.MAX_VALUE wraps below ts and is ignored
            traceEnd = Math.max(traceEnd, Math.max(ev.ts, ev.hasDur ? ev.ts + ev.dur : ev.ts));
        }
        switch (p) {
            case 'X' -> complete();
            case 'B' -> begin();
            case 'E' -> end();
            case 'i', 'I' -> instant();
            case 'C' -> counter();
            case 'b' -> asyncBegin();
            case 'e' -> asyncEnd();
            case 'n' -> asyncInstant();
            case 's', 't', 'f' -> flowEnd(p);
            case 'M' -> metadata();
            default -> {
                count(SkipReason.KEPT_GENERIC, "phase '" + ph + "' (instant)", eventPosition());
                generic(ph);
            }
        }
    }

    private String pid() {
        return ev.pid == null ? "0" : ev.pid;
    }

    private String tid() {
        return ev.tid == null ? "0" : ev.tid;
    }

    private static boolean isGpuCategory(String cat) {
        if (cat == null) {
            return false;
        }
        return switch (cat) {
            case "kernel", "gpu_memcpy", "gpu_memset", "cuda_sync", "gpu_user_annotation", "cuda_profiler_range",
                 "Kernel", "Memcpy", "Memset" -> true;
            default -> false;
        };
    }

    private static Category categoryOf(String cat) {
        if (cat == null) {
            return Category.OTHER;
        }
        return switch (cat) {
            case "cpu_op", "python_function", "operator" -> Category.CPU_OP;
            case "cuda_runtime", "cuda_driver", "hip_runtime", "hip_driver", "runtime" -> Category.API;
            case "kernel", "Kernel", "cuda_profiler_range" -> Category.KERNEL;
            case "gpu_memcpy", "Memcpy" -> Category.MEMCPY;
            case "gpu_memset", "Memset" -> Category.MEMSET;
            case "cuda_sync" -> Category.SYNC;
            case "user_annotation", "gpu_user_annotation" -> Category.ANNOTATION;
            default -> Category.OTHER;
        };
    }

    private static String apiFamily(String cat, String name) {
        boolean hip = name != null && (name.startsWith("hip") || name.startsWith("hsa"));
        boolean driver = cat.endsWith("driver");
        if (hip) {
            return driver ? "HIP driver" : "HIP runtime";
        }
        return driver ? "CUDA driver" : "CUDA runtime";
    }

    /** The track a slice or instant of the current event belongs on. */
    private long trackFor(Category category) {
        String cat = ev.cat;
        if (isGpuCategory(cat)) {
            Long device = ev.hasDevice ? Long.valueOf(ev.device) : parseLooseLong(pid());
            Long stream = ev.hasStream ? Long.valueOf(ev.stream) : parseLooseLong(tid());
            if (device != null && stream != null) {
                ChromeTracks.Dev d = tree.device(device);
                return tree.streamTrack(d, stream);
            }
        }
        ChromeTracks.Thr t = tree.thread(pid(), tid());
        if (category == Category.API) {
            return tree.apiTrack(t, apiFamily(cat, ev.name));
        }
        return t.trackId;
    }

    private String name() {
        return ev.name == null ? "" : ev.name;
    }

    private void complete() {
        if (!ev.hasDur) {
            count(SkipReason.DAMAGED_RECORD, "trace event: complete event ('X') without 'dur'", eventPosition());
            return;
        }
        if (ev.dur < 0) {
            count(SkipReason.IMPOSSIBLE_TIME, "complete event ('X') with a negative 'dur'", eventPosition());
            return;
        }
        Category category = categoryOf(ev.cat);
        if (category == Category.OTHER) {
            count(SkipReason.KEPT_GENERIC, "slice of category '" + ev.cat + "' (generic slice)", eventPosition());
        }
        long track = trackFor(category);
        emitSlice(track, ev.ts, ev.dur, name(), category, ev.cat, ev.args);
    }

    private void emitSlice(long track, long ts, long dur, String name, Category category, String cat, String args) {
        long id = sink.newId(Entity.SLICE);
        Long corr = ev.hasCorrelation ? ev.correlation : null;
        sink.slice(new Slice(id, track, ts, dur, name, category, cat, -1, corr, args));
        if (ev.pid != null || ev.tid != null) {
            sliceIndex.add(pid() + '\u0000' + tid(), ts, dur, id);
        }
        switch (category) {
            case KERNEL -> kernel(id);
            case MEMCPY -> transfer(id, ts, dur, transferKind(name));
            case MEMSET -> transfer(id, ts, dur, TransferKind.MEMSET);
            default -> { }
        }
        if (ev.hasCorrelation) {
            if (category == Category.API) {
                correlationFlows.call(FlowLinker.ONE_PROCESS, ev.correlation, id);
                if (ev.hasBytes) {
                    apiBytesByCorrelation.putIfAbsent(ev.correlation, ev.bytes);
                }
            } else if (isGpuCategory(cat)) {
                correlationFlows.activity(FlowLinker.ONE_PROCESS, ev.correlation, id,
                        category == Category.SYNC ? "sync" : "launch");
            }
        }
    }

    private void kernel(long sliceId) {
        Long device = ev.hasDevice ? Long.valueOf(ev.device) : parseLooseLong(pid());
        Long deviceId = device == null ? null : tree.device(device).id;
        Long stream = ev.hasStream ? Long.valueOf(ev.stream) : parseLooseLong(tid());
        Dim3 grid = ev.gridLen == 0 ? null : new Dim3(ev.grid[0], ev.gridLen > 1 ? ev.grid[1] : 1,
                ev.gridLen > 2 ? ev.grid[2] : 1);
        Dim3 block = ev.blockLen == 0 ? null : new Dim3(ev.block[0], ev.blockLen > 1 ? ev.block[1] : 1,
                ev.blockLen > 2 ? ev.block[2] : 1);
        sink.kernel(new KernelLaunch(sliceId, deviceId, stream, ev.hasCorrelation ? ev.correlation : null, grid,
                block, ev.registers, ev.sharedMemory, null));
        if ("cuda_profiler_range".equals(ev.cat)) {
            for (int i = 0; i < ev.numericCount; i++) {
                sink.kernelCounter(new KernelCounter(sliceId, ev.numericKeys[i], ev.numericValues[i]));
                kernelCounters++;
            }
        }
    }

    private TransferKind transferKind(String name) {
        String k = ev.kindArg != null ? ev.kindArg : name;
        String u = k.toUpperCase(Locale.ROOT);
        if (u.contains("HTOD")) {
            return TransferKind.HTOD;
        }
        if (u.contains("DTOH")) {
            return TransferKind.DTOH;
        }
        if (u.contains("DTOD")) {
            return TransferKind.DTOD;
        }
        if (u.contains("HTOH")) {
            return TransferKind.HTOH;
        }
        if (u.contains("PTOP")) {
            return TransferKind.PTOP;
        }
        return TransferKind.UNKNOWN;
    }

    private void transfer(long sliceId, long ts, long dur, TransferKind kind) {
        Long device = ev.hasDevice ? Long.valueOf(ev.device) : parseLooseLong(pid());
        Long deviceId = device == null ? null : tree.device(device).id;
        Long src = switch (kind) {
            case DTOH, DTOD, PTOP -> deviceId;
            default -> null;
        };
        Long dst = switch (kind) {
            case HTOD, DTOD, PTOP, MEMSET -> deviceId;
            default -> null;
        };
        Transfer t = new Transfer(sink.newId(Entity.TRANSFER), sliceId, ts, dur, ev.hasBytes ? ev.bytes : 0, kind,
                src, dst, null, null, null, ev.hasCorrelation ? ev.correlation : null);
        if (ev.hasBytes) {
            sink.transfer(t);
        } else {
            transfersWithoutBytes.add(new TransferWithoutBytes(t, eventPosition()));
        }
    }

    /** Emits the copies that lacked a byte count, with the size their launching API call gave where it did. */
    private void completeTransferBytes() {
        for (TransferWithoutBytes pending : transfersWithoutBytes) {
            Transfer t = pending.transfer();
            long bytes = t.correlationId() == null ? -1 : apiBytesByCorrelation.get(t.correlationId(), -1);
            if (bytes >= 0) {
                sink.transfer(new Transfer(t.id(), t.sliceId(), t.ts(), t.dur(), bytes, t.kind(), t.srcDeviceId(),
                        t.dstDeviceId(), t.srcNodeId(), t.dstNodeId(), t.blockId(), t.correlationId()));
                count(SkipReason.BYTES_FROM_CALL, null, pending.where());
            } else {
                sink.transfer(t);
                count(SkipReason.MISSING_BYTES, null, pending.where());
            }
        }
    }

    private void begin() {
        Category category = categoryOf(ev.cat);
        long track = trackFor(category);
        String key = pid() + '\u0000' + tid();
        openB.begin(key, new OpenSlice(track, key, name(), ev.cat, ev.ts, ev.args, ev.offset, ev.line));
    }

    private void end() {
        String key = pid() + '\u0000' + tid();
        OpenSlice b = openB.end(key);
        if (b == null) {
            // A trace recorded into a ring buffer starts inside slices: their ends come without a begin.
            openB.unmatchedEnd(located(SkipReason.UNMATCHED_END, STRAY_END, eventPosition()));
            return;
        }
        if (ev.ts < b.ts()) {
            count(SkipReason.IMPOSSIBLE_TIME, "'E' event earlier than its 'B' (both skipped)", eventPosition()
                    + ", its 'B' at " + (gzip ? "decompressed byte " : "byte ") + b.offset());
            return;
        }
        String args = mergeArgs(b.args(), ev.args);
        Category category = categoryOf(b.cat());
        if (category == Category.OTHER) {
            count(SkipReason.KEPT_GENERIC, "slice of category '" + b.cat() + "' (generic slice)", eventPosition());
        }
        emitSlice(b.trackId(), b.ts(), ev.ts - b.ts(), b.name(), category, b.cat(), args);
    }

    private static String mergeArgs(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.substring(0, a.length() - 1) + "," + b.substring(1);
    }

    private void instant() {
        String scope = ev.scope == null ? "t" : ev.scope;
        long track;
        if (scope.equals("g")) {
            track = tree.asyncTrack(tree.process(pid()), "global instants");
        } else if (scope.equals("p")) {
            track = tree.process(pid()).trackId;
        } else {
            track = trackFor(categoryOf(ev.cat));
        }
        sink.instant(new Instant(sink.newId(Entity.INSTANT), track, ev.ts, name(), categoryOf(ev.cat), ev.cat,
                ev.args));
    }

    private void generic(String ph) {
        ChromeTracks.Thr t = tree.thread(pid(), tid());
        JsonText args = new JsonText().put("ph", ph);
        if (ev.args != null) {
            args.putRaw("args", ev.args);
        }
        sink.instant(new Instant(sink.newId(Entity.INSTANT), t.trackId, ev.hasTs ? ev.ts : 0, name(),
                Category.OTHER, ev.cat, args.toString()));
    }

    private void counter() {
        ChromeTracks.Proc p = tree.process(pid());
        String base = ev.id == null ? name() : name() + " " + ev.id;
        if (ev.numericCount == 0) {
            count(SkipReason.BAD_VALUE, "counter event without numeric args", eventPosition());
        }
        for (int i = 0; i < ev.numericCount; i++) {
            String series = ev.numericCount == 1 && ev.numericKeys[i].equals("value") ? base
                    : base + " " + ev.numericKeys[i];
            sink.counter(new CounterSample(tree.counterTrack(p, series), ev.ts, ev.numericValues[i]));
        }
    }

    private String asyncKey() {
        return pid() + '\u0000' + ev.cat + '\u0000' + ev.id + '\u0000' + name();
    }

    private void asyncBegin() {
        ChromeTracks.Proc p = tree.process(pid());
        long track = tree.asyncTrack(p, "async " + (ev.cat == null ? "" : ev.cat));
        openAsync.put(asyncKey(), new OpenSlice(track, asyncKey(), name(), ev.cat, ev.ts, ev.args, ev.offset,
                ev.line));
    }

    private void asyncEnd() {
        OpenSlice b = openAsync.remove(asyncKey());
        if (b == null) {
            count(SkipReason.UNMATCHED_END, "async end ('e') (instant)", eventPosition());
            generic("e");
            return;
        }
        if (ev.ts < b.ts()) {
            count(SkipReason.ENDS_BEFORE_START, "async end ('e') (instant)", eventPosition());
            generic("e");
            return;
        }
        Category category = categoryOf(b.cat());
        long id = sink.newId(Entity.SLICE);
        sink.slice(new Slice(id, b.trackId(), b.ts(), ev.ts - b.ts(), b.name(), category, b.cat(), -1, null,
                mergeArgs(b.args(), ev.args)));
    }

    private void asyncInstant() {
        ChromeTracks.Proc p = tree.process(pid());
        long track = tree.asyncTrack(p, "async " + (ev.cat == null ? "" : ev.cat));
        sink.instant(new Instant(sink.newId(Entity.INSTANT), track, ev.ts, name(), categoryOf(ev.cat), ev.cat,
                ev.args));
    }

    private void flowEnd(char ph) {
        if (ev.id == null) {
            count(SkipReason.UNMATCHED_FLOW, "flow event without id", eventPosition());
            return;
        }
        boolean enclosing = ph != 'f' || "e".equals(ev.bp);
        flowEnds.add(new FlowEnd(ev.cat == null ? "" : ev.cat, ev.id, ph, pid() + '\u0000' + tid(), ev.ts,
                enclosing, eventPosition()));
    }

    private void metadata() {
        String what = name();
        switch (what) {
            case "process_name", "process_labels" -> {
                String text = what.equals("process_name") ? ev.nameArg : ev.labelsArg;
                tree.processMetadata(pid(), what, text, null);
            }
            case "process_sort_index" -> tree.processMetadata(pid(), what, null,
                    ev.hasSortIndex ? (int) ev.sortIndex : null);
            case "thread_name" -> tree.threadMetadata(pid(), tid(), what, ev.nameArg, null);
            case "thread_sort_index" -> tree.threadMetadata(pid(), tid(), what, null,
                    ev.hasSortIndex ? (int) ev.sortIndex : null);
            default -> {
                count(SkipReason.KEPT_GENERIC, "metadata event '" + what + "' (trace_info)", eventPosition());
                sink.info("chrome.metadata." + what + "." + pid() + "." + tid(), ev.args);
            }
        }
    }

    private void count(SkipReason reason, String detail, String where) {
        count(reason, detail, where, 1);
    }

    private void count(SkipReason reason, String detail, String where, long n) {
        skipped.add(reason, detail, located(reason, detail, where), n);
    }

    /** {@code where} with the file in front, for the first item of (reason, detail); later ones need none. */
    private String located(SkipReason reason, String detail, String where) {
        return skipped.count(reason, detail) > 0 || where.startsWith(file.toString()) ? where : file + " at " + where;
    }

    // ---- end of input: open slices, flows, tree ----

    /** The detail {@link #end} counts for an 'E' without a 'B' (not damage: tracing may start inside a slice). */
    static final String STRAY_END = "'E' event";
    /** The detail {@link #finish} counts for a 'B' without an 'E' (marked "unended":true in its args). */
    static final String UNENDED = "'B' event";
    private static final String UNENDED_ARG = "{\"unended\":true}";

    /** Closes the slices whose 'E' never came at the latest time of the trace, in file order of their 'B'. */
    private void closeUnended() {
        List<OpenSlice> open = openB.drain();
        open.sort(java.util.Comparator.comparingLong(OpenSlice::offset));
        for (OpenSlice b : open) {
            openB.unended(located(SkipReason.UNENDED_SLICE, UNENDED, (gzip ? "decompressed byte " : "byte ")
                    + b.offset() + " (line " + b.line() + ")"), 1);
            ev.reset();
            int cut = b.key().indexOf('\u0000');
            ev.pid = b.key().substring(0, cut);
            ev.tid = b.key().substring(cut + 1);
            Category category = categoryOf(b.cat());
            emitSlice(b.trackId(), b.ts(), Math.max(traceEnd, b.ts()) - b.ts(), b.name(), category, b.cat(),
                    mergeArgs(b.args(), UNENDED_ARG));
        }
    }

    private void finish() throws TraceFormatException {
        closeUnended();
        for (OpenSlice b : openAsync.values()) {
            count(SkipReason.UNENDED_INTERVAL, "async begin ('b')",
                    (gzip ? "decompressed byte " : "byte ") + b.offset() + " (line " + b.line() + ")");
        }
        resolveCorrelationFlows();
        resolveSourceFlows();
        completeTransferBytes();
        tree.emit();
        sink.info("chrome.events", Long.toString(events));
        if (kernelCounters > 0) {
            sink.info("serialized_by_profiler", "true");
        }
        skipped.flushTo(sink);
        progress.advance(counting == null ? 0 : counting.count);
    }

    private long flowPairs;
    private long flowPairsMatchingCorrelation;
    private final java.util.Set<SlicePair> correlationFlowPairs = new java.util.HashSet<>();

    private record SlicePair(long from, long to) {}

    private void resolveCorrelationFlows() {
        correlationFlows.onLinked((api, gpu) -> correlationFlowPairs.add(new SlicePair(api, gpu))).finish();
        long unmatched = correlationFlows.unlinked();
        if (unmatched > 0) {
            count(SkipReason.UNLINKED, "GPU activity whose correlation id has no API call", file.toString(),
                    unmatched);
        }
    }

    private void resolveSourceFlows() {
        if (flowEnds.isEmpty()) {
            return;
        }
        sliceIndex.sort();
        // Flow ids pair up whatever the file order: group by (category, id), then walk each group in time order.
        Map<String, List<FlowEnd>> groups = new LinkedHashMap<>();
        for (FlowEnd f : flowEnds) {
            groups.computeIfAbsent(f.cat() + '\u0000' + f.id(), k -> new ArrayList<>(2)).add(f);
        }
        for (List<FlowEnd> group : groups.values()) {
            group.sort(java.util.Comparator.comparingLong(FlowEnd::ts).thenComparingInt(f -> "stf".indexOf(f.ph())));
            FlowEnd previous = null;
            for (FlowEnd f : group) {
                if (f.ph() == 's') {
                    if (previous != null) {
                        count(SkipReason.UNMATCHED_FLOW, "flow start ('s') without end (" + previous.cat() + ")",
                                previous.where());
                    }
                    previous = f;
                    continue;
                }
                if (previous == null) {
                    count(SkipReason.UNMATCHED_FLOW, "flow " + (f.ph() == 'f' ? "end ('f')" : "step ('t')")
                            + " without start (" + f.cat() + ")", f.where());
                    continue;
                }
                long from = sliceIndex.find(previous.threadKey(), previous.ts(), previous.enclosing());
                long to = sliceIndex.find(f.threadKey(), f.ts(), f.enclosing());
                if (from < 0 || to < 0) {
                    count(SkipReason.UNMATCHED_FLOW, "flow whose end is on no slice (" + f.cat() + ")", f.where());
                } else {
                    flowPairs++;
                    if (correlationFlowPairs.contains(new SlicePair(from, to))) {
                        flowPairsMatchingCorrelation++;
                    } else {
                        sink.flow(new org.hetscope.model.Flow(sink.newId(Entity.FLOW), from, to, f.cat(), null,
                                org.hetscope.model.FlowRule.SOURCE));
                    }
                }
                previous = f.ph() == 'f' ? null : f;
            }
            if (previous != null) {
                count(SkipReason.UNMATCHED_FLOW, "flow start ('s') without end (" + previous.cat() + ")",
                        previous.where());
            }
        }
        sink.info("chrome.flow_pairs", Long.toString(flowPairs));
        sink.info("chrome.flow_pairs_same_as_correlation", Long.toString(flowPairsMatchingCorrelation));
    }

    /** The parser's input, remembering the parser's buffer of the last read and how far that read filled it. */
    private static final class ParserInput extends FilterInputStream {
        private byte[] lastBuf;
        private int lastEnd;

        ParserInput(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                lastBuf = b;
                lastEnd = off + n;
            }
            return n;
        }

        /**
         * Whether the last byte the parser took, {@code unread} bytes before the end of its last read, is an
         * unescaped '"'. The parser reads into its buffer from the start, keeping what it had not used in order
         * before the new bytes, so the bytes before lastEnd are its input in order.
         */
        boolean endsWithClosingQuote(int unread) {
            int end = lastEnd - unread;
            if (lastBuf == null || end <= 0 || end > lastBuf.length || lastBuf[end - 1] != '"') {
                return false;
            }
            int backslashes = 0;
            for (int k = end - 2; k >= 0 && lastBuf[k] == '\\'; k--) {
                backslashes++;
            }
            return backslashes % 2 == 0;
        }
    }

    /** Some bytes, then a stream; unlike SequenceInputStream it never closes the stream (the file stays open). */
    private static final class Concat extends InputStream {
        private final byte[] head;
        private int pos;
        private final InputStream tail;

        Concat(byte[] head, InputStream tail) {
            this.head = head;
            this.tail = tail;
        }

        /** {@code a}, {@code b}, then {@code rest}; without stacking one Concat on another. */
        static Concat of(byte[] a, byte[] b, InputStream rest) {
            byte[] unread = rest instanceof Concat c ? java.util.Arrays.copyOfRange(c.head, c.pos, c.head.length)
                    : new byte[0];
            byte[] head = new byte[a.length + b.length + unread.length];
            System.arraycopy(a, 0, head, 0, a.length);
            System.arraycopy(b, 0, head, a.length, b.length);
            System.arraycopy(unread, 0, head, a.length + b.length, unread.length);
            return new Concat(head, rest instanceof Concat c ? c.tail : rest);
        }

        @Override
        public int read() throws IOException {
            return pos < head.length ? head[pos++] & 0xff : tail.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos < head.length) {
                int n = Math.min(len, head.length - pos);
                System.arraycopy(head, pos, b, off, n);
                pos += n;
                return n;
            }
            return tail.read(b, off, len);
        }
    }

    /** Gzip decompression that can say how far into the compressed file it got. */
    private static final class Gunzip extends GZIPInputStream {
        private final CountingStream compressed;

        Gunzip(CountingStream compressed) throws IOException {
            super(compressed, 1 << 16);
            this.compressed = compressed;
        }

        /** Decompressed bytes given so far (the reader's buffers may not have passed them all on yet). */
        long produced;

        /** Compressed bytes used so far: those read from the file less those still waiting in the inflater. */
        long consumed() {
            return compressed.count - inf.getRemaining();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                produced += n;
            }
            return n;
        }
    }

    /** Counts bytes read from the file, for progress, and from the JSON text, for positions. */
    private static final class CountingStream extends FilterInputStream {
        long count;
        private long mark;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public synchronized void mark(int limit) {
            super.mark(limit);
            mark = count;
        }

        @Override
        public synchronized void reset() throws IOException {
            super.reset();
            count = mark;
        }
    }
}
