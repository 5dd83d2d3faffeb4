package org.hetscope.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hetscope.store.ClockAlignment.Request;

/**
 * How {@code import} is told to put each trace's clock on the store's timeline: {@code --clock SOURCE=SPEC} and a
 * JSON manifest (docs/cli.md, "Merging traces"). SOURCE is a source number (1 for the first trace), the trace's path
 * as given, or its file name. SPEC is an offset with its sign and unit ({@code +1.5ms}, {@code -200ns}), optionally
 * followed by {@code ,drift=20ppm} (or a plain fraction, {@code drift=2e-5}), or one of {@code auto}, {@code facts},
 * {@code messages}, {@code none}, {@code marker:NAME}.
 */
final class ClockOptions {
    private ClockOptions() {}

    /** A manifest: the traces it names (relative to its folder) and what it asks for each. */
    record Manifest(List<Path> traces, Map<String, Request> requests) {}

    /** Parses one {@code --clock} value into (SOURCE, request). */
    static Map.Entry<String, Request> parseOption(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--clock '" + text + "': give SOURCE=OFFSET (e.g. 2=+1.5ms), "
                    + "SOURCE=OFFSET,drift=20ppm, or SOURCE=auto|facts|messages|none|marker:NAME");
        }
        return Map.entry(text.substring(0, eq).strip(), parseSpec(text.substring(eq + 1).strip(), text));
    }

    static Request parseSpec(String spec, String context) {
        String s = spec.strip();
        switch (s.toLowerCase(Locale.ROOT)) {
            case "auto" -> {
                return Request.auto();
            }
            case "facts" -> {
                return Request.of(Request.Mode.FACTS);
            }
            case "messages" -> {
                return Request.of(Request.Mode.MESSAGES);
            }
            case "none" -> {
                return Request.of(Request.Mode.NONE);
            }
            default -> {
                // an offset, below
            }
        }
        if (s.startsWith("marker:")) {
            String name = s.substring("marker:".length());
            if (name.isEmpty()) {
                throw new IllegalArgumentException("'" + context + "': marker: needs the name of a slice or instant");
            }
            return Request.marker(name);
        }
        String offsetText = s;
        double drift = 0;
        int comma = s.indexOf(',');
        if (comma >= 0) {
            offsetText = s.substring(0, comma).strip();
            String rest = s.substring(comma + 1).strip();
            if (!rest.startsWith("drift=")) {
                throw new IllegalArgumentException("'" + context + "': after the offset only ,drift=D is understood");
            }
            drift = parseDrift(rest.substring("drift=".length()), context);
        }
        return Request.given(parseOffset(offsetText, context), drift, null);
    }

    /** A signed duration with a unit: {@code +1.5ms}, {@code -200ns}, {@code 3s}; a bare number is ns. */
    static long parseOffset(String text, String context) {
        String t = text.strip();
        boolean negative = t.startsWith("-");
        if (t.startsWith("+") || negative) {
            t = t.substring(1);
        }
        try {
            long ns = TraceTime.parseDuration(t);
            return negative ? -ns : ns;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + context + "': offset " + e.getMessage()
                    + " (give a signed duration such as +1.5ms or -200ns)");
        }
    }

    /** Drift as a fraction: {@code 20ppm}, {@code 1.5ppb}, or a plain number ({@code 2e-5}). */
    static double parseDrift(String text, String context) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int shift = 0;
        if (t.endsWith("ppm")) {
            shift = 6;
            t = t.substring(0, t.length() - 3);
        } else if (t.endsWith("ppb")) {
            shift = 9;
            t = t.substring(0, t.length() - 3);
        }
        try {
            double d = new BigDecimal(t.strip()).movePointLeft(shift).doubleValue();
            if (!Double.isFinite(d) || Math.abs(d) >= 0.5) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + context + "': drift '" + text + "' is not a number such as "
                    + "20ppm, 1.5ppb or 2e-5 (below 0.5 in size)");
        }
    }

    /**
     * Reads a manifest:
     * <pre>{"traces": [{"path": "rank0.json"}, {"path": "rank1.json", "offset": "+1.5ms", "drift": "20ppm"},
     *            {"path": "gpu.sqlite", "align": "messages"}]}</pre>
     * {@code path} is relative to the manifest's folder; {@code align} takes the SPEC words of {@code --clock}.
     */
    static Manifest readManifest(Path file) throws IOException {
        List<Path> traces = new ArrayList<>();
        Map<String, Request> requests = new LinkedHashMap<>();
        Path dir = file.toAbsolutePath().getParent();
        try (JsonParser p = new JsonFactory().createParser(Files.newInputStream(file))) {
            expect(p, p.nextToken() == JsonToken.START_OBJECT, file, "a JSON object");
            boolean found = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken v = p.nextToken();
                if (!key.equals("traces")) {
                    p.skipChildren();
                    continue;
                }
                expect(p, v == JsonToken.START_ARRAY, file, "\"traces\": an array");
                found = true;
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String k = p.currentName();
                        JsonToken t = p.nextToken();
                        expect(p, t.isScalarValue(), file, "\"" + k + "\": a string or number");
                        fields.put(k, p.getText());
                    }
                    String path = fields.get("path");
                    expect(p, path != null && !path.isBlank(), file, "\"path\" in every trace entry");
                    Path trace = dir.resolve(path).normalize();
                    traces.add(trace);
                    String context = file + ": trace " + path;
                    Request r;
                    if (fields.containsKey("offset")) {
                        double drift = fields.containsKey("drift") ? parseDrift(fields.get("drift"), context) : 0;
                        r = Request.given(parseOffset(fields.get("offset"), context), drift, null);
                    } else if (fields.containsKey("align")) {
                        r = parseSpec(fields.get("align"), context);
                    } else {
                        r = Request.auto();
                    }
                    requests.put(trace.toString(), r);
                }
            }
            expect(p, found, file, "a \"traces\" array");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + ": not a manifest: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        }
        return new Manifest(traces, requests);
    }

    private static void expect(JsonParser p, boolean ok, Path file, String what) throws IOException {
        if (!ok) {
            throw new IOException(file + ": not a manifest: expected " + what + " at line "
                    + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr());
        }
    }

    /**
     * Which source (1-based) a SOURCE names: its number, the path as given, the same file by absolute path, or
     * its file name when that is unique.
     */
    static int resolve(String source, List<Path> inputs) {
        if (source.matches("[0-9]+")) {
            int n = Integer.parseInt(source);
            if (n >= 1 && n <= inputs.size()) {
                return n;
            }
            throw new IllegalArgumentException("--clock " + source + "=...: there are " + inputs.size()
                    + " traces (sources 1 to " + inputs.size() + ")");
        }
        Path asPath = Path.of(source).toAbsolutePath().normalize();
        int byName = 0;
        int count = 0;
        for (int i = 0; i < inputs.size(); i++) {
            Path in = inputs.get(i);
            if (in.toString().equals(source) || in.toAbsolutePath().normalize().equals(asPath)) {
                return i + 1;
            }
            if (in.getFileName() != null && in.getFileName().toString().equals(source)) {
                byName = i + 1;
                count++;
            }
        }
        if (count == 1) {
            return byName;
        }
        throw new IllegalArgumentException("--clock " + source + "=...: " + (count > 1
                ? "several traces have that file name; give the source number or the path"
                : "no trace of this import is '" + source + "' (give a source number, 1 for the first trace, "
                        + "its path or its file name)"));
    }
}
