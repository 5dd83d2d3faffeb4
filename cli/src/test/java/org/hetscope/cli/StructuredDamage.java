package org.hetscope.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/**
 * Damage that follows the structure of a format (one event or record, a record boundary), for the "one damaged
 * spot" cases of {@link MutatedInputTest}: what each kind of damage may cost is known, so the import can be compared
 * with the undamaged one.
 */
final class StructuredDamage {
    private StructuredDamage() {}

    /** A damaged copy and what it may cost: slices lost and gained at most, and how the import must end. */
    record Case(Path input, String what, int maxLost, int maxGained, boolean fatal) {}

    /** Kinds of damage to a Chrome trace, each at one event chosen by the seed. */
    enum Chrome { TYPE_SWAP, BAD_NUMBER, STRAY_END, UNENDED_BEGIN, DEEP_NESTING, OVERSIZED_STRING, OVERSIZED_NAME,
        TRAILING_GARBAGE, BYTE_ORDER_MARK, CUT_AT_EVENT }

    /** Kinds of damage to a StarPU folder, each at one line or record chosen by the seed. */
    enum Starpu { PAJE_BAD_NUMBER, PAJE_TYPE_SWAP, PAJE_CUT_MID_LINE, PAJE_OVERSIZED_LINE, TASKS_CUT_MID_RECORD,
        TASKS_BAD_NUMBER, DATA_BAD_NUMBER, TASKS_OVERSIZED_LINE, DAG_OVERSIZED_LINE }

    /** The limit the oversized cases are made for (set as the system property while they are imported): above any
     * real token of the fixtures (Kineto kernel names run to several KB). */
    static final int TOKEN_LIMIT = 1 << 16;

    static String gunzip(Path p) throws IOException {
        try (InputStream in = p.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(p))
                : Files.newInputStream(p)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The char range [start, end) of each trace event (the fixtures are ASCII: bytes are chars). */
    static List<int[]> events(String json) throws IOException {
        List<int[]> out = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(json.getBytes(StandardCharsets.UTF_8))) {
            int depth = 0;
            int eventsDepth = -1;
            String lastName = null;
            int start = -1;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case FIELD_NAME -> lastName = p.currentName();
                    case START_ARRAY, START_OBJECT -> {
                        depth++;
                        if (t == JsonToken.START_ARRAY && eventsDepth < 0
                                && (depth == 1 || "traceEvents".equals(lastName))) {
                            eventsDepth = depth;
                        } else if (t == JsonToken.START_OBJECT && depth == eventsDepth + 1) {
                            start = (int) p.currentTokenLocation().getByteOffset();
                        }
                    }
                    case END_ARRAY, END_OBJECT -> {
                        if (t == JsonToken.END_OBJECT && depth == eventsDepth + 1) {
                            out.add(new int[] {start, (int) p.currentLocation().getByteOffset()});
                        }
                        depth--;
                    }
                    default -> { }
                }
            }
        }
        return out;
    }

    /** A damaged copy of a Chrome fixture in {@code dir}. */
    static Case chrome(Path fixture, Chrome kind, Random random, Path dir) throws IOException {
        String json = gunzip(fixture);
        List<int[]> events = events(json);
        // a complete event at a random place: its slice is what one damaged spot may cost
        int k = random.nextInt(events.size());
        for (int tries = 0; tries < events.size(); tries++, k = (k + 1) % events.size()) {
            if (json.substring(events.get(k)[0], events.get(k)[1]).matches("(?s).*\"ph\": ?\"X\".*")) {
                break;
            }
        }
        int[] e = events.get(k);
        String event = json.substring(e[0], e[1]);
        String before = json.substring(0, e[0]);
        String after = json.substring(e[1]);
        String text;
        int lost = 1;
        int gained = 0;
        boolean fatal = false;
        switch (kind) {
            case TYPE_SWAP -> {
                String[] swaps = {"\"ts\": ?[0-9.]+", "\"ts\":\"12.5us\"", "\"pid\": ?[0-9\"A-Za-z]+", "\"pid\":{\"x\":1}",
                    "\"ph\": ?\"X\"", "\"ph\":3", "\"dur\": ?[0-9.]+", "\"dur\":[1]"};
                int s = 2 * random.nextInt(swaps.length / 2);
                text = before + event.replaceFirst(swaps[s], java.util.regex.Matcher.quoteReplacement(swaps[s + 1]))
                        + after;
            }
            case BAD_NUMBER -> {
                String[] bad = {"1e400", "-5", "99999999999999999999999999"};
                String b = bad[random.nextInt(bad.length)];
                String field = b.equals("-5") ? "dur" : "ts";
                text = before + event.replaceFirst("\"" + field + "\": ?[0-9.]+", "\"" + field + "\":" + b) + after;
            }
            case STRAY_END -> {
                text = before + "{\"ph\":\"E\",\"pid\":424242,\"tid\":1,\"ts\":1},\n" + event + after;
                lost = 0;
            }
            case UNENDED_BEGIN -> {
                text = before + "{\"ph\":\"B\",\"name\":\"open\",\"pid\":424242,\"tid\":1,\"ts\":1},\n" + event + after;
                lost = 0;
                gained = 1;
            }
            case DEEP_NESTING -> text = before + event.replaceFirst("\\{", java.util.regex.Matcher.quoteReplacement(
                    "{\"deep\":" + "[".repeat(3000) + "]".repeat(3000) + ",")) + after;
            case OVERSIZED_STRING -> text = before + event.replaceFirst("\\{", "{\"name\":\"" + "s".repeat(3 * TOKEN_LIMIT)
                    + "\",") + after;
            case OVERSIZED_NAME -> text = before + event.replaceFirst("\\{", "{\"" + "n".repeat(3 * TOKEN_LIMIT)
                    + "\":1,") + after;
            case TRAILING_GARBAGE -> {
                text = json.stripTrailing() + "\n" + "x".repeat(1 + random.nextInt(100)) + "\n";
                lost = 0;
            }
            case BYTE_ORDER_MARK -> {
                text = "\uFEFF" + json;
                lost = 0;
            }
            default -> {
                // cut after one event: the rest of the events are lost, the document does not end
                int cut = events.get(events.size() / 2)[1];
                text = json.substring(0, cut) + ",\n";
                lost = Integer.MAX_VALUE;
                fatal = json.stripLeading().startsWith("{");
            }
        }
        Path out = dir.resolve(fixture.getFileName().toString().replace(".gz", ""));
        Files.writeString(out, text);
        return new Case(out, kind + " at event " + k + " (byte " + e[0] + ")", lost, gained, fatal);
    }

    /** A damaged copy of a StarPU folder in {@code dir}. */
    static Case starpu(Path fixture, Starpu kind, Random random, Path dir) throws IOException {
        Path to = Files.createDirectories(dir.resolve(fixture.getFileName()));
        for (String f : List.of("paje.trace", "tasks.rec", "data.rec", "dag.dot")) {
            Files.copy(fixture.resolve(f), to.resolve(f));
            to.resolve(f).toFile().setWritable(true);
        }
        String file = switch (kind) {
            case PAJE_BAD_NUMBER, PAJE_TYPE_SWAP, PAJE_CUT_MID_LINE, PAJE_OVERSIZED_LINE -> "paje.trace";
            case TASKS_CUT_MID_RECORD, TASKS_BAD_NUMBER, TASKS_OVERSIZED_LINE -> "tasks.rec";
            case DATA_BAD_NUMBER -> "data.rec";
            default -> "dag.dot";
        };
        Path victim = to.resolve(file);
        List<String> lines = new ArrayList<>(Files.readAllLines(victim));
        // a body line of paje.trace (not the header), any line of the others
        int first = 0;
        if (file.equals("paje.trace")) {
            while (lines.get(first).startsWith("%") || !lines.get(first).matches("\\d+\\t.*")) {
                first++;
            }
        }
        int at = first + random.nextInt(lines.size() - first);
        if (file.equals("paje.trace")) {
            // a line with a time (its second field)
            while (!lines.get(at).matches("\\d+\\t[0-9.]+\\t.*")) {
                at = first + (at + 1 - first) % (lines.size() - first);
            }
        }
        // slices a damaged paje.trace line may change: its own, and the states around it it opened or closed
        int lost = file.equals("paje.trace") ? 3 : 0;
        int gained = lost;
        String text;
        switch (kind) {
            case PAJE_BAD_NUMBER, PAJE_TYPE_SWAP -> {
                String[] f = lines.get(at).split("\t");
                // the time is the second field of the lines StarPU writes
                f[1] = kind == Starpu.PAJE_BAD_NUMBER ? f[1] + "x" : "\"mm0\"";
                lines.set(at, String.join("\t", f));
                text = String.join("\n", lines) + "\n";
            }
            case PAJE_CUT_MID_LINE -> {
                // what follows is lost, and the states open there end at the new end of the trace
                text = String.join("\n", lines.subList(0, at)) + "\n"
                        + lines.get(at).substring(0, Math.max(1, lines.get(at).length() / 2));
                lost = Integer.MAX_VALUE;
                gained = Integer.MAX_VALUE;
            }
            case PAJE_OVERSIZED_LINE, TASKS_OVERSIZED_LINE, DAG_OVERSIZED_LINE -> {
                if (file.equals("tasks.rec")) {
                    while (!lines.get(at).isBlank()) {
                        at = (at + 1) % lines.size();
                    }
                }
                lines.add(at + 1, (file.equals("dag.dot") ? "// " : "# ") + "o".repeat(3 * TOKEN_LIMIT));
                if (file.equals("tasks.rec")) {
                    lines.add(at + 2, "");
                }
                text = String.join("\n", lines) + "\n";
                lost = 0;
                gained = 0;
            }
            case TASKS_CUT_MID_RECORD -> {
                while (lines.get(at).isBlank()) {
                    at++;
                }
                text = String.join("\n", lines.subList(0, at)) + "\n"
                        + lines.get(at).substring(0, Math.max(1, lines.get(at).length() / 2));
            }
            default -> {
                String field = kind == Starpu.DATA_BAD_NUMBER ? "Size:" : random.nextBoolean() ? "StartTime:"
                        : "Sizes:";
                while (!lines.get(at).startsWith(field)) {
                    at = (at + 1) % lines.size();
                }
                lines.set(at, lines.get(at) + "q");
                text = String.join("\n", lines) + "\n";
            }
        }
        Files.writeString(victim, text);
        return new Case(to, kind + " in " + file + " at line " + (at + 1), lost, gained, false);
    }
}
